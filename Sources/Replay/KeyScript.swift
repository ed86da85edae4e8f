import Interface
import Render

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
        guard let close = line[index...].firstIndex(of: ">") else {
          throw KeyScriptError("\(place): unclosed < (write <lt> for a literal <)")
        }
        let name = String(line[line.index(after: index)..<close])
        if let key = Key.named[name] {
          steps.append(.key(key))
        } else if name == "Snap" {
          steps.append(.snapshot)
        } else if name.hasPrefix("Resize") {
          let argument = name.dropFirst("Resize".count)
          guard argument.first == " ", let size = Size(parsing: String(argument.dropFirst())) else {
            throw KeyScriptError(
              "\(place): bad directive <\(inert(name))> (write <Resize 100x30>)")
          }
          steps.append(.resize(size))
        } else {
          // The name as it stands could carry terminal escapes to stderr: shown inert.
          throw KeyScriptError("\(place): unknown key <\(inert(name))>")
        }
        column += line[index..<close].count
        index = line.index(after: close)
      }
    }
    self.steps = steps
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
