import TestSupport
import Testing

@testable import Routing

// MARK: - The differential test

/// Which rule of section 4 put the winner before the runner-up.
private func decidingRule(_ a: LinearMatcher.Match, _ b: LinearMatcher.Match) -> Int {
  if a.priority != b.priority { return 1 }
  if a.namesScheme != b.namesScheme { return 2 }
  if a.namesDomain != b.namesDomain || a.suffixLength != b.suffixLength { return 3 }
  if a.matchesFragment != b.matchesFragment { return 3 }
  if a.kinds != b.kinds || a.endsWithRest != b.endsWithRest || a.fragmentKinds != b.fragmentKinds
    || a.fragmentEndsWithRest != b.fragmentEndsWithRest
  {
    return 4
  }
  if a.constraintCount != b.constraintCount { return 5 }
  return 6
}

private func describe(_ table: [GeneratedRoute]) -> String {
  table.enumerated().map { index, route in
    "  routes[\(index)] priority \(route.priority): \(route.text.debugDescription)"
  }.joined(separator: "\n")
}

private func describe(_ match: RouteMatch?) -> String {
  guard let match else { return "no match" }
  return
    "route \(match.route) expansion \(match.expansion) params "
    + LinearMatcher.describe(match.params)
}

/// Counts and the first few failures of one differential run.
private struct Report {
  var tables = 0
  var conflicting = 0
  var urls = 0
  var matched = 0
  var rules: [Int: Int] = [:]
  var failures: [String] = []
  var failureCount = 0

  mutating func fail(_ message: String) {
    failureCount += 1
    if failures.count < 8 { failures.append(message) }
  }
}

@Suite struct DifferentialTests {
  /// Independent shards, run in parallel; each has its own seeds.
  static let shards = 4
  static let tablesPerShard = 500
  static let urlsPerTable = 20

