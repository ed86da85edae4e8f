// Working out an ``Explanation``: every route checked against the URL, independently of the
// router's trie, and the ranking rule that decides between matching routes.

import Routing

extension RouteTable {
  /// Explains how `url` resolves (see ``Explanation``).
  public func explain(_ url: String, from origin: Origin = .app) -> Explanation {
    explain(bytes: Array(url.utf8), from: origin)
  }

  /// Explains how the URL in `bytes` (which may not be UTF-8) resolves, following redirects
  /// exactly as `resolve(bytes:from:)` does.
  public func explain(bytes: [UInt8], from origin: Origin = .app) -> Explanation {
    var hops: [Explanation.Hop] = []
    var redirects: [String] = []
    var current = bytes
    var seen: Set<[UInt8]> = [bytes]
    var outcome: Resolution.Outcome
    while true {
      var hop = Explanation.Hop(
        url: String(decoding: current, as: UTF8.self), read: nil, candidates: [], winner: nil,
        params: [:], renamed: [:], end: .unmatched)
      let url: RouteURL
      do {
        url = try RouteURL(bytes: current, fragment: router.readsFragment)
      } catch {
        hop.end = .invalid(error.description)
        hops.append(hop)
        outcome = .invalid(error.description)
        break
      }
      hop.read = url
      let (candidates, winner) = examine(url)
      hop.candidates = candidates
      guard let winner else {
        hops.append(hop)
        outcome = .unmatched
        break
      }
      hop.winner = winner.route
      let entry = entries[winner.route]
      hop.params = LinearScan.parameters(entry.pattern, expansion: winner.expansion, url)
      hop.renamed = entry.renamed(hop.params)
      if origin == .external && !entry.external {
        let why = Self.refusal(entry)
        hop.end = .refused(why)
        hops.append(hop)
        outcome = .refused(why)
        break
      }
      guard case .redirect(let template) = entry.target else {
        hop.end = .target(entry.target)
        hops.append(hop)
        outcome = .matched(entry, hop.renamed)
        break
      }
      let next: String
      do {
        next = try template.fill(hop.renamed)
      } catch {
        hop.end = .failed(error.description, redirect: nil)
        hops.append(hop)
        outcome = .failed(error.description)
        break
      }
      redirects.append(next)
      let nextBytes = Array(next.utf8)
      let problem: String? =
        !seen.insert(nextBytes).inserted
        ? Self.loop(next) : redirects.count > Self.maxRedirects ? Self.tooManyRedirects : nil
      if let problem {
        hop.end = .failed(problem, redirect: next)
        hops.append(hop)
        outcome = .failed(problem)
        break
      }
      hop.end = .redirect(next)
      hops.append(hop)
      current = nextBytes
    }
    return Explanation(
      url: String(decoding: bytes, as: UTF8.self), origin: origin, hops: hops,
      resolution: Resolution(outcome: outcome, redirects: redirects), entries: entries)
  }

  /// Every route's verdict for `url`, in table order, and the winner.
  private func examine(_ url: RouteURL) -> ([Explanation.Candidate], RouteRank?) {
    var candidates: [Explanation.Candidate] = []
    candidates.reserveCapacity(entries.count)
    var matched: [RouteRank] = []
    for index in entries.indices {
      let pattern = entries[index].pattern
      switch LinearScan.examine(pattern, url) {
      case .failed(let failure, let expansion, let progress):
        candidates.append(
          Explanation.Candidate(
            route: index, verdict: .failed(failure), expansion: expansion, kinds: [], rank: nil,
            progress: progress))
      case .matched(let expansion, let kinds):
        matched.append(
          LinearScan.rank(
            pattern, priority: entries[index].priority, route: index, expansion: expansion, url))
        candidates.append(
          Explanation.Candidate(
            route: index, verdict: .won, expansion: pattern.groups.isEmpty ? nil : expansion,
            kinds: kinds, rank: nil, progress: url.segments.count + 1))
      }
    }
    matched.sort()
    guard let winner = matched.first else { return (candidates, nil) }
    for (place, match) in matched.enumerated() {
      candidates[match.route].rank = place + 1
      if place > 0 {
        candidates[match.route].verdict = .lost(
          to: winner.route, rule: detailedRule(loser: match, winner: winner))
      }
    }
    return (candidates, winner)
  }

  /// The first rule that ranks `winner` before `loser`, with what each side has on it.
  private func detailedRule(loser: RouteRank, winner: RouteRank) -> Explanation.RankingRule {
    let loserEntry = entries[loser.route]
    let winnerEntry = entries[winner.route]
    switch winner.decidingRule(against: loser)?.rule ?? .order {
    case .priority: return .priority(loser: loserEntry.priority, winner: winnerEntry.priority)
    case .scheme: return .scheme(winnerEntry.pattern.scheme ?? "")
    case .domain:
      guard let loserDomain = loserEntry.pattern.domain else {
        return .domain(winnerEntry.pattern.domain ?? "")
      }
      return .closerDomain(winner: winnerEntry.pattern.domain ?? "", loser: loserDomain)
    case .fragment: return .fragment
    case .specificity:
      for (position, (kindL, kindW)) in zip(loser.kinds, winner.kinds).enumerated()
      where kindL != kindW {
        return .specificity(segment: position + 1, loser: kindL, winner: kindW)
      }
      if loser.kinds.count == winner.kinds.count, loser.endsWithRest == winner.endsWithRest {
        for (position, (kindL, kindW)) in zip(loser.fragmentKinds, winner.fragmentKinds)
          .enumerated() where kindL != kindW
        {
          return .fragmentSpecificity(segment: position + 1, loser: kindL, winner: kindW)
        }
      }
      // One list is the other plus a trailing `*` that matched nothing: the loser's.
      return .trailingRest
    case .constraints:
      return .queryConstraints(loser: loser.constraints, winner: winner.constraints)
    case .order: return .tableOrder
    }
  }
}
