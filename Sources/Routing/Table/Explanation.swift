/// Why a URL resolves the way it does through a route table: every route considered, in table
/// order, with why it failed, why it matched but lost, or that it won; then what the winner
/// did (rename, redirect, refusal, target), hop by hop along redirects.
///
/// It is worked out independently of ``Router`` (route by route, as ``LinearScan`` does) with
/// the same ranking rules as the router (ROUTING.md section 4), and it always names the route
/// ``Router/match(_:)`` picks; ``resolution`` is what ``RouteTable/resolve(_:from:)`` gives.
public struct Explanation: Sendable {
  /// The URL as given (bytes that are not UTF-8 written as U+FFFD).
  public var url: String
  /// Where the URL came from; an internal-only winner refuses a URL from outside.
  public var origin: Origin
  /// The URL itself, then each URL a redirect produced, in order; never empty.
  public var hops: [Hop]
  /// How resolving ended: the same answer as ``RouteTable/resolve(bytes:from:)``.
  public var resolution: Resolution
  /// The table's entries, which the route indices of ``hops`` refer to.
  public var entries: [RouteEntry]

  /// One URL looked up in the table: how it was read, every route's verdict, and what the
  /// winner did.
  public struct Hop: Sendable {
    /// The URL looked up (the original one, or a filled redirect template).
    public var url: String
    /// The URL as the router reads it (ROUTING.md section 3), or nil when it cannot be read.
    public var read: RouteURL?
    /// Every route of the table, in table order, with its verdict; empty when the URL could
    /// not be read.
    public var candidates: [Candidate]
    /// The index of the winning route, or nil when none matched.
    public var winner: Int?
    /// The winner's parameters before `rename` (ROUTING.md section 5); empty without a winner.
    public var params: Parameters
    /// The winner's parameters after `rename`; equal to ``params`` when it renames nothing.
    public var renamed: Parameters
    /// What happened at this hop.
    public var end: End

    /// The candidates that matched, best first (the winner, then the losers by rank).
    public var ranked: [Candidate] {
      candidates.filter { $0.rank != nil }.sorted { $0.rank! < $1.rank! }
    }

    /// When no route matched, the near misses: the failed routes that got furthest (highest
    /// ``Candidate/progress``, at least 1), in table order.
    public var nearest: [Candidate] {
      guard winner == nil else { return [] }
      let best = candidates.map(\.progress).max() ?? 0
      return best == 0 ? [] : candidates.filter { $0.progress == best }
    }
  }

  /// How one hop ended.
  public enum End: Sendable, Equatable {
    /// The URL could not be read; says why (e.g. `invalid percent escape in path segment 2`).
    case invalid(String)
    /// No route matched.
    case unmatched
    /// The winner has `"external": false` and the URL came from outside; says why. The
    /// next-ranked route is not tried.
    case refused(String)
    /// The winner's target, which is final: a screen, an action or a notification.
    case target(RouteTarget)
    /// The winner is a redirect; its filled template is the next hop's URL.
    case redirect(String)
    /// The winner is a redirect that cannot be followed: a placeholder without a value, a
    /// loop, or too many redirects in a row. `redirect` is the filled URL when there is one.
    case failed(String, redirect: String?)
  }

  /// One route's verdict for one URL.
  public struct Candidate: Sendable, Equatable {
    /// The route's index in the table.
    public var route: Int
    /// Failed, matched but lost, or won.
    public var verdict: Verdict
    /// For a route with optional groups, the expansion the verdict is about (see
    /// ``RoutePattern/expansions``): the one that matched best, or for a failure in the path
    /// the closest one (most segments matched, the first of those in written order); nil for
    /// a route without groups, or one that fails the same way in every expansion (on the
    /// scheme, the domain or a segment before the groups).
    public var expansion: Int?
    /// For a route that matched, the kind of pattern segment that matched each URL segment
    /// (ROUTING.md section 4, rule 4); a trailing `*` that matched nothing adds a last `*`.
    public var kinds: [MatchKind]
    /// For a route that matched, its place in the ranking: 1 for the winner.
    public var rank: Int?
    /// For a route that failed, how far it got: the URL segments it matched before failing,
    /// or one more than the URL has when only the query failed; 0 when the scheme, the domain
    /// or the first segment failed.
    public var progress: Int
  }

