// Working out an ``Explanation``: every route checked against the URL, independently of the
// router's trie, and the ranking rule that decides between matching routes.

extension RouteTable {
  /// Explains how `url` resolves (see ``Explanation``).
  public func explain(_ url: String, from origin: Origin = .app) -> Explanation {
    explain(bytes: Array(url.utf8), from: origin)
  }

  /// Explains how the URL in `bytes` (which may not be UTF-8) resolves, following redirects
  /// exactly as ``resolve(bytes:from:)`` does.
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
        url = try RouteURL(bytes: current)
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
      let expansion = entry.pattern.expansion(winner.expansion)
      hop.params = LinearScan.parameters(entry.pattern, expansion: expansion, url: url)
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

  /// A route that matched: which expansion, the kinds of its segments.
  private struct Matched {
    var route: Int
    var expansion: Int
    var kinds: [Explanation.MatchKind]
  }

  /// Every route's verdict for `url`, in table order, and the winner.
  private func examine(_ url: RouteURL) -> ([Explanation.Candidate], Matched?) {
    var candidates: [Explanation.Candidate] = []
    candidates.reserveCapacity(entries.count)
    var matched: [Matched] = []
    for index in entries.indices {
      let pattern = entries[index].pattern
      switch Self.examine(pattern, url) {
      case .failed(let failure, let expansion, let progress):
        candidates.append(
          Explanation.Candidate(
            route: index, verdict: .failed(failure), expansion: expansion, kinds: [], rank: nil,
            progress: progress))
      case .matched(let expansion, let kinds):
        matched.append(Matched(route: index, expansion: expansion, kinds: kinds))
        candidates.append(
          Explanation.Candidate(
            route: index, verdict: .won, expansion: pattern.groups.isEmpty ? nil : expansion,
            kinds: kinds, rank: nil, progress: url.segments.count + 1))
      }
    }
    matched.sort(by: isRanked)
    guard let winner = matched.first else { return (candidates, nil) }
    for (place, match) in matched.enumerated() {
      candidates[match.route].rank = place + 1
      if place > 0 {
        candidates[match.route].verdict = .lost(
          to: winner.route, rule: decidingRule(loser: match, winner: winner))
      }
    }
    return (candidates, winner)
  }

  /// Whether `a` ranks before `b`: the six ranking rules in order, exactly as the router
  /// applies them.
  private func isRanked(_ a: Matched, before b: Matched) -> Bool {
    let patternA = entries[a.route].pattern
    let patternB = entries[b.route].pattern
    let priorityA = entries[a.route].priority
    let priorityB = entries[b.route].priority
    if priorityA != priorityB { return priorityA > priorityB }
    if (patternA.scheme != nil) != (patternB.scheme != nil) { return patternA.scheme != nil }
    if (patternA.domain != nil) != (patternB.domain != nil) { return patternA.domain != nil }
    if a.kinds != b.kinds { return a.kinds.lexicographicallyPrecedes(b.kinds) }
    let queryA = patternA.constraints.count
    let queryB = patternB.constraints.count
    if queryA != queryB { return queryA > queryB }
    if a.route != b.route { return a.route < b.route }
    return a.expansion < b.expansion
  }

  /// The first rule that ranks `winner` before `loser`.
  private func decidingRule(loser: Matched, winner: Matched) -> Explanation.RankingRule {
    let loserEntry = entries[loser.route]
    let winnerEntry = entries[winner.route]
    if loserEntry.priority != winnerEntry.priority {
      return .priority(loser: loserEntry.priority, winner: winnerEntry.priority)
    }
    if (loserEntry.pattern.scheme != nil) != (winnerEntry.pattern.scheme != nil) {
      return .scheme(winnerEntry.pattern.scheme ?? "")
    }
    if (loserEntry.pattern.domain != nil) != (winnerEntry.pattern.domain != nil) {
      return .domain(winnerEntry.pattern.domain ?? "")
    }
    if loser.kinds != winner.kinds {
      for (position, (kindL, kindW)) in zip(loser.kinds, winner.kinds).enumerated()
      where kindL != kindW {
        return .specificity(segment: position + 1, loser: kindL, winner: kindW)
      }
      // One list is the other plus a trailing `*` that matched nothing: the loser's.
      return .trailingRest
    }
    let queryL = loserEntry.pattern.constraints.count
    let queryW = winnerEntry.pattern.constraints.count
    if queryL != queryW { return .queryConstraints(loser: queryL, winner: queryW) }
    return .tableOrder
  }

  /// How one pattern fares against a URL.
  enum Examined: Equatable {
    /// The first reason it does not match; `expansion` is the closest expansion tried, or nil
    /// when the pattern has no groups or every expansion fails at the same place (the scheme,
    /// the domain, or a segment before the groups); `progress` as in
    /// ``Explanation/Candidate/progress``.
    case failed(Explanation.Failure, expansion: Int?, progress: Int)
    /// It matches through its best expansion, whose segment kinds are `kinds`.
    case matched(expansion: Int, kinds: [Explanation.MatchKind])
  }

