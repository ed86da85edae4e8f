import Foundation
import Testing

@testable import Routing

// `RouteTable.explain`: every failure reason, every ranking rule, what the winner does, and
// agreement with the router and `resolve` on many URLs.

/// A table of screen routes: `(pattern, priority)`; each route's screen is `s<index>`.
private func table(_ routes: [(String, Int)]) throws -> RouteTable {
  try RouteTable(
    entries: routes.enumerated().map { index, route in
      var entry = RouteEntry(
        index: index, pattern: try RoutePattern(route.0), target: .screen("s\(index)"))
      entry.priority = route.1
      return entry
    })
}

private func table(_ patterns: [String]) throws -> RouteTable {
  try table(patterns.map { ($0, 0) })
}

/// The verdict of route `route` for `url` (first hop).
private func verdict(_ table: RouteTable, _ url: String, route: Int) -> Explanation.Verdict? {
  table.explain(url).hops.first?.candidates.first { $0.route == route }?.verdict
}

private func failure(_ patterns: [String], _ url: String) throws -> Explanation.Failure? {
  guard case .failed(let failure)? = verdict(try table(patterns), url, route: 0) else {
    return nil
  }
  return failure
}

/// The rule by which route `loser` lost to route `winner`.
private func rule(
  _ routes: [(String, Int)], _ url: String, loser: Int, winner: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> Explanation.RankingRule? {
  let verdict = verdict(try table(routes), url, route: loser)
  guard case .lost(let to, let rule)? = verdict else {
    Issue.record(
      "routes[\(loser)] did not lose: \(String(describing: verdict))",
      sourceLocation: sourceLocation)
    return nil
  }
  #expect(to == winner, sourceLocation: sourceLocation)
  return rule
}

/// A short, comparable form of a resolution.
private func summary(_ resolution: Resolution) -> String {
  let end: String
  switch resolution.outcome {
  case .matched(let entry, let params): end = "matched \(entry.index) \(params.json.serialized)"
  case .invalid(let why): end = "invalid \(why)"
  case .unmatched: end = "unmatched"
  case .refused(let why): end = "refused \(why)"
  case .failed(let why): end = "failed \(why)"
  }
  return end + " via \(resolution.redirects)"
}

@Suite struct ExplanationFailureTests {
  @Test func schemeDiffersOrIsMissing() throws {
    #expect(try failure(["shop://a"], "myapp://a") == .scheme(pattern: "shop", url: "myapp"))
    #expect(try failure(["shop://a"], "/a") == .scheme(pattern: "shop", url: nil))
    #expect(
      try failure(["shop://a"], "myapp://a")?.description == #"scheme "shop" vs "myapp""#)
    #expect(
      try failure(["shop://a"], "/a")?.description
        == #"scheme "shop" vs none (the URL is a path only)"#)
  }

  @Test func domainDiffersOrIsMissing() throws {
    let pattern = "https://example.com/a"
    #expect(
      try failure([pattern], "https://other.org/a")
        == .domain(pattern: "example.com", url: "other.org"))
    #expect(try failure([pattern], "https://a") == .domain(pattern: "example.com", url: nil))
    #expect(
      try failure([pattern], "https://a")?.description
        == #"domain "example.com" vs none (the URL has no domain)"#)
  }

  @Test func literalSegmentDiffers() throws {
    let found = try failure(["myapp://user/:id/view"], "myapp://user/7/edit")
    #expect(found == .literal(segment: 3, pattern: "view", url: "edit"))
    #expect(found?.description == #"segment 3: literal "view" vs "edit""#)
    // Case-sensitive, after decoding; the first difference from the left is reported.
    #expect(
      try failure(["/a/b"], "/A/c") == .literal(segment: 1, pattern: "a", url: "A"))
  }

  @Test func typedSegmentDoesNotFit() throws {
    let int = try failure(["/items/<int:id>"], "/items/abc")
    #expect(int == .type(segment: 2, type: .int, url: "abc"))
    #expect(int?.description == #"segment 2: "abc" is not an int"#)
    #expect(
      try failure(["/w/<float:w>"], "/w/1e400") == .type(segment: 2, type: .float, url: "1e400"))
    let uuid = try failure(["/u/<uuid:u>"], "/u/1234")
    #expect(uuid == .type(segment: 2, type: .uuid, url: "1234"))
    #expect(uuid?.description == #"segment 2: "1234" is not an uuid"#)
    #expect(
      try failure(["/w/<float:w>"], "/w/x")?.description == #"segment 2: "x" is not a float"#)
  }

  @Test func tooFewSegments() throws {
    let exact = try failure(["/a/:b/:c"], "/a/x")
    #expect(exact == .tooFewSegments(needs: 3, atLeast: false, has: 2))
    #expect(exact?.description == "too few segments: the pattern needs 3, the URL has 2")
    let path = try failure(["/a/<path:p>"], "/a")
    #expect(path == .tooFewSegments(needs: 2, atLeast: true, has: 1))
    #expect(path?.description == "too few segments: the pattern needs at least 2, the URL has 1")
    #expect(
      try failure(["/a/b/*"], "/a") == .tooFewSegments(needs: 2, atLeast: true, has: 1))
  }

  @Test func tooManySegments() throws {
    let found = try failure(["myapp://orders/<int:id>"], "myapp://orders/42/edit")
    #expect(found == .tooManySegments(takes: 2, has: 3))
    #expect(found?.description == "too many segments: the pattern takes 2, the URL has 3")
  }

  @Test func queryConstraintsFail() throws {
    let pattern = "/cart?coupon=<int:c>&from=app"
    #expect(try failure([pattern], "/cart") == .queryMissing(key: "coupon"))
    #expect(
      try failure([pattern], "/cart?coupon=1&coupon=2")
        == .queryRepeated(key: "coupon", count: 2))
    #expect(
      try failure([pattern], "/cart?coupon=x&from=app")
        == .queryType(key: "coupon", type: .int, url: "x"))
    #expect(
      try failure([pattern], "/cart?coupon=5&from=web")
        == .queryLiteral(key: "from", pattern: "app", url: "web"))
    #expect(try failure([pattern], "/cart")?.description == #"query "coupon": missing"#)
    #expect(
      try failure([pattern], "/cart?coupon=1&coupon=2")?.description
        == #"query "coupon": appears 2 times (must appear once)"#)
    #expect(
      try failure([pattern], "/cart?coupon=5&from=web")?.description
        == #"query "from": literal "app" vs "web""#)
    #expect(
      try failure([pattern], "/cart?coupon=x&from=app")?.description
        == #"query "coupon": "x" is not an int"#)
  }

  @Test func pathIsComparedBeforeTheQuery() throws {
    #expect(
      try failure(["/cart?c=:c"], "/basket") == .literal(segment: 1, pattern: "cart", url: "basket")
    )
  }

  @Test func optionalGroupsReportTheClosestExpansion() throws {
    let table = try table(["shop://search(/:query)(/page/<int:page>)"])
    let explanation = table.explain("shop://search/cats/page/x")
    let candidate = try #require(explanation.hops.first?.candidates.first)
    #expect(candidate.verdict == .failed(.type(segment: 4, type: .int, url: "x")))
    #expect(candidate.expansion == 3)
    let hop = try #require(explanation.hops.first)
    #expect(
      explanation.reason(candidate, in: hop)
        == #"segment 4: "x" is not an int (closest of 4 expansions: with (/:query) (/page/<int:page>))"#
    )
    // A match names the expansion that matched.
    let matched = table.explain("shop://search/page/2")
    let winner = try #require(matched.hops.first?.candidates.first)
    #expect(winner.verdict == .won)
    #expect(winner.expansion == 2)
    #expect(
      Explanation.describe(expansion: 2, of: table.entries[0].pattern)
        == "with (/page/<int:page>), without (/:query)")
    #expect(
      Explanation.describe(expansion: 0, of: table.entries[0].pattern)
        == "without (/:query) (/page/<int:page>)")
  }

  @Test func queryFailureNamesTheMatchedExpansion() throws {
    let table = try table(["/s(/:q)?k=1"])
    let candidate = try #require(table.explain("/s/x?k=2").hops.first?.candidates.first)
    #expect(candidate.verdict == .failed(.queryLiteral(key: "k", pattern: "1", url: "2")))
    #expect(candidate.expansion == 1)
  }
}

