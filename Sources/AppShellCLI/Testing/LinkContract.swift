import Interface
import Replay
import Routing
import Shell

/// A link contract (`*.links.json`): cases of a URL, where it comes from, and what the app
/// must show after opening it. Each case is one test of `appshell test`.
struct LinkContract {
  /// Where a case's URL comes from.
  enum From: String, CaseIterable {
    /// Typed at the prompt.
    case inside
    /// Handed in while running, as `appshell openurl` does.
    case outside
    /// The URL the app starts with, as `appshell --open` does.
    case cold
  }

  /// One case.
  struct Case {
    /// Its number, from 1.
    var number: Int
    /// The URL to open.
    var url: String
    /// Where it comes from.
    var from: From
    /// The members of `expect`, in order.
    var expect: [JSONMember]
  }

  /// The members a case may have.
  static let caseMembers = ["url", "from", "expect"]

  /// The members `expect` may have.
  static let expectMembers = [
    "screen", "title", "params", "tab", "stack", "presentation", "alert", "matched", "refused",
    "action", "notification", "status", "redirects", "opens",
  ]

  /// How long a case lets work run before it is checked, at most.
  static let settleLimit: Duration = .seconds(30)

  /// The cases, in order.
  var cases: [Case]

  /// Reads a contract; the first problem is `FILE:LINE:COL: message`.
  init(text: String, file: String) throws(ContractError) {
    let located = Locator(text: text, file: file)
    let json: JSON
    do {
      json = try JSON.parse(text)
    } catch {
      throw ContractError("\(file):\(error.line):\(error.column): \(error.message)")
    }
    guard case .object(let top) = json else {
      throw ContractError("\(file):1:1: a link contract is an object with \"cases\"")
    }
    for member in top where member.key != "cases" {
      throw located.error(
        at: member.key, in: located.top,
        "unknown member \"\(member.key)\" (a link contract has only \"cases\")")
    }
    guard case .array(let items)? = json["cases"] else {
      throw ContractError("\(file):1:1: a link contract needs \"cases\": an array of cases")
    }
    let places = located.value(of: "cases", in: located.top).map { located.elements(of: $0) }
    var cases: [Case] = []
    for (index, item) in items.enumerated() {
      let number = index + 1
      let name = "cases[\(index)]"
      let place = places.flatMap { index < $0.count ? $0[index] : nil } ?? located.top
      guard case .object(let members) = item else {
        throw located.error(at: place, "\(name) must be an object")
      }
      for member in members where !Self.caseMembers.contains(member.key) {
        throw located.error(
          at: member.key, in: place,
          "\(name): unknown member \"\(member.key)\" (a case has url, from and expect)")
      }
      guard case .string(let url)? = item["url"] else {
        throw located.error(at: "url", in: place, "\(name).url must be a string")
      }
      var from = From.inside
      if let value = item["from"] {
        guard case .string(let text) = value, let parsed = From(rawValue: text) else {
          throw located.error(
            at: "from", in: place, "\(name).from is \"inside\", \"outside\" or \"cold\"")
        }
        from = parsed
      }
      guard case .object(let expect)? = item["expect"] else {
        throw located.error(at: "expect", in: place, "\(name).expect must be an object")
      }
      let expectPlace = located.value(of: "expect", in: place) ?? place
      for member in expect {
        try Self.check(member, in: "\(name).expect") { key, message in
          located.error(at: key, in: expectPlace, message)
        }
      }
      cases.append(Case(number: number, url: url, from: from, expect: expect))
    }
    self.cases = cases
  }

