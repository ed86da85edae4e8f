/// The plain way to route, as JLRoutes and URLNavigator do: try every route, keep the best.
///
/// It decides exactly what ``Router`` decides (ROUTING.md section 4), at a cost proportional to
/// the number of routes; it exists so the trie can be measured against it and so a reader can
/// see every candidate a URL is checked against.
public struct LinearScan: Sendable {
  /// The routes, in table order.
  public let routes: [Router.Route]
  private let expansions: [[[PatternSegment]]]

  /// Prepares the routes (their optional groups expanded once).
  public init(_ routes: [Router.Route]) {
    self.routes = routes
    expansions = routes.map(\.pattern.expansions)
  }

  /// The index of the best route for `url`, or nil when none matches.
  public func decide(_ url: RouteURL) -> Int? {
    best(url)?.route
  }

  /// The best route for `url` with its parameters (ROUTING.md section 5), or nil.
  public func match(_ url: RouteURL) -> RouteMatch? {
    guard let (route, expansion, _) = best(url) else { return nil }
    let params = Self.parameters(
      routes[route].pattern, expansion: expansions[route][expansion], url: url)
    return RouteMatch(route: route, expansion: expansion, params: params)
  }

  /// The parameters of `url` matched by `pattern` through one of its expansions (ROUTING.md
  /// section 5): query items, then query-constraint captures, then path captures.
  static func parameters(
    _ pattern: RoutePattern, expansion segments: [PatternSegment], url: RouteURL
  ) -> Parameters {
    var params: Parameters = [:]
    var order: [String] = []
    var values: [String: [String]] = [:]
    for item in url.query {
      if values[item.key] == nil { order.append(item.key) }
      values[item.key, default: []].append(item.value)
    }
    for key in order {
      let all = values[key]!
      params[key] = all.count == 1 ? .string(all[0]) : .strings(all)
    }
    for constraint in pattern.constraints {
      if case .capture(let type, let name) = constraint.value,
        let text = url.queryValues(constraint.key).first, let value = type.value(of: text)
      {
        params[name] = value
      }
    }
    var position = 0
    for segment in segments {
      switch segment.kind {
      case .literal:
        position += 1
      case .capture(let type):
        if let name = segment.name, let value = type.value(of: url.segments[position]) {
          params[name] = value
        }
        position += 1
      case .path:
        params[segment.name ?? "path"] = .string(
          url.segments[position...].joined(separator: "/"))
        position = url.segments.count
      case .rest:
        params["*"] = .strings(Array(url.segments[position...]))
        position = url.segments.count
      }
    }
    return params
  }

  private func best(_ url: RouteURL) -> (route: Int, expansion: Int, kinds: [UInt8])? {
    var best: (route: Int, expansion: Int, kinds: [UInt8])?
    for (index, route) in routes.enumerated() {
      let pattern = route.pattern
      if let scheme = pattern.scheme, !url.scheme.isExactly(scheme) { continue }
      if let domain = pattern.domain, !url.domain.isExactly(domain) { continue }
      guard pattern.constraints.allSatisfy({ $0.accepts(url) }) else { continue }
      for (expansion, segments) in expansions[index].enumerated() {
        guard let kinds = Self.kinds(of: segments, matching: url.segments) else { continue }
        if let current = best {
          if isBetter((index, expansion, kinds), than: current) {
            best = (index, expansion, kinds)
          }
        } else {
          best = (index, expansion, kinds)
        }
      }
    }
    return best
  }

  /// Rule 1 to 6 of ROUTING.md section 4, with rule 4 as a comparison of kind lists.
  private func isBetter(
    _ a: (route: Int, expansion: Int, kinds: [UInt8]),
    than b: (route: Int, expansion: Int, kinds: [UInt8])
  ) -> Bool {
    let routeA = routes[a.route]
    let routeB = routes[b.route]
    if routeA.priority != routeB.priority { return routeA.priority > routeB.priority }
    let schemeA = routeA.pattern.scheme != nil
    if schemeA != (routeB.pattern.scheme != nil) { return schemeA }
    let domainA = routeA.pattern.domain != nil
    if domainA != (routeB.pattern.domain != nil) { return domainA }
    if a.kinds != b.kinds { return a.kinds.lexicographicallyPrecedes(b.kinds) }
    let queryA = routeA.pattern.constraints.count
    let queryB = routeB.pattern.constraints.count
    if queryA != queryB { return queryA > queryB }
    if a.route != b.route { return a.route < b.route }
    return a.expansion < b.expansion
  }

  /// The kind of each segment that matched (0 literal, 1 int, 2 float, 3 uuid, 4 string,
  /// 5 path, 6 `*`), or nil when the segments do not match.
  static func kinds(of pattern: [PatternSegment], matching segments: [String]) -> [UInt8]? {
    var kinds: [UInt8] = []
    kinds.reserveCapacity(pattern.count)
    var position = 0
    for segment in pattern {
      switch segment.kind {
      case .literal(let text):
        guard position < segments.count, segments[position].isExactly(text) else { return nil }
        kinds.append(0)
        position += 1
      case .capture(let type):
        guard position < segments.count, type.value(of: segments[position]) != nil else {
          return nil
        }
        switch type {
        case .int: kinds.append(1)
        case .float: kinds.append(2)
        case .uuid: kinds.append(3)
        case .string, .path: kinds.append(4)
        }
        position += 1
      case .path:
        guard position < segments.count else { return nil }
        kinds.append(5)
        return kinds
      case .rest:
        kinds.append(6)
        return kinds
      }
    }
    return position == segments.count ? kinds : nil
  }
}
