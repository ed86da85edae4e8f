import TestSupport
import Testing

@testable import Lint
@testable import Routing

// The table-only lint (`RouteLint`, in the Lint module; the app lint is Shell's): conflicts
// collected instead of refused, parent problems, and shadowed routes, which must never be
// reported unless certain.

/// Routes from pattern texts with priorities (default 0).
private func routes(_ patterns: [String], priorities: [Int] = []) throws -> [Router.Route] {
  try patterns.enumerated().map { index, text in
    Router.Route(
      pattern: try RoutePattern(text), priority: index < priorities.count ? priorities[index] : 0)
  }
}

/// Whether route 0 hides route 1 on its own, and by which rule.
private func shadows(_ a: String, _ b: String, priorities: [Int] = []) throws
  -> RouteLint.RankRule?
{
  let list = try routes([a, b], priorities: priorities)
  return RouteLint.shadows(list[0], index: 0, list[1], index: 1)
}

/// The routes `shadowings` reports as never winning, with who hides them.
private func shadowed(_ patterns: [String], priorities: [Int] = []) throws -> [Int: [Int]] {
  let list = try routes(patterns, priorities: priorities)
  var conflicts: [RouteConflict] = []
  let router = Router(list, conflicts: &conflicts)
  var result: [Int: [Int]] = [:]
  for shadowing in RouteLint.shadowings(list, router: router) {
    result[shadowing.route] = shadowing.shadowers.map(\.route)
  }
  return result
}

/// A table of `{"pattern":...,"screen":"s"}` entries, inspected.
private func inspect(_ entries: [String]) throws -> RouteTableInspection {
  let json = #"{"routes":["# + entries.joined(separator: ",") + "]}"
  return try RouteTable.inspect(json: Array(json.utf8))
}

@Suite struct ShadowingTests {
  @Test func aHigherPriorityRouteThatMatchesEverythingHides() throws {
    #expect(try shadows("/a/:x", "/a/<int:id>", priorities: [1, 0]) == .priority)
    #expect(try shadows("/a/:x", "/a/b", priorities: [1, 0]) == .priority)
    #expect(try shadows("/<path:p>", "/a/b/c", priorities: [1, 0]) == .priority)
    // A lower priority never hides, however general.
    #expect(try shadows("/a/:x", "/a/b", priorities: [-1, 0]) == nil)
  }

  @Test func typedBeatsStringAtTheSamePrioritySoNeitherHidesTheOther() throws {
    // The string route matches every int URL but ranks after it (rule 4).
    #expect(try shadows("/a/:x", "/a/<int:id>") == nil)
    // The int route ranks first but does not match "abc".
    #expect(try shadows("/a/<int:id>", "/a/:x") == nil)
    #expect(try shadowed(["/a/:x", "/a/<int:id>"]).isEmpty)
    #expect(try shadowed(["/a/<int:id>", "/a/:x"]).isEmpty)
  }

  @Test func typesNestOnlyWhereEveryValueFits() throws {
    // Every int is a float, so a float route with a higher priority hides an int route.
    #expect(try shadows("/a/<float:f>", "/a/<int:i>", priorities: [1, 0]) == .priority)
    // Not every float is an int, and a uuid is neither.
    #expect(try shadows("/a/<int:i>", "/a/<float:f>", priorities: [1, 0]) == nil)
    #expect(try shadows("/a/<int:i>", "/a/<uuid:u>", priorities: [1, 0]) == nil)
    #expect(try shadows("/a/<float:f>", "/a/<uuid:u>", priorities: [1, 0]) == nil)
    // A literal that fits the type is hidden; one that does not is not.
    #expect(try shadows("/a/<int:i>", "/a/42", priorities: [1, 0]) == .priority)
    #expect(try shadows("/a/<int:i>", "/a/4.2", priorities: [1, 0]) == nil)
    // A literal ranks before an int at the same priority.
    #expect(try shadows("/a/<int:i>", "/a/42") == nil)
  }

