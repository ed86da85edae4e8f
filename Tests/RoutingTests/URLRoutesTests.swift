import Foundation
import TestSupport
import Testing

@testable import Routing

/// The URLNavigator/JLRoutes-style registration API.
@Suite struct URLRoutesTests {

  @Test func registersAndOpensWithAClosure() throws {
    let routes = URLRoutes()
    var opened: [String] = []
    try routes.register("navigator://user/<username>") { request in
      opened.append(request.params["username"]?.text ?? "?")
      #expect(request.pattern == "navigator://user/<username>")
      #expect(request.url == "navigator://user/zhangsan")
      return true
    }
    #expect(routes.canOpen("navigator://user/zhangsan"))
    #expect(!routes.canOpen("navigator://users/zhangsan"))
    #expect(!routes.canOpen("navigator://user/%zz"))
    #expect(opened.isEmpty)
    let request = try #require(routes.match("navigator://user/zhangsan"))
    #expect(request.params == ["username": .string("zhangsan")])
    #expect(request.pattern == "navigator://user/<username>")
    #expect(opened.isEmpty, "match must not call the handler")
    #expect(routes.open("navigator://user/zhangsan"))
    #expect(opened == ["zhangsan"])
  }

  @Test func emptyRoutesOpenNothing() {
    let routes = URLRoutes()
    var unmatched: [String] = []
    routes.unmatchedHandler = { unmatched.append($0) }
    #expect(!routes.canOpen("myapp://x"))
    #expect(routes.match("myapp://x") == nil)
    #expect(!routes.open("myapp://x"))
    #expect(unmatched == ["myapp://x"])
  }

  @Test func openTriesTheNextRankedRouteWhenAHandlerDeclines() throws {
    let routes = URLRoutes()
    var calls: [String] = []
    try routes.register("/u/:name") { request in
      calls.append("string \(request.params["name"]?.text ?? "?")")
      return true
    }
    try routes.register("/u/<int:id>") { request in
      calls.append("int \(request.params["id"]?.text ?? "?")")
      return false
    }
    try routes.register("/u/*") { _ in
      calls.append("rest")
      return true
    }
    #expect(routes.match("/u/5")?.pattern == "/u/<int:id>")
    #expect(routes.open("/u/5"))
    #expect(calls == ["int 5", "string 5"])
  }

  @Test func openTriesEachRouteOnceEvenWhenSeveralOfItsExpansionsMatch() throws {
    let routes = URLRoutes()
    var calls: [String] = []
    // `/a` matches both `/a` and `/a/*` (zero segments), two expansions of one route.
    try routes.register("/a(/*)") { _ in
      calls.append("group")
      return false
    }
    try routes.register("/:x") { _ in
      calls.append("x")
      return false
    }
    var unmatched: [String] = []
    routes.unmatchedHandler = { unmatched.append($0) }
    #expect(!routes.open("/a"))
    #expect(calls == ["group", "x"])
    #expect(unmatched == ["/a"])
  }

  @Test func unmatchedHandlerRunsWhenNoHandlerTakesTheURL() throws {
    let routes = URLRoutes()
    var calls: [String] = []
    var unmatched: [String] = []
    routes.unmatchedHandler = { unmatched.append($0) }
    try routes.register("myapp://a/:x") { _ in
      calls.append("a")
      return false
    }
    try routes.register("/a/:y", priority: -1) { _ in
      calls.append("global")
      return false
    }
    #expect(!routes.open("myapp://a/1"))
    #expect(calls == ["a", "global"])
    #expect(unmatched == ["myapp://a/1"])
    #expect(!routes.open("myapp://b"))
    #expect(unmatched == ["myapp://a/1", "myapp://b"])
    #expect(!routes.open("myapp://a/%zz"))
    #expect(unmatched.count == 3)
  }