  /// A route's verdict.
  public enum Verdict: Sendable, Equatable {
    /// The route does not match the URL; the first reason, from the left.
    case failed(Failure)
    /// The route matches but another one ranks first: the winner, and the first rule of
    /// ROUTING.md section 4 that puts the winner before this route.
    case lost(to: Int, rule: RankingRule)
    /// The route wins.
    case won
  }

  /// Why a route does not match a URL. Checked in this order: scheme, domain, the path
  /// segments from the left, then query constraints in written order. Segments are numbered
  /// from 1 as the URL's segments (a host that is not a domain is segment 1).
  public enum Failure: Sendable, Equatable {
    /// The pattern names the scheme `pattern`; the URL's is `url` (nil: the URL has none).
    case scheme(pattern: String, url: String?)
    /// The pattern requires the domain `pattern`; the URL's is `url` (nil: it has none).
    case domain(pattern: String, url: String?)
    /// Segment `segment` of the URL is `url`, not the pattern's literal `pattern`.
    case literal(segment: Int, pattern: String, url: String)
    /// Segment `segment` of the URL is `url`, which is not a value of `type`.
    case type(segment: Int, type: CaptureType, url: String)
    /// The URL has `has` segments; the pattern needs `needs` (or at least `needs`, when it
    /// ends with `<path:>` or `*`).
    case tooFewSegments(needs: Int, atLeast: Bool, has: Int)
    /// The URL has `has` segments; the pattern takes exactly `takes`.
    case tooManySegments(takes: Int, has: Int)
    /// The constrained query key `key` is not in the URL.
    case queryMissing(key: String)
    /// The constrained query key `key` appears `count` times; it must appear once.
    case queryRepeated(key: String, count: Int)
    /// The query key `key` has the value `url`, not the pattern's literal `pattern`.
    case queryLiteral(key: String, pattern: String, url: String)
    /// The query key `key` has the value `url`, which is not a value of `type`.
    case queryType(key: String, type: CaptureType, url: String)
  }

  /// The rule of ROUTING.md section 4 that ranks the winner before a route that also matched,
  /// as the router applies them, in order.
  public enum RankingRule: Sendable, Equatable {
    /// Rule 1: higher `priority` (the loser's, the winner's).
    case priority(loser: Int, winner: Int)
    /// Rule 2: the winner names the URL's scheme; the loser is global.
    case scheme(String)
    /// Rule 3: the winner names the URL's domain; the loser names none.
    case domain(String)
    /// Rule 4: at URL segment `segment`, the winner's kind of segment is more specific.
    case specificity(segment: Int, loser: MatchKind, winner: MatchKind)
    /// Rule 4: the routes agree on every URL segment, and the loser also ends with a `*`
    /// that matches nothing (`/a` beats `/a/*` for `/a`).
    case trailingRest
    /// Rule 5: more query constraints (the loser's count, the winner's).
    case queryConstraints(loser: Int, winner: Int)
    /// Rule 6: the winner is listed first.
    case tableOrder

    /// The rule's number in ROUTING.md section 4.
    public var number: Int {
      switch self {
      case .priority: return 1
      case .scheme: return 2
      case .domain: return 3
      case .specificity, .trailingRest: return 4
      case .queryConstraints: return 5
      case .tableOrder: return 6
      }
    }
  }

  /// The kind of pattern segment that matched a URL segment, most specific first
  /// (ROUTING.md section 4, rule 4: literal > int > float > uuid > string > path > `*`).
  public enum MatchKind: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// A literal segment.
    case literal
    /// `<int:name>`.
    case int
    /// `<float:name>`.
    case float
    /// `<uuid:name>`.
    case uuid
    /// `:name`, `<name>` or `<string:name>`.
    case string
    /// `<path:name>`.
    case path
    /// `*`.
    case rest

    /// More specific first.
    public static func < (lhs: MatchKind, rhs: MatchKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `literal`, `int`, `float`, `uuid`, `string`, `path` or `*`.
    public var description: String {
      switch self {
      case .literal: return "literal"
      case .int: return "int"
      case .float: return "float"
      case .uuid: return "uuid"
      case .string: return "string"
      case .path: return "path"
      case .rest: return "*"
      }
    }
  }
}

// MARK: - Working it out

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

  /// Whether `a` ranks before `b`: rules 1 to 6 of ROUTING.md section 4, exactly as
  /// `RouterIndex.isRankedBefore` applies them.
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
