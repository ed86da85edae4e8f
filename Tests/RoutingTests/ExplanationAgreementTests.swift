import Foundation
import RouteExplain
import TestSupport
import Testing

@testable import Routing

// MARK: - Agreement with the router

/// Checks one URL: the explanation's winner, expansion, parameters and ranking are the
/// router's, every route that failed is one the router does not list, and the resolution is
/// `resolve`'s. Returns a description of the first difference, or nil.
func explanationDisagreement(
  _ table: RouteTable, _ text: String, from origin: Origin = .app,
  explanation: Explanation? = nil
) -> String? {
  let explanation = explanation ?? table.explain(text, from: origin)
  if explanationSummary(explanation.resolution)
    != explanationSummary(table.resolve(text, from: origin))
  {
    return
      "\(text.debugDescription): explained \(explanationSummary(explanation.resolution)), "
      + "resolved \(explanationSummary(table.resolve(text, from: origin)))"
  }
  guard let url = try? RouteURL(text, fragment: table.router.readsFragment) else {
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
  // The test oracle (written from docs/routing.md alone) ranks alike and names the same rule.
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
        loser: oracle[candidate.route]!, winner: oracle[winner]!, url: url,
        patterns: table.entries.map(\.pattern))
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
  loser: LinearMatcher.Match, winner: LinearMatcher.Match, url: RouteURL,
  patterns: [RoutePattern]
) -> Explanation.RankingRule {
  if loser.priority != winner.priority {
    return .priority(loser: loser.priority, winner: winner.priority)
  }
  // The winner names the URL's scheme or domain, so it is the URL's (or a `*.` domain over it).
  if loser.namesScheme != winner.namesScheme { return .scheme(url.scheme ?? "") }
  let winnerDomain = patterns[winner.route].domain ?? ""
  if loser.namesDomain != winner.namesDomain {
    return .domain(winner.suffixLength == 0 ? url.domain ?? "" : winnerDomain)
  }
  if loser.suffixLength != winner.suffixLength {
    return .closerDomain(winner: winnerDomain, loser: patterns[loser.route].domain ?? "")
  }
  if loser.matchesFragment != winner.matchesFragment { return .fragment }
  for (index, (kindL, kindW)) in zip(loser.kinds, winner.kinds).enumerated() where kindL != kindW {
    return .specificity(
      segment: index + 1, loser: Explanation.MatchKind(rawValue: kindL.rawValue)!,
      winner: Explanation.MatchKind(rawValue: kindW.rawValue)!)
  }
  if loser.endsWithRest != winner.endsWithRest { return .trailingRest }
  for (index, (kindL, kindW)) in zip(loser.fragmentKinds, winner.fragmentKinds).enumerated()
  where kindL != kindW {
    return .fragmentSpecificity(
      segment: index + 1, loser: Explanation.MatchKind(rawValue: kindL.rawValue)!,
      winner: Explanation.MatchKind(rawValue: kindW.rawValue)!)
  }
  if loser.fragmentEndsWithRest != winner.fragmentEndsWithRest { return .trailingRest }
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
    var routes = RouteGenerator(random: SeededGenerator(seed: seed))
    var urls = URLGenerator(random: SeededGenerator(seed: seed + 1))
    var checked = 0
    var matched = 0
    var rules: [Int: Int] = [:]
    var problems: [String] = []
    for _ in 0..<300 {
      let generated = routes.table()
      let entries = try generated.enumerated().map { index, route in
        var entry = RouteEntry(
          index: index, pattern: try RoutePattern(route.text, caseSensitive: route.caseSensitive),
          target: .screen("s\(index)"))
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
    let table = try explanationTable(patterns)
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
}