  @Test func aConflictIsRefusedWithoutChangingWhatIsRegistered() throws {
    let routes = URLRoutes()
    var calls: [String] = []
    try routes.register("/a/:x") { _ in
      calls.append("first")
      return true
    }
    #expect(throws: RouteRegistrationError.conflict(pattern: "/a/<y>", with: "/a/:x")) {
      try routes.register("/a/<y>") { _ in
        calls.append("second")
        return true
      }
    }
    #expect(throws: RouteRegistrationError.conflict(pattern: "/x(/:a)(/:b)", with: nil)) {
      try routes.register("/x(/:a)(/:b)") { _ in true }
    }
    #expect(!routes.canOpen("/x"), "a refused registration must add nothing")
    do {
      try routes.register("/a/*/*") { _ in true }
      Issue.record("a bad pattern was registered")
    } catch {
      guard case .pattern(let patternError) = error else {
        Issue.record("expected a pattern error, got \(error)")
        return
      }
      #expect(patternError.pattern == "/a/*/*")
      #expect(patternError.column == 6)
    }
    #expect(routes.match("/a/1")?.pattern == "/a/:x")
    #expect(routes.open("/a/1"))
    #expect(calls == ["first"])
    // Registering still works afterwards.
    try routes.register("/b") { _ in
      calls.append("b")
      return true
    }
    #expect(routes.open("/b"))
    #expect(calls == ["first", "b"])
  }

  @Test func addsATable() throws {
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "myapp://orders/<int:id>", "screen": "order-detail", "rename": {"id": "orderid"}}"#,
        #"{"pattern": "myapp://like", "action": "like"}"#,
      ]))
    let routes = URLRoutes()
    var seen: [(Int, Parameters)] = []
    try routes.add(table) { entry, request in
      seen.append((entry.index, request.params))
      return true
    }
    #expect(routes.canOpen("myapp://like"))
    #expect(routes.open("myapp://orders/9"))
    #expect(seen.count == 1)
    #expect(seen.first?.0 == 0)
    #expect(seen.first?.1 == ["orderid": .int(9)])
    #expect(routes.open("myapp://like"))
    #expect(seen.last?.0 == 1)
  }

  @Test func addingAConflictingTableAddsNoneOfIt() throws {
    let routes = URLRoutes()
    try routes.register("myapp://like") { _ in true }
    let table = try RouteTable(
      json: tableText([
        #"{"pattern": "myapp://other", "screen": "other"}"#,
        #"{"pattern": "MYAPP://like", "action": "like"}"#,
      ]))
    #expect(throws: RouteRegistrationError.conflict(pattern: "MYAPP://like", with: "myapp://like"))
    {
      try routes.add(table) { _, _ in true }
    }
    #expect(!routes.canOpen("myapp://other"))
    #expect(routes.match("myapp://like")?.pattern == "myapp://like")
  }

  /// Registration finds conflicts route by route; on random tables it refuses the same route,
  /// naming the same other route, as compiling the whole table does, and keeps what came before.
  @Test func registeringOneByOneFindsTheConflictsCompilingFinds() throws {
    var generator = RouteGenerator(random: SeededGenerator(seed: 0x28_C0))
    var conflicts = 0
    for _ in 0..<400 {
      let table = generator.table()
      let compiled = try table.map {
        Router.Route(
          pattern: try RoutePattern($0.text, caseSensitive: $0.caseSensitive),
          priority: $0.priority)
      }
      let routes = URLRoutes()
      var refused: RouteRegistrationError?
      for route in table where refused == nil {
        do {
          try routes.register(
            route.text, priority: route.priority, caseSensitive: route.caseSensitive
          ) { _ in true }
        } catch {
          refused = error
        }
      }
      do {
        _ = try Router(compiled)
        #expect(refused == nil, "\(table.map(\.text))")
      } catch {
        conflicts += 1
        let other = error.route == error.other ? nil : table[error.other].text
        #expect(refused == .conflict(pattern: table[error.route].text, with: other))
      }
    }
    #expect(conflicts > 0)
  }
}