  @Test func theSameRankListedFirstHides() throws {
    // Same segments, one query constraint each: the capture accepts "1", and rule 6 decides.
    #expect(try shadows("/a?k=:v", "/a?k=1") == .order)
    // Listed the other way round, the literal does not match every URL of the capture.
    let list = try routes(["/a?k=1", "/a?k=:v"])
    #expect(RouteLint.shadows(list[1], index: 1, list[0], index: 0) == nil)
    // Equal shapes are a conflict, reported as such (see ConflictLintTests), and are also
    // hidden: the later one never wins.
    #expect(try shadows("/a/:x", "/a/:y") == .order)
  }

  @Test func queryConstraintsMustBeImpliedNotJustShared() throws {
    // A constrains a key B does not: URLs of B without the key escape A.
    #expect(try shadows("/a?k=:v", "/a", priorities: [1, 0]) == nil)
    // B constrains more keys: still all its URLs match A, and A has a higher priority.
    #expect(try shadows("/a", "/a?k=1&q=2", priorities: [1, 0]) == .priority)
    // At the same priority, more constraints rank first (rule 5): B wins its URLs.
    #expect(try shadows("/a", "/a?k=1") == nil)
    // Literal values must agree; typed captures must contain B's values.
    #expect(try shadows("/a?k=2", "/a?k=1", priorities: [1, 0]) == nil)
    #expect(try shadows("/a?k=<float:f>", "/a?k=<int:i>", priorities: [1, 0]) == .priority)
    #expect(try shadows("/a?k=<int:i>", "/a?k=:s", priorities: [1, 0]) == nil)
  }

  @Test func optionalGroupsCountEveryExpansion() throws {
    // Each expansion of B needs hiding: `/a` is, `/a/b` is not.
    #expect(try shadows("/a", "/a(/b)", priorities: [1, 0]) == nil)
    // A's expansions together cover both of B's.
    #expect(try shadows("/a(/:x)", "/a(/b)", priorities: [1, 0]) == .priority)
    // An expansion of A that matches more than B still counts.
    #expect(try shadows("/x(/:a)(/:b)", "/x/1/2", priorities: [1, 0]) == .priority)
    // B's expansions may be hidden by different routes.
    #expect(try shadowed(["/a", "/a/b", "/a(/b)"], priorities: [1, 1, 0]) == [2: [0, 1]])
  }

  @Test func wildcardsAndPathCaptures() throws {
    // `/a` beats `/a/*` for `/a`, but `/a/*` alone matches `/a/b`.
    #expect(try shadows("/a", "/a/*") == nil)
    // `<path:>` beats `*` for one or more segments; `/a/*` alone matches `/a`.
    #expect(try shadows("/a/<path:p>", "/a/*") == nil)
    // Together they hide every URL of `/a/*`, each by rule 4.
    #expect(try shadowed(["/a", "/a/<path:p>", "/a/*"]) == [2: [0, 1]])
    // `*` does not beat `<path:>` or a string segment at the same priority.
    #expect(try shadows("/a/*", "/a/<path:p>") == nil)
    #expect(try shadows("/a/*", "/a/:x") == nil)
    #expect(try shadows("/a/<path:p>", "/a/:x") == nil)
    // With a higher priority, `*` hides anything below its prefix, even zero segments.
    #expect(try shadows("/a/*", "/a", priorities: [1, 0]) == .priority)
    #expect(try shadows("/a/*", "/a/b/<int:c>/*", priorities: [1, 0]) == .priority)
    // `<path:>` needs at least one segment, so it does not hide `/a` or `/a/*`.
    #expect(try shadows("/a/<path:p>", "/a", priorities: [1, 0]) == nil)
    #expect(try shadows("/a/<path:p>", "/a/*", priorities: [1, 0]) == nil)
    // A string segment under B's tail matches only one segment, not "any number".
    #expect(try shadows("/a/:x", "/a/<path:p>", priorities: [1, 0]) == nil)
    #expect(try shadows("/a/:x/*", "/a/<path:p>", priorities: [1, 0]) == .priority)
    // An exact pattern cannot hide a tail.
    #expect(try shadows("/a/:x/:y", "/a/:x/*", priorities: [1, 0]) == nil)
  }

