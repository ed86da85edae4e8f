import Foundation
import RouteExplain
import Testing

@testable import Routing

// `RouteTable.explain`: every failure reason, every ranking rule, what the winner does, and
// agreement with the router and `resolve` on many URLs.

/// A table of screen routes: `(pattern, priority)`; each route's screen is `s<index>`.
func explanationTable(_ routes: [(String, Int)]) throws -> RouteTable {
  try RouteTable(
    entries: routes.enumerated().map { index, route in
      var entry = RouteEntry(
        index: index, pattern: try RoutePattern(route.0), target: .screen("s\(index)"))
      entry.priority = route.1
      return entry
    })
}

func explanationTable(_ patterns: [String]) throws -> RouteTable {
  try explanationTable(patterns.map { ($0, 0) })
}

/// The verdict of route `route` for `url` (first hop).
private func verdict(_ table: RouteTable, _ url: String, route: Int) -> Explanation.Verdict? {
  table.explain(url).hops.first?.candidates.first { $0.route == route }?.verdict
}

private func failure(_ patterns: [String], _ url: String) throws -> Explanation.Failure? {
  guard case .failed(let failure)? = verdict(try explanationTable(patterns), url, route: 0) else {
    return nil
  }
  return failure
}

/// The rule by which route `loser` lost to route `winner`.
private func rule(
  _ routes: [(String, Int)], _ url: String, loser: Int, winner: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> Explanation.RankingRule? {
  let verdict = verdict(try explanationTable(routes), url, route: loser)
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
func explanationSummary(_ resolution: Resolution) -> String {
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
    let table = try explanationTable(["shop://search(/:query)(/page/<int:page>)"])
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
    let table = try explanationTable(["/s(/:q)?k=1"])
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
    let table = try explanationTable([("/a/:x", 0), ("/a/b", 0), ("/a/*", 0), ("/z", 0)])
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
    #expect(
      explanationSummary(explanation.resolution)
        == explanationSummary(table.resolve("shop://old/7")))
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
      #expect(
        explanationSummary(table.explain(url).resolution) == explanationSummary(table.resolve(url)),
        "\(url)")
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
    #expect(explanationSummary(explanation.resolution) == explanationSummary(table.resolve("/r/0")))
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
      explanationSummary(explanation.resolution)
        == explanationSummary(table.resolve("shop://admin/reset", from: .external)))
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
    let table = try explanationTable([
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
