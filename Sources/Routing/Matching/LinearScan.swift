/// The plain way to route, as JLRoutes and URLNavigator do: try every route, keep the best.
///
/// It decides exactly what ``Router`` decides, at a cost proportional to the number of routes.
/// It is the oracle the trie is tested against, the baseline it is measured against, and the
/// engine of `--explain`, which shows why each route matched or not.
public struct LinearScan: Sendable {
  /// The routes, in table order.
  public let routes: [Router.Route]

  /// Takes the routes as they are.
  public init(_ routes: [Router.Route]) {
    self.routes = routes
  }

  /// The index of the best route for `url`, or nil when none matches.
  public func decide(_ url: RouteURL) -> Int? {
    ranked(url).first?.route
  }

  /// The best route for `url` with its parameters, or nil.
  public func match(_ url: RouteURL) -> RouteMatch? {
    matches(url).first
  }

  /// Every route that matches `url`, best first, each with its best expansion and parameters.
  public func matches(_ url: RouteURL) -> [RouteMatch] {
    ranked(url).map { rank in
      RouteMatch(
        route: rank.route, expansion: rank.expansion,
        params: Self.parameters(routes[rank.route].pattern, expansion: rank.expansion, url))
    }
  }

  /// The rank of every route that matches, best first.
  func ranked(_ url: RouteURL) -> [RouteRank] {
    routes.indices.compactMap { index in
      guard case .matched(let expansion, _) = Self.examine(routes[index].pattern, url) else {
        return nil
      }
      return Self.rank(
        routes[index].pattern, priority: routes[index].priority, route: index,
        expansion: expansion, url)
    }.sorted()
  }

  /// The parameters an expansion of `pattern` that matches `url` captures from it.
  package static func parameters(_ pattern: RoutePattern, expansion: Int, _ url: RouteURL)
    -> Parameters
  {
    URLParts.with(url) {
      var fragment: [QueryConstraint] = []
      if case .query(let list)? = pattern.fragment { fragment = list }
      return Parameters(
        $0, steps: pattern.captureSteps(expansion: expansion)[...],
        constraints: pattern.constraints, fragment: fragment)
    }
  }

  /// The rank, for `url`, of an expansion of a route's pattern that matches it.
  package static func rank(
    _ pattern: RoutePattern, priority: Int, route: Int, expansion: Int, _ url: RouteURL
  ) -> RouteRank {
    RouteRank(
      pattern, priority: priority, route: route, expansion: expansion,
      segments: pattern.expansion(expansion),
      url: (url.segments.count, url.fragment?.segments.count ?? 0))
  }

  /// How one pattern fares against a URL.
  package enum Examined: Equatable {
    /// The first reason it does not match; `expansion` is the closest expansion tried, or nil
    /// when the pattern has no groups or every expansion fails at the same place (the scheme,
    /// the domain, or a segment before the groups); `progress` is how far it got: the URL
    /// segments matched before failing, or one more than the URL has when only the query
    /// failed, 0 when the scheme, the domain or the first segment failed.
    case failed(MatchFailure, expansion: Int?, progress: Int)
    /// It matches through its best expansion, whose segment kinds are `kinds`.
    case matched(expansion: Int, kinds: [MatchKind])
  }