  @Test func schemesAndDomains() throws {
    // Different schemes match different URLs.
    #expect(try shadows("x://a/:id", "y://a/:id", priorities: [1, 0]) == nil)
    // Schemes compare without case.
    #expect(try shadows("X://a/:id", "x://a/b", priorities: [1, 0]) == .priority)
    // A scheme route never hides a global one: other schemes reach only the global route.
    #expect(try shadows("x://a/:id", "/a/b", priorities: [1, 0]) == nil)
    // A global route matches every scheme but ranks after a scheme route (rule 2) ...
    #expect(try shadows("/a/:id", "x://a/b") == nil)
    // ... unless its priority is higher.
    #expect(try shadows("/a/:id", "x://a/b", priorities: [1, 0]) == .priority)
    // A route naming no domain ignores the domain but ranks after one naming it (rule 3).
    #expect(try shadows("https://a/:id", "https://example.com/a/b") == nil)
    #expect(
      try shadows("https://a/:id", "https://example.com/a/b", priorities: [1, 0]) == .priority)
    // A route naming a domain does not match URLs of other domains.
    #expect(try shadows("https://example.com/a/:id", "https://a/b", priorities: [1, 0]) == nil)
    #expect(
      try shadows("https://example.com/a/:id", "https://other.org/a/b", priorities: [1, 0]) == nil)
  }

  @Test func aRouteNeverHidesItself() throws {
    let list = try routes(["/a/:x"])
    #expect(RouteLint.shadows(list[0], index: 0, list[0], index: 0) == nil)
    #expect(try shadowed(["/a(/:x)"]).isEmpty)
  }

  @Test func findingsNameTheRoutesAndTheRule() throws {
    let inspection = try inspect([
      #"{"pattern":"x://a/:x","screen":"s","priority":2}"#,
      #"{"pattern":"x://a/<int:id>","screen":"s"}"#,
      #"{"pattern":"x://b","screen":"s"}"#,
      #"{"pattern":"x://b/*","screen":"s"}"#,
      #"{"pattern":"x://b/<path:p>","screen":"s"}"#,
    ])
    let findings = RouteLint.findings(inspection)
    #expect(findings.map(\.kind) == [.shadowed, .shadowed])
    #expect(findings.map(\.routes) == [[1, 0], [3, 2, 4]])
    #expect(
      findings.first?.message
        == #"routes[1] "x://a/<int:id>" can never win: routes[0] "x://a/:x" matches every URL it matches and ranks first (a higher priority)"#
    )
    #expect(
      findings.last?.message
        == #"routes[3] "x://b/*" can never win: for every URL it matches, one of routes[2] "x://b" (more specific segments), routes[4] "x://b/<path:p>" (more specific segments) matches it too and ranks first"#
    )
    #expect(findings.first?.patterns == ["x://a/<int:id>", "x://a/:x"])
    #expect(
      findings.first?.json.serialized
        == #"{"kind":"shadowed","routes":[1,0],"patterns":["x://a/<int:id>","x://a/:x"],"screen":null,"link":null,"message":"routes[1] \"x://a/<int:id>\" can never win: routes[0] \"x://a/:x\" matches every URL it matches and ranks first (a higher priority)"}"#
    )
  }

  /// The guarantee: a route reported as never winning really never wins. Random tables (the
  /// differential test's generator), and for each reported route many URLs aimed at it: none
  /// that it matches may be won by it, as the linear scan decides.
  @Test(arguments: 0..<2)
  func aReportedRouteNeverWinsAnyURLItMatches(shard: Int) throws {
    let seed = 0x5EAD_0000 + UInt64(shard) * 2
    var generator = RouteGenerator(random: SeededGenerator(seed: seed))
    var urls = URLGenerator(random: SeededGenerator(seed: seed + 1))
    var reported = 0
    var checked = 0
    var failures: [String] = []
    for _ in 0..<1500 {
      let generated = generator.table()
      let list = try generated.map {
        Router.Route(pattern: try RoutePattern($0.text), priority: $0.priority)
      }
      var conflicts: [RouteConflict] = []
      let router = Router(list, conflicts: &conflicts)
      let scan = LinearScan(list)
      for shadowing in RouteLint.shadowings(list, router: router) {
        reported += 1
        let alone = LinearScan([list[shadowing.route]])
        for _ in 0..<60 {
          let generatedURL = urls.url(aimingAt: generated[shadowing.route])
          guard let url = try? RouteURL(generatedURL.text), alone.decide(url) != nil else {
            continue
          }
          checked += 1
          if scan.decide(url) == shadowing.route, failures.count < 5 {
            failures.append(
              "routes[\(shadowing.route)] won \(generatedURL.text) in "
                + generated.map { "\($0.text) p\($0.priority)" }.joined(separator: ", "))
          }
        }
      }
    }
    print("Shadowing shard \(shard): \(reported) routes reported, \(checked) of their URLs checked")
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    // The check is not vacuous.
    #expect(reported > 50, "only \(reported) shadowed routes in the random tables")
    #expect(checked > 1000, "only \(checked) URLs of shadowed routes checked")
  }
}

