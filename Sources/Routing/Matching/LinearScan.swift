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
        params: URLParts.with(url) {
          let pattern = routes[rank.route].pattern
          return Parameters(
            $0, steps: pattern.captureSteps(expansion: rank.expansion)[...],
            constraints: pattern.constraints)
        })
    }
  }

  /// The rank of every route that matches, best first.
  func ranked(_ url: RouteURL) -> [RouteRank] {
    routes.indices.compactMap { index in
      guard case .matched(let expansion, _) = Self.examine(routes[index].pattern, url) else {
        return nil
      }
      return RouteRank(
        routes[index].pattern, priority: routes[index].priority, route: index,
        expansion: expansion)
    }.sorted()
  }

  /// How one pattern fares against a URL.
  enum Examined: Equatable {
    /// The first reason it does not match; `expansion` is the closest expansion tried, or nil
    /// when the pattern has no groups or every expansion fails at the same place (the scheme,
    /// the domain, or a segment before the groups); `progress` as in
    /// ``Explanation/Candidate/progress``.
    case failed(Explanation.Failure, expansion: Int?, progress: Int)
    /// It matches through its best expansion, whose segment kinds are `kinds`.
    case matched(expansion: Int, kinds: [MatchKind])
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
    var best: (expansion: Int, kinds: [MatchKind])?
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
  package struct PathMiss: Error, Equatable {
    var failure: Explanation.Failure
    var progress: Int
  }

  /// The kind of each pattern segment of an expansion that matches the URL's segments, or the
  /// first place they differ, from the left.
  package static func path(_ pattern: [PatternSegment], _ segments: [String])
    -> Result<[MatchKind], PathMiss>
  {
    func miss(_ failure: Explanation.Failure, _ progress: Int) -> Result<[MatchKind], PathMiss> {
      .failure(PathMiss(failure: failure, progress: progress))
    }
    func tooFew(_ done: Int) -> Result<[MatchKind], PathMiss> {
      let last = pattern.last?.kind
      let needs = pattern.count - (last == .rest ? 1 : 0)
      let open = last == .path || last == .rest
      return miss(.tooFewSegments(needs: needs, atLeast: open, has: segments.count), done)
    }
    for (position, segment) in pattern.enumerated() {
      switch segment.kind {
      case .literal(let text):
        guard position < segments.count else { return tooFew(position) }
        guard segments[position].isExactly(text) else {
          return miss(
            .literal(segment: position + 1, pattern: text, url: segments[position]), position)
        }
      case .capture(let type):
        guard position < segments.count else { return tooFew(position) }
        guard type.accepts(segments[position]) else {
          return miss(.type(segment: position + 1, type: type, url: segments[position]), position)
        }
      case .path:
        guard position < segments.count else { return tooFew(position) }
        return .success(pattern.map { MatchKind($0.kind) })
      case .rest:
        return .success(pattern.map { MatchKind($0.kind) })
      }
    }
    guard pattern.count == segments.count else {
      return miss(.tooManySegments(takes: pattern.count, has: segments.count), pattern.count)
    }
    return .success(pattern.map { MatchKind($0.kind) })
  }

  /// The first query constraint, in written order, that the URL does not meet.
  package static func query(_ constraints: [QueryConstraint], _ url: RouteURL)
    -> Explanation.Failure?
  {
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
        if !type.accepts(value) {
          return .queryType(key: constraint.key, type: type, url: value)
        }
      }
    }
    return nil
  }
}