  @Test(arguments: 0..<shards)
  func routerAgreesWithLinearOracle(shard: Int) {
    let seed = 0x5EED_0000 + UInt64(shard) * 2
    var routes = RouteGenerator(random: SeededGenerator(seed: seed))
    var urls = URLGenerator(random: SeededGenerator(seed: seed + 1))
    var report = Report()
    for tableNumber in 0..<Self.tablesPerShard {
      let table = routes.table()
      check(table, number: tableNumber, &urls, &report)
    }
    let summary =
      "shard \(shard): \(report.tables) tables (\(report.conflicting) refused as conflicting), "
      + "\(report.urls) URLs (\(report.matched) matched), deciding rules "
      + (1...6).map { "\($0): \(report.rules[$0] ?? 0)" }.joined(separator: ", ")
    print("Differential " + summary)
    #expect(
      report.failureCount == 0,
      Comment(
        rawValue: "\(report.failureCount) disagreements; \(summary); first ones:\n"
          + report.failures.joined(separator: "\n\n")))
    // The generator must really exercise the router: most tables usable, many URLs matching,
    // and every ranking rule deciding some winners.
    #expect(report.tables == Self.tablesPerShard)
    #expect(report.conflicting < report.tables / 4)
    #expect(report.matched > report.urls / 4)
    for rule in 1...6 {
      #expect((report.rules[rule] ?? 0) >= 3, "rule \(rule) decided too few rankings: \(summary)")
    }
  }

  private func check(
    _ table: [GeneratedRoute], number: Int, _ urls: inout URLGenerator, _ report: inout Report
  ) {
    report.tables += 1
    var header: String { "table #\(number):\n" + describe(table) }

    // Every generated pattern follows the grammar and compiles to what the generator meant.
    var compiled: [Router.Route] = []
    for (index, route) in table.enumerated() {
      let pattern: RoutePattern
      do {
        pattern = try RoutePattern(route.text, caseSensitive: route.caseSensitive)
      } catch {
        report.fail("\(header)\nroutes[\(index)] refused: \(error)")
        return
      }
      let expectedGroups = route.groups
      if pattern.scheme != route.scheme || pattern.domain != route.domain
        || pattern.segments != route.segments || pattern.groups != expectedGroups
        || pattern.constraints != route.constraints || pattern.fragment != route.fragment
        || pattern.caseSensitive != route.caseSensitive
      {
        report.fail(
          "\(header)\nroutes[\(index)] compiled to scheme \(String(describing: pattern.scheme)) "
            + "domain \(String(describing: pattern.domain)) segments \(pattern.segments) "
            + "groups \(pattern.groups) constraints \(pattern.constraints) "
            + "fragment \(String(describing: pattern.fragment))")
        return
      }
      if LinearMatcher.expansions(of: pattern) != pattern.expansions {
        report.fail("\(header)\nroutes[\(index)]: expansions are not in the documented order")
      }
      compiled.append(Router.Route(pattern: pattern, priority: route.priority))
    }

    // Conflicts (section 1): the Router refuses exactly the tables the oracle finds ambiguous.
    let oracle = LinearMatcher(compiled)
    let expectedConflict = oracle.firstConflict()
    let router: Router
    do {
      router = try Router(compiled)
    } catch {
      report.conflicting += 1
      if expectedConflict?.route != error.route || expectedConflict?.other != error.other {
        report.fail(
          "\(header)\nRouter refused the table: routes[\(error.route)] vs routes[\(error.other)]"
            + "; oracle: \(String(describing: expectedConflict))")
      }
      return
    }
    if let expectedConflict {
      report.fail(
        "\(header)\nRouter accepted the table; oracle: routes[\(expectedConflict.route)] "
          + "conflicts with routes[\(expectedConflict.other)]")
      return
    }

    let linear = LinearScan(compiled)
    for _ in 0..<Self.urlsPerTable {
      let target = urls.random.chance(85) ? urls.random.pick(table) : nil
      let generated = urls.url(aimingAt: target)
      report.urls += 1
      let reads = router.readsFragment
      let url: RouteURL
      do {
        url = try RouteURL(generated.text, fragment: reads)
      } catch {
        if !(reads && generated.fragmentInvalid) {
          report.fail("\(header)\nurl \(generated.text.debugDescription) refused: \(error)")
        }
        continue
      }
      var expectedURL = generated.expected
      if reads { expectedURL.fragment = generated.fragment }
      if reads && generated.fragmentInvalid {
        report.fail("\(header)\nurl \(generated.text.debugDescription) read, not refused")
        continue
      }
      if url != expectedURL {
        report.fail(
          "\(header)\nurl \(generated.text.debugDescription) read as \(url), "
            + "expected \(expectedURL)")
        continue
      }

      let expected = oracle.matches(url)
      let got = router.matches(url)
      let best = router.match(url)
      if let winner = expected.first {
        report.matched += 1
        if expected.count > 1 {
          report.rules[decidingRule(winner, expected[1]), default: 0] += 1
        }
      }
      let expectedWinner = expected.first.map {
        RouteMatch(route: $0.route, expansion: $0.expansion, params: $0.params)
      }
      // `matches()` lists each route once, with its best-ranked expansion.
      var seenRoutes: Set<Int> = []
      let expectedOrder = expected.filter { seenRoutes.insert($0.route).inserted }.map {
        [$0.route, $0.expansion]
      }
      let gotOrder = got.map { [$0.route, $0.expansion] }
      // The library's linear scan ranks exactly as the trie.
      if linear.matches(url) != got {
        report.fail(
          "\(header)\nurl \(generated.text.debugDescription): linear scan "
            + "\(linear.matches(url).map { [$0.route, $0.expansion] }), trie \(gotOrder)")
      }
      // Reading raw bytes decides exactly as RouteURL + match.
      let bytes = Array(generated.text.utf8)
      let fromBytes = bytes.withUnsafeBufferPointer { router.match(bytes: $0) }
      let decided = bytes.withUnsafeBufferPointer { router.decide(bytes: $0) }
      if fromBytes != best || decided != best?.route {
        report.fail(
          "\(header)\nurl \(generated.text.debugDescription): from bytes \(describe(fromBytes)), "
            + "decide(bytes:) \(String(describing: decided)), match() \(describe(best))")
      }
      if best != expectedWinner || got.first != best || gotOrder != expectedOrder {
        report.fail(
          "\(header)\nurl \(generated.text.debugDescription)\n"
            + "expected (oracle, best first):\n    "
            + expected.map(\.description).joined(separator: "\n    ")
            + "\ngot match(): \(describe(best))\ngot matches() order: \(gotOrder)")
      }
    }
  }
}

// MARK: - Regressions found by the differential test

/// Router bugs found by comparing with the oracle, kept as regression tests.
@Suite struct RouterRegressionTests {
  /// docs/routing.md: "Literal segments compare case-sensitively, after decoding"; a literal
  /// query constraint "requires that query key with that exact (decoded) value"; "Keys compare
  /// case-sensitively". `caf%C3%A9` (U+00E9) and `cafe%CC%81` (e + U+0301) decode to different
  /// text; the Router once compared Swift strings, which treat canonically equivalent text as
  /// equal, and matched them.
  @Test func canonicallyEquivalentTextIsNotTheSameLiteral() throws {
    let cases: [(pattern: String, url: String)] = [
      ("/caf%C3%A9", "/cafe%CC%81"),
      ("/a?k=caf%C3%A9", "/a?k=cafe%CC%81"),
      ("/a?caf%C3%A9=1", "/a?cafe%CC%81=1"),
    ]
    for (pattern, url) in cases {
      let routes = [Router.Route(pattern: try RoutePattern(pattern))]
      let router = try Router(routes)
      #expect(LinearMatcher(routes).best(try RouteURL(url)) == nil)
      #expect(router.match(try RouteURL(url)) == nil, "\(pattern) must not match \(url)")
    }
    // Two routes that URLs can tell apart are not a conflict (section 1).
    let both = [
      Router.Route(pattern: try RoutePattern("/caf%C3%A9")),
      Router.Route(pattern: try RoutePattern("/cafe%CC%81")),
    ]
    #expect(LinearMatcher(both).firstConflict() == nil)
    #expect(throws: Never.self) { try Router(both) }
  }
}