@Suite struct ConflictLintTests {
  @Test func everyConflictingPairIsCollectedAndTheLaterOneKept() throws {
    let inspection = try inspect([
      #"{"pattern":"/a/:x","screen":"first"}"#,
      #"{"pattern":"/b","screen":"b"}"#,
      #"{"pattern":"/a/:y","screen":"second"}"#,
      #"{"pattern":"/a/:z","screen":"third"}"#,
      #"{"pattern":"/x(/:a)(/:b)","screen":"self"}"#,
    ])
    #expect(
      inspection.conflicts == [
        RouteConflict(route: 2, other: 0), RouteConflict(route: 3, other: 0),
        RouteConflict(route: 3, other: 2), RouteConflict(route: 4, other: 4),
      ])
    #expect(!inspection.isUsable)
    // The first listed wins a URL they both match, as the linear scan decides.
    guard case .matched(let entry, _) = inspection.table.resolve("/a/1").outcome else {
      Issue.record("/a/1 did not match")
      return
    }
    #expect(entry.index == 0)
    let findings = RouteLint.findings(inspection)
    #expect(findings.map(\.kind) == [.conflict, .conflict, .conflict, .conflict])
    #expect(findings.map(\.routes) == [[2, 0], [3, 0], [3, 2], [4]])
    #expect(
      findings[0].message
        == #"routes[2] "/a/:y" cannot be told apart from routes[0] "/a/:x": the same scheme, domain, segment kinds, query constraints and priority; the app refuses the table"#
    )
    #expect(findings[3].message.contains("two expansions of its optional groups"))
  }

  @Test func theStrictTableStillRefusesWithTheSameMessages() {
    #expect(throws: RouteTableError("routes[2] conflicts with routes[0]")) {
      try RouteTable(
        json:
          #"{"routes":[{"pattern":"/a/:x","screen":"s"},{"pattern":"/b","screen":"s"},{"pattern":"/a/:y","screen":"s"}]}"#
      )
    }
    #expect(
      throws: RouteTableError(
        "routes[0]: two expansions of its optional groups cannot be told apart")
    ) {
      try RouteTable(json: #"{"routes":[{"pattern":"/x(/:a)(/:b)","screen":"s"}]}"#)
    }
  }

  @Test func parentProblemsAreAllCollected() throws {
    let inspection = try inspect([
      #"{"pattern":"/home","screen":"home"}"#,
      #"{"pattern":"/a","screen":"a","parent":"/nowhere"}"#,
      #"{"pattern":"/go","action":"go"}"#,
      #"{"pattern":"/b","screen":"b","parent":"/go"}"#,
      #"{"pattern":"/c","screen":"c","parent":"/d"}"#,
      #"{"pattern":"/d","screen":"d","parent":"/c"}"#,
      #"{"pattern":"/e","screen":"e","parent":"/home"}"#,
    ])
    #expect(inspection.conflicts.isEmpty)
    #expect(inspection.parentProblems.map(\.route) == [1, 3, 4])
    #expect(
      inspection.parentProblems.map(\.error.description) == [
        #"routes[1].parent: "/nowhere" matches no route"#,
        #"routes[3].parent: "/go" ends on routes[2], which is not a screen route"#,
        "routes[4].parent: parents form a loop: routes[4] -> routes[5] -> routes[4]",
      ])
    let findings = RouteLint.findings(inspection)
    #expect(findings.map(\.kind) == [.parent, .parent, .parent])
    #expect(
      findings[2].message
        == #"routes[4] "/c" has an unusable parent: parents form a loop: routes[4] -> routes[5] -> routes[4]; the app refuses the table"#
    )
    #expect(
      findings[0].message
        == #"routes[1] "/a" has an unusable parent: "/nowhere" matches no route; the app refuses the table"#
    )
    // Loading the table for use still refuses it with the first problem.
    #expect(throws: RouteTableError(#"routes[1].parent: "/nowhere" matches no route"#)) {
      try RouteTable(
        json:
          #"{"routes":[{"pattern":"/home","screen":"home"},{"pattern":"/a","screen":"a","parent":"/nowhere"},{"pattern":"/go","action":"go"},{"pattern":"/b","screen":"b","parent":"/go"}]}"#
      )
    }
  }

  @Test func whatATableRefusesOnItsOwnIsStillAnError() {
    #expect(
      throws: RouteTableError(
        "routes[0].pattern: only one '*' or path capture may stand in a pattern (column 6 of \"/a/*/*\")"
      )
    ) {
      try RouteTable.inspect(json: Array(#"{"routes":[{"pattern":"/a/*/*","screen":"s"}]}"#.utf8))
    }
    #expect(throws: RouteTableError.self) { try RouteTable.inspect(json: Array("{".utf8)) }
  }

  @Test func aRouteHiddenOnlyByItsConflictIsReportedOnceAsTheConflict() throws {
    let findings = RouteLint.findings(
      try inspect([
        #"{"pattern":"/a/:x","screen":"s"}"#, #"{"pattern":"/a/:y","screen":"s"}"#,
      ]))
    #expect(findings.map(\.kind) == [.conflict])
  }

  /// With conflicts kept, the router still decides exactly as the linear scan: the route
  /// listed first wins a URL two conflicting routes match.
  @Test func theLenientRouterAgreesWithTheLinearScan() throws {
    var generator = RouteGenerator(random: SeededGenerator(seed: 0x1E17))
    var urls = URLGenerator(random: SeededGenerator(seed: 0x1E18))
    var tablesWithConflicts = 0
    var failures: [String] = []
    for _ in 0..<1500 {
      var generated = generator.table()
      // Repeat a route now and then, so that conflicts are common.
      if let first = generated.first, generated.count < 6 { generated.append(first) }
      let list = try generated.map {
        Router.Route(pattern: try RoutePattern($0.text), priority: $0.priority)
      }
      var conflicts: [RouteConflict] = []
      let router = Router(list, conflicts: &conflicts)
      do {
        _ = try Router(list)
        #expect(conflicts.isEmpty)
      } catch {
        #expect(conflicts.contains(error), "\(error) not in \(conflicts)")
        tablesWithConflicts += 1
      }
      let scan = LinearScan(list)
      for _ in 0..<20 {
        let target = generated[Int(urls.random.below(generated.count))]
        guard let url = try? RouteURL(urls.url(aimingAt: target).text) else { continue }
        let got = router.match(url).map { [$0.route, $0.expansion] }
        let expected = scan.match(url).map { [$0.route, $0.expansion] }
        if got != expected, failures.count < 5 {
          failures.append(
            "\(url.text): router \(String(describing: got)), scan \(String(describing: expected))")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    #expect(tablesWithConflicts > 500)
  }
}