  /// Checks that an `expect` member is known and of the right kind.
  private static func check(
    _ member: JSONMember, in name: String, error: (String, String) -> ContractError
  ) throws(ContractError) {
    let path = "\(name).\(member.key)"
    func fail(_ what: String) -> ContractError { error(member.key, "\(path) \(what)") }
    switch (member.key, member.value) {
    case ("screen", .string), ("title", .string), ("tab", .string), ("action", .string),
      ("notification", .string), ("status", .string), ("alert", .string), ("alert", .null),
      ("matched", .bool), ("refused", .bool), ("params", .object):
      return
    case ("stack", .array(let items)), ("redirects", .array(let items)):
      guard items.allSatisfy({ if case .string = $0 { true } else { false } }) else {
        throw fail("must be an array of strings")
      }
    case ("presentation", .string(let text)):
      guard text == "push" || text == "present" else { throw fail("is \"push\" or \"present\"") }
    case ("opens", .string(let text)):
      guard ["app", "safari", "nothing"].contains(text) else {
        throw fail("is \"app\", \"safari\" or \"nothing\"")
      }
    case ("screen", _), ("title", _), ("tab", _), ("action", _), ("notification", _),
      ("status", _), ("presentation", _), ("opens", _):
      throw fail("must be a string")
    case ("alert", _): throw fail("must be a string or null")
    case ("matched", _), ("refused", _): throw fail("must be true or false")
    case ("params", _): throw fail("must be an object")
    case ("stack", _), ("redirects", _): throw fail("must be an array of strings")
    default:
      throw error(
        member.key,
        "\(name): unknown member \"\(member.key)\" (expect has \(expectMembers.joined(separator: ", ")))"
      )
    }
  }

  /// Runs one case in a fresh app; returns what did not hold, one line each (empty: it passed).
  static func run(_ item: Case, app: ShellApp) -> [String] {
    runLogged(item, app: app).problems
  }

  /// ``run(_:app:)``, with the app's event log at the end (what the case opened).
  static func runLogged(_ item: Case, app: ShellApp) -> (problems: [String], log: [LogEntry]) {
    var replayer = Replayer(console: Console(app: app, size: Size(columns: 80, rows: 24)))
    let before = replayer.console.model
    let source: Source = item.from == .inside ? .prompt : .external
    switch item.from {
    case .inside, .outside: replayer.send(.urlOpened(item.url, source: source))
    case .cold: replayer.send(.launchedWithURL(item.url))
    }
    var waited = Duration.zero
    while replayer.console.model.pending != nil, waited < settleLimit {
      replayer.advance(by: Replayer.waitStep)
      waited += Replayer.waitStep
    }
    let report = OpenReport(url: item.url, from: source, before: before, after: replayer.console)
    return (item.expect.compactMap { check($0, against: report) }, replayer.console.model.log)
  }

  /// Whether one `expect` member holds; nil when it does, else `member: expected X, found Y`.
  static func check(_ member: JSONMember, against report: OpenReport) -> String? {
    let shell = report.model.shell
    let top = shell.topScreen
    let found: JSON
    switch member.key {
    case "screen": found = .string(top.name)
    case "title": found = .string(top.title)
    case "tab": found = .string(shell.tabs[shell.selectedTab].title)
    case "stack": found = .array(shell.currentStack.map { .string($0.name) })
    case "presentation":
      found = .string(
        shell.modals.last.map { $0.stack.count == 1 ? "present" : "push" }
          ?? (shell.currentStack.count > 1 ? "push" : "root"))
    case "alert": found = shell.alert.map { .string($0.title) } ?? .null
    case "matched": found = .bool(report.matched)
    case "refused": found = .bool(report.refused != nil)
    case "status": found = .string(report.status)
    case "redirects": found = .array((report.entry?.redirects ?? []).map(JSON.string))
    case "opens": found = .string(report.opens)
    case "action":
      switch report.entry?.outcome {
      case .handled(let action, _)?: found = .string(action)
      case .started(let action)? where report.model.pending == nil: found = .string(action)
      case .started(let action)?: found = .string("\(action) (not finished)")
      default: found = .null
      }
    case "notification":
      guard case .string(let name) = member.value, !report.notifications.contains(name) else {
        return nil
      }
      found = .array(report.notifications.map(JSON.string))
    default:  // params
      guard case .object(let wanted) = member.value else { return nil }
      let params = top.params
      let wrong = wanted.filter { want in
        guard let value = params[want.key] else { return true }
        return !sameValue(want.value, value.json)
      }
      guard !wrong.isEmpty else { return nil }
      found = .object(wanted.map { JSONMember($0.key, params[$0.key]?.json ?? .null) })
      return "params: expected \(JSON.object(wrong).serialized), found \(found.serialized)"
    }
    return sameValue(member.value, found)
      ? nil : "\(member.key): expected \(member.value.serialized), found \(found.serialized)"
  }

