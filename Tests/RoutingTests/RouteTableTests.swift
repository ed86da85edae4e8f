import Foundation
import JSON
import Testing

@testable import Routing

// docs/routing.md: route tables, their refusals and conflicts, `parent`, `rename`, the
// `URLRoutes` registry, and the seed URLs against the shipped Screens/routes.json.

/// A table whose `routes` array holds `entries` (JSON object texts), with an optional top level
/// `version` written as given.
func tableText(_ entries: [String], version: String? = nil) -> String {
  var text = "{"
  if let version { text += "\"version\": \(version), " }
  text += "\"routes\": [" + entries.joined(separator: ", ") + "]}"
  return text
}

/// A plain screen route that conflicts with nothing in these tests.
private func filler(_ number: Int) -> String {
  #"{"pattern": "/filler-\#(number)/x", "screen": "filler"}"#
}

/// Six routes: `second` at index 2 and `fifth` at index 5, fillers elsewhere.
private func sixRoutes(second: String, fifth: String) -> String {
  tableText([filler(0), filler(1), second, filler(3), filler(4), fifth])
}

/// The message a table is refused with; records an issue and returns nil when it loads.
private func refusal(
  _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) -> String? {
  do {
    let table = try RouteTable(json: text)
    Issue.record(
      "expected the table to be refused; it loaded \(table.entries.count) routes: \(text)",
      sourceLocation: sourceLocation)
    return nil
  } catch {
    return error.description
  }
}

/// The entry and parameters of a resolution that matched; records an issue otherwise.
func matched(
  _ resolution: Resolution, sourceLocation: SourceLocation = #_sourceLocation
) -> (entry: RouteEntry, params: Parameters)? {
  guard case .matched(let entry, let params) = resolution.outcome else {
    Issue.record("expected a match, got \(resolution.outcome)", sourceLocation: sourceLocation)
    return nil
  }
  return (entry, params)
}

/// The shipped table, located from this file: Tests/RoutingTests/ -> the package root.
func shippedTable(filePath: String = #filePath) throws -> RouteTable {
  let root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  let file = root.appendingPathComponent("Screens").appendingPathComponent("routes.json")
  let data = try #require(FileManager.default.contents(atPath: file.path), "no \(file.path)")
  return try RouteTable(json: [UInt8](data))
}

/// One table refusal: the entry text (placed at index 2) and the message's expected start.
@Suite struct RouteTableTests {
  // MARK: Valid tables

  @Test func loadsATableWithVersion() throws {
    let table = try RouteTable(
      json: tableText(
        [
          #"{"pattern": "/a", "screen": "a"}"#,
          #"{"pattern": "/b", "action": "b", "priority": -3, "external": false}"#,
          #"{"pattern": "/c", "notification": "c", "presentation": "present", "minVersion": "2.1.3"}"#,
          #"{"pattern": "/d/:id", "redirect": "/a?from=:id", "rename": {}, "guard": "signed-in"}"#,
          #"{"pattern": "/e", "screen": "e", "presentation": "push", "parent": "/a", "minVersion": "3"}"#,
        ], version: "3"))
    #expect(table.version == 3)
    #expect(table.entries.count == 5)
    #expect(table.entries.map(\.index) == [0, 1, 2, 3, 4])
    #expect(table.entries[0].target == .screen("a"))
    #expect(table.entries[0].priority == 0)
    #expect(table.entries[0].presentation == .push)
    #expect(table.entries[0].external)
    #expect(table.entries[0].minVersion == nil)
    #expect(table.entries[1].target == .action("b"))
    #expect(table.entries[1].priority == -3)
    #expect(!table.entries[1].external)
    #expect(table.entries[2].target == .notification("c"))
    #expect(table.entries[2].presentation == .present)
    #expect(table.entries[2].minVersion == AppVersion("2.1.3"))
    #expect(table.entries[3].target.field == "redirect")
    #expect(table.entries[3].guardName == "signed-in")
    #expect(table.entries[4].parent == "/a")
    #expect(table.entries[4].minVersion?.parts == [3])
  }

