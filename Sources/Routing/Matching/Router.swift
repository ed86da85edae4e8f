/// A compiled, immutable set of route patterns that finds and ranks the routes matching a URL
/// (ROUTING.md sections 3 to 5).
///
/// Patterns are compiled once into one segment trie per scheme plus one for global patterns,
/// so the cost of a lookup depends on the URL and the routes it could match, not on how many
/// routes there are.
public struct Router: Sendable {
  /// One route: a pattern and its priority. Its index in ``routes`` identifies it in matches.
  public struct Route: Sendable, Equatable {
    /// The compiled pattern.
    public var pattern: RoutePattern
    /// Higher wins (ROUTING.md section 4, rule 1).
    public var priority: Int

    /// Makes a route.
    public init(pattern: RoutePattern, priority: Int = 0) {
      self.pattern = pattern
      self.priority = priority
    }
  }

  /// The routes, in the order they were listed.
  public let routes: [Route]
  private let index: RouterIndex

  /// Compiles routes; two routes (or two expansions of one) that no URL can tell apart are a
  /// ``RouteConflict``.
  public init(_ routes: [Route]) throws(RouteConflict) {
    self.routes = routes
    index = try RouterIndex(routes: routes)
  }

  /// The best route for `url`, with its parameters, or nil when none matches.
  public func match(_ url: RouteURL) -> RouteMatch? {
    url.withView { view in
      let best = decide(view)
      return best.route < 0 ? nil : makeMatch(best, view)
    }
  }

  /// Every route that matches `url`, best first, each once (with its best expansion) and with
  /// its parameters.
  public func matches(_ url: RouteURL) -> [RouteMatch] {
    url.withView { view in
      var sink = RouterIndex.Sink(all: [])
      index.walkAll(view, &sink)
      var seen: Set<Int32> = []
      return sink.all!.sorted(by: index.isRankedBefore).filter { seen.insert($0.route).inserted }
        .map { makeMatch($0, view) }
    }
  }

  /// The index of the best route for the URL in `bytes`, or nil when none matches or the URL
  /// cannot be read. Reads the bytes in place: no allocation for ordinary ASCII URLs.
  public func decide(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    if let route = index.decide(bytes) {
      return route < 0 ? nil : Int(route)
    }
    guard let url = try? RouteURL(bytes: Array(bytes)) else { return nil }
    return url.withView { view in
      let route = decide(view).route
      return route < 0 ? nil : Int(route)
    }
  }