@Suite struct ExplanationRankingTests {
  @Test func priorityBeatsSpecificity() throws {
    let found = try rule(
      [("shop://promo/summer", 0), ("/promo/:code", 10)], "shop://promo/summer",
      loser: 0, winner: 1)
    #expect(found == .priority(loser: 0, winner: 10))
    #expect(found?.number == 1)
    #expect(found?.description == "rule 1 (priority): 10 beats 0")
  }

  @Test func schemeSpecificBeatsGlobal() throws {
    let found = try rule(
      [("/items/new", 0), ("shop://items/:id", 0)], "shop://items/new",
      loser: 0, winner: 1)
    #expect(found == .scheme("shop"))
    #expect(found?.description == #"rule 2 (scheme): it names "shop", this route is global"#)
  }

  @Test func domainBeatsNoDomain() throws {
    let found = try rule(
      [("https://items/:id", 0), ("https://shop.example.com/items/:id", 0)],
      "https://shop.example.com/items/5", loser: 0, winner: 1)
    #expect(found == .domain("shop.example.com"))
    #expect(found?.number == 3)
  }

  @Test func specificityAtTheFirstDifferentSegment() throws {
    let routes: [(String, Int)] = [
      ("/a/:x/b", 0), ("/a/<int:x>/:y", 0), ("/a/<float:x>/b", 0), ("/a/<path:p>", 0),
      ("/a/*", 0), ("/a/5/b", 0),
    ]
    #expect(
      try rule(routes, "/a/5/b", loser: 0, winner: 5)
        == .specificity(segment: 2, loser: .string, winner: .literal))
    #expect(
      try rule(routes, "/a/5/b", loser: 1, winner: 5)
        == .specificity(segment: 2, loser: .int, winner: .literal))
    #expect(
      try rule(routes, "/a/5/b", loser: 3, winner: 5)
        == .specificity(segment: 2, loser: .path, winner: .literal))
    #expect(
      try rule(routes, "/a/5/b", loser: 4, winner: 5)?.description
        == "rule 4 (specificity): at segment 2, literal beats *")
    // Without the literal route: int beats float, float beats string, string beats path.
    let typed = Array(routes.prefix(5))
    #expect(
      try rule(typed, "/a/5/b", loser: 2, winner: 1)
        == .specificity(segment: 2, loser: .float, winner: .int))
    #expect(
      try rule(typed, "/a/5/c", loser: 3, winner: 1)
        == .specificity(segment: 2, loser: .path, winner: .int))
    #expect(
      try rule(
        [("/a/:x", 0), ("/a/<uuid:u>", 0)], "/a/123e4567-e89b-12d3-a456-426614174000",
        loser: 0, winner: 1) == .specificity(segment: 2, loser: .string, winner: .uuid))
    #expect(
      try rule([("/a/*", 0), ("/a/<path:p>", 0)], "/a/b", loser: 0, winner: 1)
        == .specificity(segment: 2, loser: .rest, winner: .path))
  }

  @Test func noTrailingStarBeatsATrailingStarThatMatchesNothing() throws {
    let found = try rule([("/a/*", 0), ("/a", 0)], "/a", loser: 0, winner: 1)
    #expect(found == .trailingRest)
    #expect(found?.number == 4)
  }

  @Test func moreQueryConstraintsWin() throws {
    let found = try rule(
      [("shop://cart", 0), ("shop://cart?coupon=<int:c>", 0)],
      "shop://cart?coupon=5", loser: 0, winner: 1)
    #expect(found == .queryConstraints(loser: 0, winner: 1))
    #expect(found?.description == "rule 5 (query constraints): 1 beats 0")
  }

  @Test func tableOrderDecidesLast() throws {
    let found = try rule(
      [("/cart?a=:a", 0), ("/cart?b=:b", 0)], "/cart?b=1&a=2",
      loser: 1, winner: 0)
    #expect(found == .tableOrder)
    #expect(found?.description == "rule 6 (table order): it is listed first")
  }

  @Test func everyLoserIsComparedWithTheWinnerAndRanked() throws {
    let table = try table([("/a/:x", 0), ("/a/b", 0), ("/a/*", 0), ("/z", 0)])
    let hop = try #require(table.explain("myapp://a/b").hops.first)
    #expect(hop.winner == 1)
    #expect(hop.ranked.map(\.route) == [1, 0, 2])
    #expect(hop.candidates.map(\.rank) == [2, 1, 3, nil])
    #expect(hop.candidates[1].kinds == [.literal, .literal])
    #expect(hop.candidates[2].kinds == [.literal, .rest])
    let explanation = table.explain("myapp://a/b")
    #expect(
      explanation.reason(hop.candidates[1], in: hop) == "won over 2 other matching routes")
    #expect(
      explanation.reason(hop.candidates[0], in: hop)
        == "lost to routes[1], rule 4 (specificity): at segment 2, literal beats string")
  }
}