  @Test func versionIsOptional() throws {
    let table = try RouteTable(json: tableText([#"{"pattern": "/a", "screen": "a"}"#]))
    #expect(table.version == nil)
    #expect(table.entries.count == 1)
    let empty = try RouteTable(json: #"{"routes": []}"#)
    #expect(empty.entries.isEmpty)
  }

  // MARK: Top-level refusals

  @Test(arguments: [
    (#"{"routes": [], "bogus": 1}"#, "bogus: "),
    (#"{"Routes": []}"#, "Routes: "),
    (#"{"version": 1}"#, "routes: "),
    (#"{}"#, "routes: "),
    (#"{"routes": {}}"#, "routes: "),
    (#"{"routes": null}"#, "routes: "),
    (#"{"routes": "/a"}"#, "routes: "),
    (#"{"version": "3", "routes": []}"#, "version: "),
    (#"{"version": 3.5, "routes": []}"#, "version: "),
    (#"{"version": 3.0, "routes": []}"#, "version: "),
    (#"{"version": null, "routes": []}"#, "version: "),
    (#"{"version": true, "routes": []}"#, "version: "),
  ])
  func refusesTopLevel(text: String, prefix: String) {
    let message = refusal(text)
    #expect(message?.hasPrefix(prefix) == true, "\(message ?? "nil")")
  }

  @Test(arguments: ["[]", "\"routes\"", "null", "", "{", #"{"routes": [}"#])
  func refusesWhatIsNotATableObject(text: String) {
    let message = refusal(text)
    #expect(message?.isEmpty == false)
  }

  // MARK: Entry refusals

  @Test(arguments: entryRefusals)
  func refusesEntry(_ example: RouteTableEntryRefusal) {
    let text = tableText([filler(0), filler(1), example.entry, filler(3)])
    let message = refusal(text)
    #expect(message?.hasPrefix(example.prefix) == true, "\(message ?? "nil")")
  }

  @Test func namesTheTargetsOfAnEntryWithTwo() {
    let message =
      refusal(
        tableText([#"{"pattern": "/a", "screen": "s", "redirect": "/b"}"#])) ?? ""
    #expect(message.hasPrefix("routes[0]"))
    #expect(message.contains("screen"))
    #expect(message.contains("redirect"))
  }

  @Test func refusesTheFirstBadEntryAsAWhole() {
    let message = refusal(
      tableText([
        filler(0), #"{"pattern": "/a", "screen": "s", "external": 1}"#,
        #"{"pattern": "/b", "screen": "s", "priority": "x"}"#,
      ]))
    #expect(message?.hasPrefix("routes[1].external: ") == true, "\(message ?? "nil")")
  }

  @Test(arguments: badPatterns)
  func refusesPatternOutsideTheGrammar(_ example: RouteTableBadPattern) throws {
    let entry = JSON.object([
      JSONMember("pattern", .string(example.pattern)), JSONMember("screen", .string("s")),
    ])
    let text = tableText([filler(0), filler(1), filler(2), entry.serialized])
    let message = try #require(refusal(text))
    #expect(message.hasPrefix("routes[3].pattern: "), "\(message)")
    #expect(message.contains(JSON.quote(example.pattern)), "\(message)")
    if let column = example.column {
      #expect(message.contains("column \(column) "), "\(message)")
    } else {
      #expect(message.contains("column "), "\(message)")
    }
  }

  @Test func namesTheEntryOfASecondWildcard() throws {
    let text = tableText([
      filler(0), filler(1), filler(2), #"{"pattern": "/a/*/*", "screen": "s"}"#,
    ])
    let message = try #require(refusal(text))
    #expect(
      message.hasPrefix("routes[3].pattern: only one '*' or path capture may stand in a pattern"),
      "\(message)")
  }

  // MARK: Conflicts

  @Test(arguments: conflicting)
  func refusesRoutesThatCannotBeToldApart(second: String, fifth: String) {
    let text = sixRoutes(
      second: #"{"pattern": "\#(second)", "screen": "a"}"#,
      fifth: #"{"pattern": "\#(fifth)", "action": "b"}"#)
    #expect(refusal(text) == "routes[5] conflicts with routes[2]")
  }

  @Test(arguments: distinct)
  func loadsRoutesThatCanBeToldApart(second: String, fifth: String) throws {
    let table = try RouteTable(
      json: sixRoutes(
        second: #"{"pattern": "\#(second)", "screen": "a"}"#,
        fifth: #"{"pattern": "\#(fifth)", "action": "b"}"#))
    #expect(table.entries.count == 6)
  }

  @Test func samePatternsWithDifferentPrioritiesDoNotConflict() throws {
    let table = try RouteTable(
      json: sixRoutes(
        second: #"{"pattern": "/p/:a", "screen": "a"}"#,
        fifth: #"{"pattern": "/p/:b", "screen": "b", "priority": 1}"#))
    let resolved = try #require(matched(table.resolve("/p/x")))
    #expect(resolved.entry.index == 5)
    #expect(
      refusal(
        sixRoutes(
          second: #"{"pattern": "/p/:a", "screen": "a", "priority": 0}"#,
          fifth: #"{"pattern": "/p/:b", "screen": "b"}"#))
        == "routes[5] conflicts with routes[2]")
  }

  @Test(arguments: ["/x(/:a)(/:b)", "/x(/a)(/a)", "myapp://x(/<int:a>)(/<int:b>)(/c)"])
  func refusesAPatternWithTwoExpansionsAlike(pattern: String) {
    let text = sixRoutes(
      second: #"{"pattern": "/two", "screen": "a"}"#,
      fifth: #"{"pattern": "\#(pattern)", "screen": "b"}"#)
    #expect(
      refusal(text) == "routes[5]: two expansions of its optional groups cannot be told apart")
  }

  @Test func loadsAPatternWhoseExpansionsDiffer() throws {
    let table = try RouteTable(
      json: tableText([#"{"pattern": "/x(/a/:a)(/b/:b)", "screen": "x"}"#]))
    #expect(table.resolve("/x/b/2").isMatched)
    #expect(table.resolve("/x/a/1/b/2").isMatched)
  }

  // MARK: parent

  @Test func acceptsAParentOnAScreenRoute() throws {
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "myapp://orders", "screen": "order-list"}"#,
        #"{"pattern": "myapp://orders/<int:id>", "screen": "order-detail", "parent": "myapp://orders"}"#,
        #"{"pattern": "myapp://orders/<int:id>/items/:item", "screen": "item", "parent": "myapp://orders/7"}"#,
      ]))
    #expect(table.entries[1].parent == "myapp://orders")
    #expect(table.entries[2].parent == "myapp://orders/7")
  }

  @Test func acceptsAParentThatRedirectsToAScreen() throws {
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "myapp://old", "redirect": "myapp://middle"}"#,
        #"{"pattern": "myapp://middle", "redirect": "myapp://home"}"#,
        #"{"pattern": "myapp://home", "screen": "home"}"#,
        #"{"pattern": "myapp://leaf", "screen": "leaf", "parent": "myapp://old"}"#,
      ]))
    #expect(table.entries[3].parent == "myapp://old")
  }

  @Test func acceptsAParentOnAnInternalOnlyScreen() throws {
    // The parent is resolved as if opened inside the app.
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "myapp://inside", "screen": "inside", "external": false}"#,
        #"{"pattern": "myapp://leaf", "screen": "leaf", "parent": "myapp://inside"}"#,
      ]))
    #expect(table.entries.count == 2)
  }

  @Test(arguments: [
    #"{"pattern": "myapp://act", "action": "act"}"#,
    #"{"pattern": "myapp://act", "notification": "Note"}"#,
    #"{"pattern": "myapp://act", "redirect": "myapp://act2"}"#,
  ])
  func refusesAParentThatEndsOnANonScreenRoute(parentRoute: String) {
    let text = tableText([
      parentRoute,
      #"{"pattern": "myapp://act2", "action": "act2"}"#,
      #"{"pattern": "myapp://leaf", "screen": "leaf", "parent": "myapp://act"}"#,
    ])
    let message = refusal(text)
    #expect(message?.hasPrefix("routes[2].parent: ") == true, "\(message ?? "nil")")
  }

  @Test(arguments: ["myapp://nowhere", "myapp://user/%zz", "", "myapp://loop"])
  func refusesAParentThatResolvesToNothing(parent: String) {
    let text = tableText([
      #"{"pattern": "myapp://loop", "redirect": "myapp://loop"}"#,
      #"{"pattern": "myapp://leaf", "screen": "leaf", "parent": \#(JSON.quote(parent))}"#,
    ])
    let message = refusal(text)
    #expect(message?.hasPrefix("routes[1].parent: ") == true, "\(message ?? "nil")")
  }

  @Test func refusesALoopOfParents() {
    let two = tableText([
      #"{"pattern": "myapp://a", "screen": "a", "parent": "myapp://b"}"#,
      #"{"pattern": "myapp://b", "screen": "b", "parent": "myapp://a"}"#,
    ])
    let message = refusal(two)
    #expect(message?.hasPrefix("routes[") == true, "\(message ?? "nil")")
    #expect(message?.contains(".parent: ") == true, "\(message ?? "nil")")
    let itself = tableText([
      filler(0), #"{"pattern": "myapp://a", "screen": "a", "parent": "myapp://a"}"#,
    ])
    #expect(refusal(itself)?.hasPrefix("routes[1].parent: ") == true)
    let three = tableText([
      #"{"pattern": "myapp://top", "screen": "top"}"#,
      #"{"pattern": "myapp://a", "screen": "a", "parent": "myapp://c"}"#,
      #"{"pattern": "myapp://b", "screen": "b", "parent": "myapp://a"}"#,
      #"{"pattern": "myapp://c", "screen": "c", "parent": "myapp://old-b"}"#,
      #"{"pattern": "myapp://old-b", "redirect": "myapp://b"}"#,
    ])
    #expect(refusal(three)?.contains(".parent: ") == true)
  }

  @Test func acceptsAChainOfParentsWithoutALoop() throws {
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "myapp://a", "screen": "a", "parent": "myapp://b"}"#,
        #"{"pattern": "myapp://b", "screen": "b", "parent": "myapp://c"}"#,
        #"{"pattern": "myapp://c", "screen": "c"}"#,
        #"{"pattern": "myapp://d", "screen": "d", "parent": "myapp://b"}"#,
      ]))
    #expect(table.entries.count == 4)
  }

  // MARK: rename

  @Test func renamesSwapAtOnce() throws {
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "/s/:a/:b", "screen": "s", "rename": {"a": "b", "b": "a"}}"#
      ]))
    let resolved = try #require(matched(table.resolve("/s/1/2")))
    #expect(resolved.params == ["a": .string("2"), "b": .string("1")])
  }

  @Test func renamesInAChainAtOnce() throws {
    // a -> b and b -> c at once: the old b becomes c, the old a becomes b.
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "/s/:a/:b", "screen": "s", "rename": {"a": "b", "b": "c"}}"#
      ]))
    let resolved = try #require(matched(table.resolve("/s/1/2")))
    #expect(resolved.params == ["b": .string("1"), "c": .string("2")])
  }

  @Test func aRenamedValueOverwritesOneWithTheNewName() throws {
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "/o/<int:id>", "screen": "o", "rename": {"id": "orderid"}}"#
      ]))
    let resolved = try #require(matched(table.resolve("/o/42?orderid=evil&keep=1")))
    #expect(resolved.params == ["orderid": .int(42), "keep": .string("1")])
  }

  @Test func renameAppliesToQueryParametersAndSkipsMissingOnes() throws {
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "/r", "screen": "r", "rename": {"q": "query", "absent": "x"}}"#
      ]))
    let resolved = try #require(matched(table.resolve("/r?q=a+b")))
    #expect(resolved.params == ["query": .string("a b")])
  }

}
