import Interface
import Remote
import Render
import Routing

/// A key script (the README's "Testing routes with key scripts"): keys to type, snapshots to
/// take and resizes.
package struct KeyScript: Sendable, Hashable {
  /// One step of a script.
  package enum Step: Sendable, Hashable {
    /// Press a key.
    case key(Key)
    /// `<Snap>`: take a snapshot.
    case snapshot
    /// `<Resize 100x30>`: resize the terminal.
    case resize(Size)
    /// `<Open URL>`: the URL arrives from outside, as `appshell openurl` hands it in.
    case open(String)
    /// `<Push JSON>`: a push notification arrives, as `appshell push` sends it.
    case push(Push)
    /// `<Wait 1.5s>`: virtual time passes with no key.
    case wait(Seconds)
    /// `<Expect ...>`, `<ExpectNot ...>`, `<ExpectScreen ...>`, `<WaitFor ...>`.
    case expect(Expectation)
  }

  /// A push payload as written in a script (one line of JSON), with what it carries.
  package struct Push: Sendable, Hashable {
    /// The JSON text as written.
    package var text: String
    /// The alert title.
    package var title: String
    /// The alert body.
    package var body: String
    /// The URL the banner opens, if any.
    package var url: String?

    /// Reads a payload; the error says what is wrong with it.
    package init(text: String) throws(WireError) {
      let payload = try PushPayload(text: Array(text.utf8))
      self.text = text
      title = payload.title
      body = payload.body
      url = payload.url
    }
  }

  /// A number of seconds written `1.5s`, `.5s` or `2s`, from 0 to 3600.
  package struct Seconds: Sendable, Hashable {
    /// The number as written, without the `s`.
    package var text: String
    /// The time it stands for.
    package var duration: Duration

    /// The largest number of seconds accepted.
    package static let maximum = 3600.0

    /// Reads `Ns`; nil when it is not a decimal number of seconds from 0 to 3600.
    package init?(parsing written: Substring) {
      guard written.last == "s" else { return nil }
      let number = written.dropLast()
      let parts = number.split(separator: ".", omittingEmptySubsequences: false)
      guard !number.isEmpty, number != ".", parts.count <= 2,
        parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
        let value = Double(number.hasPrefix(".") ? "0" + number : String(number)),
        value <= Self.maximum
      else { return nil }
      text = String(number)
      duration = .milliseconds(Int64((value * 1000).rounded()))
    }

    /// Makes a number of seconds from its text and time.
    package init(text: String, duration: Duration) {
      self.text = text
      self.duration = duration
    }
  }

  /// Text in double quotes (`\"` and `\\` are its escapes).
  package struct Quoted: Sendable, Hashable {
    /// The text, escapes decoded.
    package var text: String
    /// The text as written between the quotes.
    package var written: String
  }

  /// What a script expects of the screen, and where it says so.
  package struct Expectation: Sendable, Hashable {
    /// What is expected.
    package enum Kind: Sendable, Hashable {
      /// `<Expect "TEXT">`: a line of the screen contains TEXT.
      case contains(Quoted)
      /// `<ExpectNot "TEXT">`: no line of the screen contains TEXT.
      case lacks(Quoted)
      /// `<ExpectScreen NAME>`: the screen on top is named NAME.
      case screen(String)
      /// `<WaitFor "TEXT" Ns>`: TEXT appears within the time given (5 s when nil).
      case waitFor(Quoted, Seconds?)
    }

    /// What is expected.
    package var kind: Kind
    /// `FILE:LINE:COL` of the directive's `<`.
    package var place: String

    /// How long `<WaitFor>` waits when no time is given.
    package static let defaultWait = Seconds(text: "5", duration: .seconds(5))
  }

  /// The steps, in order.
  package var steps: [Step]

  /// The largest script accepted, in bytes.
  package static let maxBytes = 16 << 20

  /// Makes a script from steps.
  package init(steps: [Step]) { self.steps = steps }

  /// Parses script text; the first problem is reported as `FILE:LINE:COL: message`, with the
  /// 1-based line and column (in characters) of the `<`.
  package init(parsing text: String, file: String) throws(KeyScriptError) {
    guard text.utf8.count <= Self.maxBytes else {
      throw KeyScriptError("\(file):1:1: script larger than \(Self.maxBytes) bytes")
    }
    var steps: [Step] = []
    var lineNumber = 0
    // Line breaks are "\n", "\r\n" (one Character in Swift) and a lone "\r"; none is a key.
    let lines = text.split(
      omittingEmptySubsequences: false,
      whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    for line in lines {
      lineNumber += 1
      if line.first == "#" { continue }
      var column = 0
      var index = line.startIndex
      while index < line.endIndex {
        column += 1
        let character = line[index]
        guard character == "<" else {
          steps.append(.key(.character(character)))
          index = line.index(after: index)
          continue
        }
        let place = "\(file):\(lineNumber):\(column)"
        let (step, close) = try Self.directive(in: line, at: index, place: place)
        steps.append(step)
        column += line[index..<close].count
        index = line.index(after: close)
      }
    }
    self.steps = steps
  }

  /// The directive starting at the `<` at `start`, and the index of its closing `>`.
  private static func directive(
    in line: Substring, at start: Substring.Index, place: String
  ) throws(KeyScriptError) -> (Step, Substring.Index) {
    let body = line[line.index(after: start)...]
    if body.hasPrefix("Push ") {
      return try push(body.dropFirst("Push ".count), place: place)
    }
    for (word, make) in [
      ("Expect ", Expectation.Kind.contains), ("ExpectNot ", Expectation.Kind.lacks),
    ] where body.hasPrefix(word + "\"") {
      let (quoted, rest) = try Self.quoted(body.dropFirst(word.count), place: place)
      guard rest.first == ">" else {
        throw KeyScriptError("\(place): write <\(word)\"TEXT\"> (nothing after the closing quote)")
      }
      return (.expect(Expectation(kind: make(quoted), place: place)), rest.startIndex)
    }
    if body.hasPrefix("WaitFor \"") {
      let (quoted, rest) = try Self.quoted(body.dropFirst("WaitFor ".count), place: place)
      guard let close = rest.firstIndex(of: ">") else {
        throw KeyScriptError("\(place): unclosed < (write <lt> for a literal <)")
      }
      var limit: Seconds?
      if close != rest.startIndex {
        guard rest.first == " ",
          let seconds = Seconds(parsing: rest[rest.index(after: rest.startIndex)..<close])
        else {
          throw KeyScriptError(
            "\(place): bad directive <WaitFor> (write <WaitFor \"TEXT\"> or <WaitFor \"TEXT\" 10s>)"
          )
        }
        limit = seconds
      }
      return (.expect(Expectation(kind: .waitFor(quoted, limit), place: place)), close)
    }
    guard let close = body.firstIndex(of: ">") else {
      throw KeyScriptError("\(place): unclosed < (write <lt> for a literal <)")
    }
    let name = String(body[..<close])
    if let key = Key.named[name] { return (.key(key), close) }
    func bad(_ example: String) -> KeyScriptError {
      KeyScriptError("\(place): bad directive <\(inert(name))> (write \(example))")
    }
    // `<Resize...>` written wrong is a bad resize, not an unknown key.
    let word = name.hasPrefix("Resize") ? "Resize" : name.prefix(while: { $0 != " " })
    let argument = name.dropFirst(word.count).dropFirst()
    switch word {
    case "Snap" where name == "Snap":
      return (.snapshot, close)
    case "Resize":
      guard name.dropFirst(word.count).first == " ", let size = Size(parsing: String(argument))
      else { throw bad("<Resize 100x30>") }
      return (.resize(size), close)
    case "Open":
      guard name.dropFirst(word.count).first == " ", !argument.isEmpty else {
        throw bad("<Open URL>")
      }
      return (.open(String(argument)), close)
    case "Wait":
      guard name.dropFirst(word.count).first == " ", let seconds = Seconds(parsing: argument) else {
        throw bad("<Wait 1.5s>, from 0 to 3600 seconds")
      }
      return (.wait(seconds), close)
    case "ExpectScreen":
      guard name.dropFirst(word.count).first == " ", !argument.isEmpty,
        !argument.contains(" ")
      else { throw bad("<ExpectScreen NAME>") }
      return (.expect(Expectation(kind: .screen(String(argument)), place: place)), close)
    case "Expect", "ExpectNot", "WaitFor":
      throw bad("<\(word) \"TEXT\">")
    case "Push":
      throw bad("<Push {\"aps\":{\"alert\":\"...\"}}>")
    default:
      // The name as it stands could carry terminal escapes to stderr: shown inert.
      let known = Key.named.keys.sorted() + ["Snap", "Resize", "Open", "Wait", "Push", "Expect"]
      let hint = CloseName.closest(to: name, in: known).map { "; did you mean <\($0)>?" } ?? ""
      throw KeyScriptError("\(place): unknown key <\(inert(name))>\(hint)")
    }
  }

  /// `"TEXT"` at the start of `text`, and what follows the closing quote.
  private static func quoted(_ text: Substring, place: String) throws(KeyScriptError) -> (
    Quoted, Substring
  ) {
    var decoded = ""
    var index = text.index(after: text.startIndex)
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" {
        let written = String(text[text.index(after: text.startIndex)..<index])
        return (Quoted(text: decoded, written: written), text[text.index(after: index)...])
      }
      if character == "\\" {
        let next = text.index(after: index)
        guard next < text.endIndex, text[next] == "\"" || text[next] == "\\" else {
          throw KeyScriptError(
            "\(place): bad escape in \"TEXT\" (only \\\" and \\\\ are escapes)")
        }
        decoded.append(text[next])
        index = text.index(after: next)
        continue
      }
      decoded.append(character)
      index = text.index(after: index)
    }
    throw KeyScriptError("\(place): unclosed \" (the text must end on the same line)")
  }

  /// `{...}>`: the JSON object up to its closing brace, which a `>` must follow.
  private static func push(_ text: Substring, place: String) throws(KeyScriptError) -> (
    Step, Substring.Index
  ) {
    guard text.first == "{" else {
      throw KeyScriptError("\(place): <Push> needs one JSON object on one line")
    }
    var depth = 0
    var inString = false
    var escaped = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if inString {
        if escaped {
          escaped = false
        } else if character == "\\" {
          escaped = true
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == "{" || character == "[" {
        depth += 1
      } else if character == "}" || character == "]" {
        depth -= 1
        if depth == 0 { break }
      }
      index = text.index(after: index)
    }
    guard index < text.endIndex else {
      throw KeyScriptError("\(place): <Push> needs one JSON object on one line, then >")
    }
    let after = text.index(after: index)
    guard after < text.endIndex, text[after] == ">" else {
      throw KeyScriptError("\(place): <Push {...}> must end with > right after the object")
    }
    do {
      return (.push(try Push(text: String(text[...index]))), after)
    } catch {
      throw KeyScriptError("\(place): bad <Push> payload: \(inert(error.description))")
    }
  }

  /// The script as text, on one line, that parses back to the same steps.
  package var text: String {
    var writer = KeyScriptWriter(breaksAfterEnter: false)
    return steps.map { writer.text(for: $0) }.joined()
  }
}