  /// Equal JSON, numbers compared by value (`7` and `7.0` are equal).
  static func sameValue(_ a: JSON, _ b: JSON) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)):
      return x == y || (Double(x) != nil && Double(x) == Double(y))
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
    case (.object(let x), .object(let y)):
      return x.count == y.count
        && zip(x, y).allSatisfy { $0.key == $1.key && sameValue($0.value, $1.value) }
    default:
      return a == b
    }
  }
}

/// A link contract that cannot be used: `FILE:LINE:COL: message`.
struct ContractError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Finds where things are written in a contract that parsed, for error places: a member's key
/// among the members of one object (never one nested deeper), or the start of a value.
private struct Locator {
  let text: [UInt8]
  let file: String

  init(text: String, file: String) {
    self.text = Array(text.utf8)
    self.file = file
  }

  /// Where the top-level value starts.
  var top: Int { blanksSkipped(0) }

  /// The members of the object starting at `object`: where each key is written and where its
  /// value starts.
  func members(of object: Int) -> [(key: String, at: Int, value: Int)] {
    var members: [(key: String, at: Int, value: Int)] = []
    var index = blanksSkipped(object + 1)
    while index < text.count, text[index] == UInt8(ascii: "\"") {
      let keyEnd = end(of: index)
      let key = (try? JSON.parse(Array(text[index..<keyEnd]))).flatMap {
        if case .string(let key) = $0 { key } else { nil }
      }
      let value = blanksSkipped(blanksSkipped(keyEnd) + 1)
      members.append((key ?? "", index, value))
      let after = blanksSkipped(end(of: value))
      guard after < text.count, text[after] == UInt8(ascii: ",") else { break }
      index = blanksSkipped(after + 1)
    }
    return members
  }

  /// Where the value of member `key` of the object at `object` starts.
  func value(of key: String, in object: Int) -> Int? {
    members(of: object).first { $0.key == key }?.value
  }

  /// Where each element of the array starting at `array` starts.
  func elements(of array: Int) -> [Int] {
    var elements: [Int] = []
    var index = blanksSkipped(array + 1)
    while index < text.count, text[index] != UInt8(ascii: "]") {
      elements.append(index)
      let after = blanksSkipped(end(of: index))
      guard after < text.count, text[after] == UInt8(ascii: ",") else { break }
      index = blanksSkipped(after + 1)
    }
    return elements
  }

  /// An error at the key of member `key` of the object at `object` (at the object when it
  /// has no such member, or `key` is nil).
  func error(at key: String?, in object: Int, _ message: String) -> ContractError {
    let position = key.flatMap { key in members(of: object).first { $0.key == key }?.at }
    return error(at: position ?? object, message)
  }

  /// An error at an offset.
  func error(at position: Int, _ message: String) -> ContractError {
    var line = 1
    var column = 1
    for byte in text[..<min(position, text.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return ContractError("\(file):\(line):\(column): \(message)")
  }

  private func blanksSkipped(_ from: Int) -> Int {
    var index = from
    while index < text.count, [0x20, 0x09, 0x0A, 0x0D].contains(text[index]) { index += 1 }
    return index
  }

  /// Just after the value starting at `start`.
  private func end(of start: Int) -> Int {
    guard start < text.count else { return start }
    var index = start
    var depth = 0
    var inString = false
    while index < text.count {
      let byte = text[index]
      index += 1
      if inString {
        if byte == UInt8(ascii: "\\") {
          index += 1
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          if depth == 0 { return index }
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth <= 0 { return depth == 0 ? index : index - 1 }
      case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
        if depth == 0 { return index - 1 }
      default: break
      }
    }
    return index
  }
}