  /// Scheme, domain, each expansion's path (keeping the best match, or the closest miss),
  /// then the query constraints.
  static func examine(_ pattern: RoutePattern, _ url: RouteURL) -> Examined {
    if let scheme = pattern.scheme, !url.scheme.isExactly(scheme) {
      return .failed(.scheme(pattern: scheme, url: url.scheme), expansion: nil, progress: 0)
    }
    if let domain = pattern.domain, !url.domain.isExactly(domain) {
      return .failed(.domain(pattern: domain, url: url.domain), expansion: nil, progress: 0)
    }
    var best: (expansion: Int, kinds: [Explanation.MatchKind])?
    var closest: (expansion: Int, failure: Explanation.Failure, progress: Int)?
    for expansion in 0..<pattern.expansionCount {
      switch path(pattern.expansion(expansion), url.segments) {
      case .success(let kinds):
        if best == nil || kinds.lexicographicallyPrecedes(best!.kinds) {
          best = (expansion, kinds)
        }
      case .failure(let miss):
        if closest == nil || miss.progress > closest!.progress {
          closest = (expansion, miss.failure, miss.progress)
        }
      }
    }
    let groups = !pattern.groups.isEmpty
    guard let best else {
      let closest = closest!
      let inGroups = groups && closest.progress >= pattern.segments.count
      return .failed(
        closest.failure, expansion: inGroups ? closest.expansion : nil,
        progress: min(closest.progress, url.segments.count))
    }
    if let failure = query(pattern.constraints, url) {
      return .failed(
        failure, expansion: groups ? best.expansion : nil, progress: url.segments.count + 1)
    }
    return .matched(expansion: best.expansion, kinds: best.kinds)
  }

  /// Why an expansion's path misses, and how many pattern segments matched before.
  struct PathMiss: Error, Equatable {
    var failure: Explanation.Failure
    var progress: Int
  }

  /// The kind of each matched segment (as `LinearScan.kinds(of:matching:)` decides), or the
  /// first place the segments differ, from the left.
  static func path(_ pattern: [PatternSegment], _ segments: [String])
    -> Result<[Explanation.MatchKind], PathMiss>
  {
    var kinds: [Explanation.MatchKind] = []
    kinds.reserveCapacity(pattern.count)
    func tooFew(_ done: Int) -> Result<[Explanation.MatchKind], PathMiss> {
      let last = pattern.last?.kind
      let open = last == .path || last == .rest
      let needs = pattern.count - (last == .rest ? 1 : 0)
      return .failure(
        PathMiss(
          failure: .tooFewSegments(needs: needs, atLeast: open, has: segments.count),
          progress: done))
    }
    for (position, segment) in pattern.enumerated() {
      switch segment.kind {
      case .literal(let text):
        guard position < segments.count else { return tooFew(position) }
        guard segments[position].isExactly(text) else {
          return .failure(
            PathMiss(
              failure: .literal(segment: position + 1, pattern: text, url: segments[position]),
              progress: position))
        }
        kinds.append(.literal)
      case .capture(let type):
        guard position < segments.count else { return tooFew(position) }
        guard type.value(of: segments[position]) != nil else {
          return .failure(
            PathMiss(
              failure: .type(segment: position + 1, type: type, url: segments[position]),
              progress: position))
        }
        switch type {
        case .int: kinds.append(.int)
        case .float: kinds.append(.float)
        case .uuid: kinds.append(.uuid)
        case .string, .path: kinds.append(.string)
        }
      case .path:
        guard position < segments.count else { return tooFew(position) }
        kinds.append(.path)
        return .success(kinds)
      case .rest:
        kinds.append(.rest)
        return .success(kinds)
      }
    }
    guard pattern.count == segments.count else {
      return .failure(
        PathMiss(
          failure: .tooManySegments(takes: pattern.count, has: segments.count),
          progress: pattern.count))
    }
    return .success(kinds)
  }

  /// The first query constraint, in written order, that the URL does not meet.
  static func query(_ constraints: [QueryConstraint], _ url: RouteURL) -> Explanation.Failure? {
    for constraint in constraints {
      let values = url.queryValues(constraint.key)
      guard values.count == 1, let value = values.first else {
        return values.isEmpty
          ? .queryMissing(key: constraint.key)
          : .queryRepeated(key: constraint.key, count: values.count)
      }
      switch constraint.value {
      case .literal(let literal):
        if !value.isExactly(literal) {
          return .queryLiteral(key: constraint.key, pattern: literal, url: value)
        }
      case .capture(let type, _):
        if type.value(of: value) == nil {
          return .queryType(key: constraint.key, type: type, url: value)
        }
      }
    }
    return nil
  }
}