  /// The best route for the URL in `bytes`, with its parameters, or nil when none matches or
  /// the URL cannot be read.
  public func match(bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch? {
    switch fastMatch(bytes) {
    case .some(let result): return result
    case .none: return (try? RouteURL(bytes: Array(bytes))).flatMap(match)
    }
  }

  /// The best match read in place: `.some(nil)` when no route matches, nil when the URL needs
  /// the full reader (``RouteURL``) to decide.
  func fastMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch?? {
    URLScanner.scan(bytes) { view -> RouteMatch? in
      let best = decide(view)
      return best.route < 0 ? nil : makeMatch(best, view)
    }
  }

  /// The best candidate for a view (route -1 when none).
  private func decide(_ view: URLView) -> RouterIndex.Candidate {
    var sink = RouterIndex.Sink()
    index.walkAll(view, &sink)
    return sink.best
  }

  private typealias Candidate = RouterIndex.Candidate

  // MARK: - Parameters

  private func makeMatch(_ candidate: Candidate, _ view: URLView) -> RouteMatch {
    let route = Int(candidate.route)
    let pattern = routes[route].pattern
    let query = view.query
    // Room for every query item and capture at once, so the dictionary is not regrown.
    let expected = query.count + pattern.segments.count + pattern.constraints.count
    var params = expected == 0 ? Parameters() : Parameters(minimumCapacity: expected)
    if query.contains(where: { $0.key.bytes.contains { $0 >= 0x80 } }) {
      // Keys are Swift strings: canonically equivalent keys are one key, their values merged.
      var order: [String] = []
      var values: [String: [String]] = [:]
      for item in query {
        let key = item.key.string
        if values[key] == nil { order.append(key) }
        values[key, default: []].append(item.value.string)
      }
      for key in order {
        let all = values[key]!
        params[key] = all.count == 1 ? .string(all[0]) : .strings(all)
      }
    } else {
      addASCIIQuery(query, to: &params)
    }
    addCaptures(candidate, pattern, view, to: &params)
    return RouteMatch(route: route, expansion: Int(candidate.expansion), params: params)
  }

  /// Query items with ASCII keys as parameters: byte equality is key equality.
  private func addASCIIQuery(_ query: UnsafeBufferPointer<QueryPiece>, to params: inout Parameters)
  {
    for (position, item) in query.enumerated() {
      // Each key once, at its first appearance; a repeated key gives all its values.
      if query[..<position].contains(where: { $0.key.equals(item.key) }) { continue }
      var values: [String] = []
      for later in query[(position + 1)...] where later.key.equals(item.key) {
        if values.isEmpty { values.append(item.value.string) }
        values.append(later.value.string)
      }
      params[item.key.string] = values.isEmpty ? .string(item.value.string) : .strings(values)
    }
  }

  /// Query-constraint captures, then path captures (which win over query items).
  private func addCaptures(
    _ candidate: Candidate, _ pattern: RoutePattern, _ view: URLView, to params: inout Parameters
  ) {
    let query = view.query
    for constraint in pattern.constraints {
      guard case .capture(let type, let name) = constraint.value else { continue }
      let key = Array(constraint.key.utf8)
      let found = key.withUnsafeBufferPointer { key in
        query.first { item in
          item.key.count == key.count
            && (key.isEmpty || memoryEqual(item.key.start!, key.baseAddress!, key.count))
        }
      }
      if let found, let value = type.value(of: found.value.string) { params[name] = value }
    }
    let segments = view.segments
    var position = 0
    for segment in pattern.expansion(Int(candidate.expansion)) {
      switch segment.kind {
      case .literal:
        position += 1
      case .capture(let type):
        if let name = segment.name, let value = type.value(of: segments[position].string) {
          params[name] = value
        }
        position += 1
      case .path:
        params[segment.name ?? "path"] = .string(
          segments[position...].map(\.string).joined(separator: "/"))
        position = segments.count
      case .rest:
        params["*"] = .strings(segments[position...].map(\.string))
        position = segments.count
      }
    }
  }
}

/// One route that matched a URL, with the URL's parameters (before any `rename`).
public struct RouteMatch: Sendable, Equatable {
  /// The index of the route in ``Router/routes``.
  public var route: Int
  /// Which expansion of the route's optional groups matched (see ``RoutePattern/expansions``).
  public var expansion: Int
  /// Query parameters, then query-constraint captures, then path captures (ROUTING.md 5).
  public var params: Parameters

  /// Makes a match.
  public init(route: Int, expansion: Int, params: Parameters) {
    self.route = route
    self.expansion = expansion
    self.params = params
  }
}

/// Two routes that can never be told apart; `route == other` when two expansions of one
/// route's optional groups are the same.
public struct RouteConflict: Error, Sendable, Equatable {
  /// The later route.
  public var route: Int
  /// The earlier route it cannot be told apart from (or itself).
  public var other: Int
}

extension QueryConstraint {
  /// Whether the URL has this key exactly once, with a fitting value.
  func accepts(_ url: RouteURL) -> Bool {
    var found: String?
    for item in url.query where item.key.isExactly(key) {
      if found != nil { return false }
      found = item.value
    }
    guard let found else { return false }
    switch value {
    case .literal(let literal): return found.isExactly(literal)
    case .capture(let type, _): return type.value(of: found) != nil
    }
  }
}