@Suite struct ExplanationOutcomeTests {
  private let redirects = #"""
    {"routes": [
      { "pattern": "shop://old/:id", "redirect": "shop://legacy/:ref", "rename": {"id": "ref"} },
      { "pattern": "shop://legacy/:ref", "redirect": "shop://items/:ref" },
      { "pattern": "shop://items/<int:id>", "screen": "item", "rename": {"id": "itemID"} },
      { "pattern": "shop://loop/a", "redirect": "shop://loop/b" },
      { "pattern": "shop://loop/b", "redirect": "shop://loop/a" },
      { "pattern": "shop://lost/:x", "redirect": "shop://items/:y" },
      { "pattern": "shop://many/<int:n>", "redirect": "shop://many/:n/x" },
      { "pattern": "shop://many/<int:n>/x", "redirect": "shop://many/:n/x/x" },
      { "pattern": "shop://many/<int:n>/x/*", "redirect": "shop://many/:n/x/x/x" },
      { "pattern": "shop://admin/reset", "action": "reset", "external": false },
      { "pattern": "shop://admin/:page", "screen": "admin" },
      { "pattern": "shop://tags", "redirect": "shop://items/:t" }
    ]}
    """#

  @Test func followsEachRedirectWithRenames() throws {
    let table = try RouteTable(json: redirects)
    let explanation = table.explain("shop://old/7")
    #expect(explanation.hops.map(\.url) == ["shop://old/7", "shop://legacy/7", "shop://items/7"])
    #expect(explanation.hops.map(\.winner) == [0, 1, 2])
    #expect(explanation.hops[0].params == ["id": .string("7")])
    #expect(explanation.hops[0].renamed == ["ref": .string("7")])
    #expect(explanation.hops[0].end == .redirect("shop://legacy/7"))
    #expect(explanation.hops[1].end == .redirect("shop://items/7"))
    #expect(explanation.hops[2].end == .target(.screen("item")))
    #expect(explanation.hops[2].renamed == ["itemID": .int(7)])
    #expect(summary(explanation.resolution) == summary(table.resolve("shop://old/7")))
  }

  @Test func redirectFailuresAreExplained() throws {
    let table = try RouteTable(json: redirects)
    let loop = table.explain("shop://loop/a")
    #expect(loop.hops.count == 2)
    #expect(
      loop.hops[1].end
        == .failed(#"redirect loop: "shop://loop/a" was reached before"#, redirect: "shop://loop/a")
    )
    let missing = table.explain("shop://lost/1")
    guard case .failed(let why, nil)? = missing.hops.last?.end else {
      Issue.record("expected a failed fill: \(String(describing: missing.hops.last?.end))")
      return
    }
    #expect(why.contains("needs 'y', which has no value"))
    let list = table.explain("shop://tags?t=a&t=b")
    guard case .failed(let listWhy, nil)? = list.hops.last?.end else {
      Issue.record("expected a failed fill")
      return
    }
    #expect(listWhy.contains("is a list"))
    for url in ["shop://loop/a", "shop://lost/1", "shop://tags?t=a&t=b", "shop://many/1"] {
      #expect(summary(table.explain(url).resolution) == summary(table.resolve(url)), "\(url)")
    }
  }

  @Test func tooManyRedirectsStopsAtTheLimit() throws {
    var routes: [String] = []
    for step in 0...RouteTable.maxRedirects {
      routes.append(#"{"pattern": "/r/\#(step)", "redirect": "/r/\#(step + 1)"}"#)
    }
    routes.append(#"{"pattern": "/r/:n", "screen": "end"}"#)
    let table = try RouteTable(json: #"{"routes": ["# + routes.joined(separator: ",") + "]}")
    let explanation = table.explain("/r/0")
    #expect(explanation.hops.count == RouteTable.maxRedirects + 1)
    #expect(
      explanation.hops.last?.end
        == .failed("more than 8 redirects in a row", redirect: "/r/\(RouteTable.maxRedirects + 1)"))
    #expect(summary(explanation.resolution) == summary(table.resolve("/r/0")))
  }

  @Test func anInternalRouteRefusesAURLFromOutside() throws {
    let table = try RouteTable(json: redirects)
    let explanation = table.explain("shop://admin/reset", from: .external)
    let hop = try #require(explanation.hops.first)
    #expect(hop.winner == 9)
    #expect(
      hop.end == .refused(#"route "shop://admin/reset" can be opened only from inside the app"#))
    // The route that would have been next is shown as a loser; it is not tried.
    #expect(
      hop.candidates[10].verdict
        == .lost(to: 9, rule: .specificity(segment: 2, loser: .string, winner: .literal)))
    #expect(
      summary(explanation.resolution)
        == summary(table.resolve("shop://admin/reset", from: .external)))
    #expect(table.explain("shop://admin/reset").hops.first?.end == .target(.action("reset")))
  }

  @Test func invalidAndUnmatchedURLs() throws {
    let table = try RouteTable(json: redirects)
    let invalid = table.explain("shop://items/%zz")
    #expect(invalid.hops.count == 1)
    #expect(invalid.hops[0].read == nil)
    #expect(invalid.hops[0].candidates.isEmpty)
    #expect(invalid.hops[0].end == .invalid("invalid percent escape in path segment 2"))
    let nothing = table.explain("shop://nothing")
    #expect(nothing.hops[0].winner == nil)
    #expect(nothing.hops[0].end == .unmatched)
    #expect(nothing.hops[0].candidates.count == table.entries.count)
    #expect(nothing.hops[0].candidates.allSatisfy { $0.rank == nil })
  }

  @Test func nearMissesAreTheRoutesThatGotFurthest() throws {
    let table = try table([
      "myapp://orders", "myapp://orders/<int:id>", "myapp://orders/<int:id>/pay", "/orders/x",
      "myapp://orders/<int:id>/edit?step=:s", "shop://orders/1/edit",
    ])
    let hop = try #require(table.explain("myapp://orders/42/edit").hops.first)
    #expect(hop.winner == nil)
    #expect(hop.candidates.map(\.progress) == [1, 2, 2, 1, 4, 0])
    #expect(hop.nearest.map(\.route) == [4])
    #expect(hop.candidates[4].verdict == .failed(.queryMissing(key: "step")))
    let other = try #require(table.explain("myapp://orders/42/view").hops.first)
    #expect(other.nearest.map(\.route) == [1, 2, 4])
    #expect(try #require(table.explain("myapp://a").hops.first).nearest.isEmpty)
    #expect(try #require(table.explain("myapp://orders").hops.first).nearest.isEmpty)
  }

  @Test func valuesAreQuotedInert() {
    #expect(Explanation.quote("a\u{1B}[2J\"\\") == #""a\x1b[2J\"\\""#)
    #expect(Explanation.quote("\u{9B}\u{202E}x\u{7F}") == #""\x9b\u{202e}x\x7f""#)
    #expect(Explanation.inert("myapp://a/\u{7}\"") == #"myapp://a/\x07""#)
    #expect(Explanation.quote("张三") == "\"张三\"")
    #expect(
      Explanation.show(["b": .int(2), "a": .strings(["x", "y"]), "c": .float(0.5)])
        == #"a=["x", "y"], b=2, c=0.5"#)
  }

  @Test func failureJSONNamesTheKind() {
    #expect(
      Explanation.Failure.literal(segment: 3, pattern: "view", url: "edit").json.serialized
        == #"{"kind":"literal","segment":3,"pattern":"view","url":"edit"}"#)
    #expect(
      Explanation.Failure.scheme(pattern: "shop", url: nil).json.serialized
        == #"{"kind":"scheme","pattern":"shop","url":null}"#)
    #expect(
      Explanation.RankingRule.specificity(segment: 2, loser: .string, winner: .literal).json
        .serialized
        == #"{"number":4,"name":"specificity","segment":2,"loser":"string","winner":"literal"}"#)
  }
}

// MARK: - Agreement with the router

/// Checks one URL: the explanation's winner, expansion, parameters and ranking are the
/// router's, every route that failed is one the router does not list, and the resolution is
/// `resolve`'s. Returns a description of the first difference, or nil.
func explanationDisagreement(
  _ table: RouteTable, _ text: String, from origin: Origin = .app,
  explanation: Explanation? = nil
) -> String? {
  let explanation = explanation ?? table.explain(text, from: origin)
  if summary(explanation.resolution) != summary(table.resolve(text, from: origin)) {
    return
      "\(text.debugDescription): explained \(summary(explanation.resolution)), "
      + "resolved \(summary(table.resolve(text, from: origin)))"
  }
  guard let url = try? RouteURL(text) else {
    return explanation.hops.first?.read == nil ? nil : "\(text.debugDescription) should not read"
  }
  let hop = explanation.hops[0]
  let best = table.router.match(url)
  let ranking = table.router.matches(url)
  if hop.winner != best?.route {
    return "\(text.debugDescription): explained winner \(String(describing: hop.winner)), "
      + "router \(String(describing: best?.route))"
  }
  if let best {
    let expansion = hop.candidates[best.route].expansion ?? 0
    if expansion != best.expansion || hop.params != best.params {
      return "\(text.debugDescription): explained expansion \(expansion) params \(hop.params), "
        + "router \(best.expansion) \(best.params)"
    }
  }
  let explainedOrder = hop.ranked.map { [$0.route, $0.expansion ?? 0] }
  let routerOrder = ranking.map { [$0.route, $0.expansion] }
  if explainedOrder != routerOrder {
    return "\(text.debugDescription): explained ranking \(explainedOrder), router \(routerOrder)"
  }
  // The test oracle (written from ROUTING.md alone) ranks alike and names the same rule.
  var oracle: [Int: LinearMatcher.Match] = [:]
  var oracleOrder: [Int] = []
  for match in LinearMatcher(table.router.routes).matches(url) where oracle[match.route] == nil {
    oracle[match.route] = match
    oracleOrder.append(match.route)
  }
  if oracleOrder != hop.ranked.map(\.route) {
    return "\(text.debugDescription): oracle ranking \(oracleOrder)"
  }
  for candidate in hop.candidates {
    switch candidate.verdict {
    case .failed:
      if candidate.rank != nil || !candidate.kinds.isEmpty {
        return "\(text.debugDescription): failed routes[\(candidate.route)] has a rank"
      }
    case .lost(let winner, let rule):
      if winner != best?.route { return "\(text.debugDescription): lost to a non-winner" }
      let expected = oracleRule(
        loser: oracle[candidate.route]!, winner: oracle[winner]!, url: url)
      if expected != rule {
        return
          "\(text.debugDescription): routes[\(candidate.route)] lost by \(rule), "
          + "the oracle says \(expected)"
      }
    case .won:
      if candidate.route != best?.route { return "\(text.debugDescription): two winners" }
    }
  }
  return nil
}

/// The first rule of section 4 that puts `winner` before `loser`, from the oracle's matches.
private func oracleRule(
  loser: LinearMatcher.Match, winner: LinearMatcher.Match, url: RouteURL
) -> Explanation.RankingRule {
  if loser.priority != winner.priority {
    return .priority(loser: loser.priority, winner: winner.priority)
  }
  // The winner names the URL's scheme or domain, so it is the URL's.
  if loser.namesScheme != winner.namesScheme { return .scheme(url.scheme ?? "") }
  if loser.namesDomain != winner.namesDomain { return .domain(url.domain ?? "") }
  for (index, (kindL, kindW)) in zip(loser.kinds, winner.kinds).enumerated() where kindL != kindW {
    return .specificity(
      segment: index + 1, loser: Explanation.MatchKind(rawValue: kindL.rawValue)!,
      winner: Explanation.MatchKind(rawValue: kindW.rawValue)!)
  }
  if loser.endsWithRest != winner.endsWithRest { return .trailingRest }
  if loser.constraintCount != winner.constraintCount {
    return .queryConstraints(loser: loser.constraintCount, winner: winner.constraintCount)
  }
  return .tableOrder
}

@Suite struct ExplanationAgreementTests {
  static let shards = 4

  /// Generated tables and URLs (the differential test's generators): the explanation names
  /// the router's winner and ranking, and `resolve`'s outcome.
  @Test(arguments: 0..<shards)
  func agreesWithTheRouterOnGeneratedTables(shard: Int) throws {
    let seed = 0xE8_0000 + UInt64(shard) * 2
    var routes = RouteGenerator(random: DifferentialRandom(seed: seed))
    var urls = URLGenerator(random: DifferentialRandom(seed: seed + 1))
    var checked = 0
    var matched = 0
    var rules: [Int: Int] = [:]
    var problems: [String] = []
    for _ in 0..<300 {
      let generated = routes.table()
      let entries = try generated.enumerated().map { index, route in
        var entry = RouteEntry(
          index: index, pattern: try RoutePattern(route.text), target: .screen("s\(index)"))
        entry.priority = route.priority
        return entry
      }
      guard let table = try? RouteTable(entries: entries) else { continue }
      for _ in 0..<20 {
        let target = urls.random.chance(85) ? urls.random.pick(generated) : nil
        let text = urls.url(aimingAt: target).text
        checked += 1
        let explanation = table.explain(text)
        if let problem = explanationDisagreement(table, text, explanation: explanation) {
          problems.append(problem + "\n  table: " + generated.map(\.text).description)
        }
        let hop = explanation.hops[0]
        if hop.winner != nil { matched += 1 }
        for candidate in hop.candidates {
          if case .lost(_, let rule) = candidate.verdict { rules[rule.number, default: 0] += 1 }
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.count) of \(checked): \(problems.prefix(5))")
    #expect(matched > checked / 4)
    // Every ranking rule decides some losses (the generators are seeded, so this is fixed).
    for number in 1...6 {
      #expect(rules[number] ?? 0 >= 1, "rule \(number) decided no loss: \(rules)")
    }
    print(
      "Explanation agreement shard \(shard): \(checked) URLs, \(matched) matched, losses by rule \(rules.sorted { $0.key < $1.key })"
    )
  }

  /// The shipped table, with the seeds' URLs and near misses of every route, from inside and
  /// from outside.
  @Test func agreesWithTheRouterOnTheShippedTable() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Screens/routes.json")
    let table = try RouteTable(json: Array(try Data(contentsOf: file)))
    var urls = [
      "navigateApp://action?navigationKey=personalcenter",
      "navigateApp://action?navigationKey=orderdetail&orderid=2015032688",
      "navigateApp://action?navigationKey=orderdetail", "navigator://user/zhangsan",
      "navigator://modal/user/zhangsan", "XYWAPP://pkdetail/open?pkID=10010",
      "XYWAPP://pkdetail/like?id=10010", "XYWAPP://pkdetail/like?id=x",
      "ccfurlresponder://animal/platypus/8.0/17", "ccfurlresponder://animal/platypus/8.0",
      "ccfurlresponder://Pure%20red/1.0/0.0/0.0", "ccfurlresponder://color/red/rouge",
      "JLRoutesThree://post/123", "JLRoutesThree://search/cats/page/2",
      "JLRoutesThree://search", "JLRoutesThree://search/page/3", "JLRoutesThree://files/a/b/c",
      "JLRoutesThree://files", "tests://user/view/joeldev?userID=evil", "myapp://user/view/x",
      "myapp://old-orders/42", "myapp://old-orders/abc", "myapp://orders/42/pay",
      "myapp://orders/42/edit", "myapp://debug/reset", "myapp://address-picker",
      "https://appshell.example.com/orders/7", "https://other.example.com/orders/7",
      "myapp://user/%zz", "", "/", "myapp://", "myapp://user/../me", "myapp://me#x",
    ]
    for entry in table.entries {
      urls.append(entry.pattern.text)
      urls.append(entry.pattern.text + "/extra")
    }
    var problems: [String] = []
    for url in urls {
      for origin in [Origin.app, .external] {
        if let problem = explanationDisagreement(table, url, from: origin) {
          problems.append(problem)
        }
      }
    }
    #expect(problems.isEmpty, "\(problems)")
  }

  /// A dense table of every kind of segment at every place (with and without a scheme, a
  /// query constraint and a priority), against every short URL over values that fit several
  /// kinds at once: rule 4 in all its forms.
  @Test func agreesWithTheRouterOnEverySegmentKind() throws {
    let second = ["a", "<int:i>", "<float:f>", "<uuid:u>", ":s", "<path:r>", "*"]
    var patterns: [(String, Int)] = []
    for first in ["a", ":p"] {
      for kind in second {
        patterns.append(("/\(first)/\(kind)", 0))
        patterns.append(("shop://\(first)/\(kind)", 0))
        if kind != "*" && kind != "<path:r>" {
          patterns.append(("/\(first)/\(kind)/:t", 0))
          patterns.append(("/\(first)/\(kind)/b", 0))
          patterns.append(("shop://\(first)/\(kind)?q=:q", 0))
        }
      }
      patterns.append(("/\(first)", 0))
      patterns.append(("/\(first)(/b)(/:t)", 1))
    }
    patterns.append(("*", 0))
    let table = try table(patterns)
    let values = ["a", "b", "5", "1.5", "123e4567-e89b-12d3-a456-426614174000"]
    var paths = [""]
    var frontier = [""]
    for _ in 0..<3 {
      frontier = frontier.flatMap { path in values.map { path + "/" + $0 } }
      paths += frontier
    }
    var problems: [String] = []
    var rule4 = 0
    for path in paths {
      for url in ["shop:/" + path, path.isEmpty ? "/" : path, "shop:/" + path + "?q=1"] {
        let explanation = table.explain(url)
        if let problem = explanationDisagreement(table, url, explanation: explanation) {
          problems.append(problem)
        }
        rule4 += explanation.hops[0].candidates.count {
          if case .lost(_, let rule) = $0.verdict { rule.number == 4 } else { false }
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.count) problems: \(problems.prefix(5))")
    #expect(rule4 > 500)
  }

  /// `LinearScan.kinds(of:matching:)` and the explanation's path check decide alike.
  @Test func pathCheckAgreesWithLinearScanKinds() throws {
    var random = DifferentialRandom(seed: 0xE8_1000)
    var routes = RouteGenerator(random: DifferentialRandom(seed: 0xE8_1001))
    var urls = URLGenerator(random: DifferentialRandom(seed: 0xE8_1002))
    var disagreements: [String] = []
    for _ in 0..<300 {
      let generated = routes.table()
      let route = random.pick(generated)
      let pattern = try RoutePattern(route.text)
      let text = urls.url(aimingAt: random.chance(80) ? route : random.pick(generated)).text
      guard let url = try? RouteURL(text) else { continue }
      for segments in pattern.expansions {
        let linear = LinearScan.kinds(of: segments, matching: url.segments)
        let explained = RouteTable.path(segments, url.segments)
        switch explained {
        case .success(let kinds):
          if linear?.map(Int.init) != kinds.map(\.rawValue) {
            disagreements.append("\(route.text) \(text): \(kinds) vs \(String(describing: linear))")
          }
        case .failure(let miss):
          if linear != nil { disagreements.append("\(route.text) \(text): \(miss.failure)") }
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
  }
}