/// Writes key-script text one step at a time (as `appshell --record` does), so that the
/// text parses back to the same steps: where a step's text would join the previous one into
/// one character (a combining mark after a letter, say), a line break goes between them, as
/// line breaks are not keys; a line never starts with a typed `#`, which would be a comment.
package struct KeyScriptWriter: Sendable {
  private let breaksAfterEnter: Bool
  private var last: Character?
  private var afterEnter = false

  /// A writer; with `breaksAfterEnter`, each `<Enter>` ends a line when it safely can, so a
  /// recorded session reads one URL per line.
  package init(breaksAfterEnter: Bool) {
    self.breaksAfterEnter = breaksAfterEnter
  }

  /// The text to append for the next step.
  package mutating func text(for step: KeyScript.Step) -> String {
    let piece: String
    switch step {
    case .key(let key): piece = key.scriptName
    case .snapshot: piece = "<Snap>"
    case .resize(let size): piece = "<Resize \(size)>"
    case .open(let url): piece = "<Open \(url)>"
    case .push(let push): piece = "<Push \(push.text)>"
    case .wait(let seconds): piece = "<Wait \(seconds.text)s>"
    case .expect(let expectation):
      switch expectation.kind {
      case .contains(let text): piece = "<Expect \"\(text.written)\">"
      case .lacks(let text): piece = "<ExpectNot \"\(text.written)\">"
      case .screen(let name): piece = "<ExpectScreen \(name)>"
      case .waitFor(let text, let limit):
        piece = "<WaitFor \"\(text.written)\"\(limit.map { " \($0.text)s" } ?? "")>"
      }
    }
    var out = ""
    if let last, let first = piece.first {
      if (String(last) + String(first)).count < 2 {
        out = "\n"
      } else if breaksAfterEnter, afterEnter, first != "#" {
        out = "\n"
      }
    }
    out += piece
    last = piece.last ?? last
    afterEnter = step == .key(.enter)
    return out
  }
}

/// A key script that cannot be used: `FILE:LINE:COL: message`.
package struct KeyScriptError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The message with its place.
  package var description: String

  init(_ description: String) { self.description = description }
}