  /// Scheme, domain, each expansion's path (keeping the best match, or the closest miss),
  /// then the query constraints, then the fragment.
  package static func examine(_ pattern: RoutePattern, _ url: RouteURL) -> Examined {
    if let scheme = pattern.scheme, !url.scheme.isExactly(scheme) {
      return .failed(.scheme(pattern: scheme, url: url.scheme), expansion: nil, progress: 0)
    }
    if let domain = pattern.domain, !domainMatches(url.domain, domain) {
      return .failed(.domain(pattern: domain, url: url.domain), expansion: nil, progress: 0)
    }
    let caseSensitive = pattern.caseSensitive
    var best: (expansion: Int, kinds: [MatchKind])?
    var closest: (expansion: Int, failure: MatchFailure, progress: Int)?
    for expansion in 0..<pattern.expansionCount {
      switch path(pattern.expansion(expansion), url.segments, caseSensitive: caseSensitive) {
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
    if let failure = query(pattern.constraints, url.query, caseSensitive: caseSensitive)
      ?? fragment(pattern, url)
    {
      return .failed(
        failure, expansion: groups ? best.expansion : nil, progress: url.segments.count + 1)
    }
    return .matched(expansion: best.expansion, kinds: best.kinds)
  }

  /// Why the URL's fragment does not match the pattern's fragment pattern, or nil.
  static func fragment(_ pattern: RoutePattern, _ url: RouteURL) -> MatchFailure? {
    guard let wanted = pattern.fragment else { return nil }
    guard let fragment = url.fragment else { return .fragmentMissing }
    switch wanted {
    case .segments(let list):
      if case .failure(let miss) = path(
        list, fragment.segments, caseSensitive: pattern.caseSensitive)
      {
        return .fragment(miss.failure)
      }
      return nil
    case .query(let constraints):
      return query(constraints, fragment.items, caseSensitive: pattern.caseSensitive)
        .map { .fragment($0) }
    }
  }

  /// Why an expansion's path misses, and how many pattern segments matched before.
  package struct PathMiss: Error, Equatable {
    var failure: MatchFailure
    var progress: Int
  }

  /// Why one URL segment (numbered from 1) does not match a single-segment kind.
  static func failure(_ kind: SegmentKind, segment: Int, url: String) -> MatchFailure {
    switch kind {
    case .literal(let text): return .literal(segment: segment, pattern: text, url: url)
    case .capture(let type): return .type(segment: segment, type: type, url: url)
    default: return .segment(segment: segment, expected: expected(kind), url: url)
    }
  }

  /// What a value set or a regular expression takes, in words.
  static func expected(_ kind: SegmentKind) -> String {
    switch kind {
    case .oneOf(let alternatives): return "one of " + alternatives.joined(separator: "|")
    case .regex(let regex): return "matched by the regular expression " + regex.source
    default: return "\(kind)"
    }
  }

  /// The kind of each pattern segment of an expansion that matches the URL's segments, or the
  /// first place they differ: the segments before a wildcard from the left, then those after
  /// it from the right.
  package static func path(
    _ pattern: [PatternSegment], _ segments: [String], caseSensitive: Bool = true
  ) -> Result<[MatchKind], PathMiss> {
    func miss(_ failure: MatchFailure, _ progress: Int) -> Result<[MatchKind], PathMiss> {
      .failure(PathMiss(failure: failure, progress: progress))
    }
    let wildcard = pattern.firstIndex(where: \.kind.isWildcard)
    let after = wildcard.map { pattern.count - $0 - 1 } ?? 0
    let least = pattern.count - (wildcard.map { pattern[$0].kind == .rest ? 1 : 0 } ?? 0)
    func tooFew(_ done: Int) -> Result<[MatchKind], PathMiss> {
      miss(.tooFewSegments(needs: least, atLeast: wildcard != nil, has: segments.count), done)
    }
    for (position, segment) in pattern.enumerated() {
      if segment.kind.isWildcard {
        guard segments.count >= least else { return tooFew(position) }
        break
      }
      guard position < segments.count else { return tooFew(position) }
      guard segment.kind.accepts(segments[position], caseSensitive: caseSensitive) else {
        return miss(failure(segment.kind, segment: position + 1, url: segments[position]), position)
      }
    }
    guard let wildcard else {
      guard pattern.count == segments.count else {
        return miss(.tooManySegments(takes: pattern.count, has: segments.count), pattern.count)
      }
      return .success(pattern.map { MatchKind($0.kind) })
    }
    for offset in 0..<after {
      let segment = pattern[wildcard + 1 + offset]
      let position = segments.count - after + offset
      guard segment.kind.accepts(segments[position], caseSensitive: caseSensitive) else {
        return miss(
          failure(segment.kind, segment: position + 1, url: segments[position]), wildcard + offset)
      }
    }
    return .success(pattern.map { MatchKind($0.kind) })
  }

  /// The first constraint, in written order, that the items do not meet.
  package static func query(
    _ constraints: [QueryConstraint], _ items: [RouteURL.QueryItem], caseSensitive: Bool = true
  ) -> MatchFailure? {
    for constraint in constraints {
      let values = items.compactMap { $0.key.isExactly(constraint.key) ? $0.value : nil }
      guard let kind = constraint.value.segmentKind else {
        if !values.isEmpty { return .queryPresent(key: constraint.key) }
        continue
      }
      guard values.count == 1, let value = values.first else {
        return values.isEmpty
          ? .queryMissing(key: constraint.key)
          : .queryRepeated(key: constraint.key, count: values.count)
      }
      guard !kind.accepts(value, caseSensitive: caseSensitive) else { continue }
      switch kind {
      case .literal(let literal):
        return .queryLiteral(key: constraint.key, pattern: literal, url: value)
      case .capture(let type):
        return .queryType(key: constraint.key, type: type, url: value)
      default:
        return .queryValue(key: constraint.key, expected: expected(kind), url: value)
      }
    }
    return nil
  }
}
