import AppRuntime
import Interface
import JSON
import Replay
import Routing
import Shell

/// A link contract (`*.links.json`): cases of a URL, where it comes from, and what the app
/// must show after opening it. Each case is one test of `appshell test`.
package struct LinkContract {
  /// One case.
  package struct Case {
    /// Its number, from 1.
    package var number: Int
    /// The URL to open.
    var url: String
    /// Where it comes from (the case's `from`): typed at the prompt, handed in while running
    /// as `appshell openurl` does, or the URL the app starts with as `appshell --open` does.
    var origin: LinkOrigin
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
  package var cases: [Case]

  /// Reads a contract; the first problem is `FILE:LINE:COL: message`.
  package init(text: String, file: String) throws(ContractError) {
    let located: JSONLocated
    do {
      located = try JSON.parseLocated(Array(text.utf8))
    } catch {
      throw ContractError("\(file):\(error.line):\(error.column): \(error.message)")
    }
    func fail(_ message: String) -> ContractError {
      ContractError(located.located(message, file: file))
    }
    let json = located.value
    guard case .object(let top) = json else {
      throw fail("a link contract is an object with \"cases\"")
    }
    for member in top where member.key != "cases" {
      throw fail(
        "\(JSONLocated.name(member.key)): unknown member\(CloseName.hint(for: member.key, in: ["cases"])) (a link contract has only \"cases\")"
      )
    }
    guard case .array(let items)? = json["cases"] else {
      throw fail("a link contract needs \"cases\": an array of cases")
    }
    var cases: [Case] = []
    for (index, item) in items.enumerated() {
      let number = index + 1
      let name = "cases[\(index)]"
      guard case .object(let members) = item else { throw fail("\(name) must be an object") }
      for member in members where !Self.caseMembers.contains(member.key) {
        throw fail(
          "\(name).\(JSONLocated.name(member.key)): unknown member\(CloseName.hint(for: member.key, in: Self.caseMembers)) (a case has url, from and expect)"
        )
      }
      guard case .string(let url)? = item["url"] else {
        throw fail("\(name).url must be a string")
      }
      var origin = LinkOrigin.inside
      if let value = item["from"] {
        guard case .string(let text) = value, let parsed = LinkOrigin(rawValue: text) else {
          throw fail("\(name).from is \"inside\", \"outside\" or \"cold\"")
        }
        origin = parsed
      }
      guard case .object(let expect)? = item["expect"] else {
        throw fail("\(name).expect must be an object")
      }
      for member in expect {
        try Self.check(member, in: "\(name).expect") { fail($0) }
      }
      cases.append(Case(number: number, url: url, origin: origin, expect: expect))
    }
    self.cases = cases
  }

  /// Checks that an `expect` member is known and of the right kind.
  private static func check(
    _ member: JSONMember, in name: String, error: (String) -> ContractError
  ) throws(ContractError) {
    let path = "\(name).\(JSONLocated.name(member.key))"
    func fail(_ what: String) -> ContractError { error("\(path) \(what)") }
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
        "\(path): unknown member\(CloseName.hint(for: member.key, in: expectMembers)) (expect has \(expectMembers.joined(separator: ", ")))"
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
    switch item.origin {
    case .inside, .outside: replayer.send(.urlOpened(item.url, origin: item.origin.urlOrigin))
    case .cold: replayer.send(.launchedWithURL(item.url))
    }
    var waited = Duration.zero
    while replayer.console.model.pending != nil, waited < settleLimit {
      replayer.advance(by: Replayer.waitStep)
      waited += Replayer.waitStep
    }
    let report = OpenReport(
      url: item.url, from: item.origin.urlOrigin, before: before, after: replayer.console)
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
package struct ContractError: Error, CustomStringConvertible {
  /// `FILE:LINE:COL: message`.
  package var description: String
  init(_ description: String) { self.description = description }
}
