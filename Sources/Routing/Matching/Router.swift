/// A compiled, immutable set of route patterns that finds the best route for a URL.
///
/// Patterns are compiled once into a trie per scheme plus one for global patterns, so the cost
/// of a lookup depends on the URL and the routes it could match, not on how many routes there
/// are. ``LinearScan`` decides the same by trying every route.
public struct Router: Sendable {
  /// One route: a pattern and its priority. Its index in ``routes`` identifies it in matches.
  public struct Route: Sendable, Equatable {
    /// The compiled pattern.
    public var pattern: RoutePattern
    /// Higher wins (rule 1 of the ranking).
    public var priority: Int

    /// Makes a route.
    public init(pattern: RoutePattern, priority: Int = 0) {
      self.pattern = pattern
      self.priority = priority
    }
  }

  /// The routes, in the order they were listed.
  public let routes: [Route]
  private let trie: Trie

  /// Compiles routes; two routes (or two expansions of one) that no URL can tell apart are a
  /// ``RouteConflict``.
  public init(_ routes: [Route]) throws(RouteConflict) {
    self.routes = routes
    trie = try Trie(routes) { conflict throws(RouteConflict) in throw conflict }
  }

  /// Compiles routes without refusing conflicts, for inspecting a table (`appshell routes
  /// --lint`): every pair of routes that no URL can tell apart is returned in `conflicts`
  /// (later route first, in the order found, each pair once; a route paired with itself when
  /// two of its expansions are the same), and both are kept, so a URL they both match goes to
  /// the route listed first.
  public init(_ routes: [Route], conflicts: inout [RouteConflict]) {
    self.routes = routes
    var found: [RouteConflict] = []
    do {
      trie = try Trie(routes) { conflict throws(RouteConflict) in
        if !found.contains(conflict) { found.append(conflict) }
      }
    } catch {
      preconditionFailure("a router that collects conflicts threw \(error)")
    }
    conflicts += found
  }

  /// The index of the best route for `url`, or nil when none matches.
  public func decide(_ url: RouteURL) -> Int? {
    URLParts.with(url) { decide($0) }
  }

  /// The best route for `url`, with its parameters, or nil when none matches.
  public func match(_ url: RouteURL) -> RouteMatch? {
    URLParts.with(url) { match($0) }
  }

  /// Every route that matches `url`, best first, each once (with its best expansion) and with
  /// its parameters.
  public func matches(_ url: RouteURL) -> [RouteMatch] {
    URLParts.with(url) { parts in
      var seen: Set<Int32> = []
      return trie.all(parts).filter { seen.insert($0.route).inserted }.map { makeMatch($0, parts) }
    }
  }

  /// The index of the best route for the URL in `bytes`, or nil when none matches or the URL
  /// cannot be read.
  public func decide(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    (try? URLParts.read(bytes) { decide($0) }) ?? nil
  }

  /// The best route for the URL in `bytes`, with its parameters, or nil when none matches or
  /// the URL cannot be read.
  public func match(bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch? {
    (try? URLParts.read(bytes) { match($0) }) ?? nil
  }

  /// The best route for the URL in `bytes` with its parameters, or nil when none matches;
  /// a URL that cannot be read throws why.
  func match(reading bytes: UnsafeBufferPointer<UInt8>) throws(URLReadError) -> RouteMatch? {
    try URLParts.read(bytes) { match($0) }
  }

  func decide(_ url: URLParts) -> Int? {
    trie.best(url).map { Int($0.route) }
  }

  func match(_ url: URLParts) -> RouteMatch? {
    // Not `.map(makeMatch)`: a partially applied method copies the router.
    guard let best = trie.best(url) else { return nil }
    return makeMatch(best, url)
  }

  private func makeMatch(_ terminal: Trie.Terminal, _ url: URLParts) -> RouteMatch {
    RouteMatch(
      route: Int(terminal.route), expansion: Int(terminal.expansion),
      params: Parameters(
        url, steps: trie.steps(of: terminal), constraints: trie.constraints(of: terminal)))
  }
}

/// One route that matched a URL, with the URL's parameters (before any `rename`).
public struct RouteMatch: Sendable, Equatable {
  /// The index of the route in ``Router/routes``.
  public var route: Int
  /// Which expansion of the route's optional groups matched (see ``RoutePattern/expansions``).
  public var expansion: Int
  /// Query parameters, then query-constraint captures, then path captures.
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
public struct RouteConflict: Error, Sendable, Hashable {
  /// The later route.
  public var route: Int
  /// The earlier route it cannot be told apart from (or itself).
  public var other: Int

  /// Makes a conflict between a later route and an earlier one (or itself).
  public init(route: Int, other: Int) {
    self.route = route
    self.other = other
  }
}

/// One capture of an expansion of a pattern: the segment, and its place in the URL's path.
struct CaptureStep: Sendable {
  var position: Int
  var segment: PatternSegment
}

extension RoutePattern {
  /// The segments of an expansion that capture a parameter, with their places.
  func captureSteps(expansion: Int) -> [CaptureStep] {
    Self.captureSteps(self.expansion(expansion))
  }

  /// The segments that capture a parameter, with their places.
  static func captureSteps(_ segments: [PatternSegment]) -> [CaptureStep] {
    segments.enumerated().compactMap { position, segment in
      segment.name == nil ? nil : CaptureStep(position: position, segment: segment)
    }
  }
}

extension Parameters {
  /// The parameters of `url` matched by an expansion with these capture steps and query
  /// constraints, from lowest to highest precedence: the query (a repeated key gives an
  /// array), then query-constraint captures, then path captures.
  init(_ url: URLParts, steps: ArraySlice<CaptureStep>, constraints: [QueryConstraint]) {
    self.init(capacity: url.query.count + constraints.count + steps.count)
    for item in url.query {
      let (key, value) = (url.string(item.key), url.string(item.value))
      switch self[key] {
      case nil: append(key, .string(value))
      case .string(let first)?: self[key] = .strings([first, value])
      case .strings(let values)?: self[key] = .strings(values + [value])
      default: break
      }
    }
    for constraint in constraints {
      if case .capture(let type, let name) = constraint.value,
        let item = url.query.first(where: { url.part($0.key, is: constraint.key) }),
        let value = type.value(of: url.bytes(item.value))
      {
        self[name] = value
      }
    }
    // Names are unique within a pattern: without earlier parameters, each is new.
    let fresh = isEmpty
    for step in steps {
      guard let name = step.segment.name else { continue }
      let rest = url.segments[step.position...]
      let value: ParamValue?
      switch step.segment.kind {
      case .literal: continue
      case .capture(let type): value = type.value(of: url.bytes(url.segments[step.position]))
      case .path: value = .string(rest.map(url.string).joined(separator: "/"))
      case .rest: value = .strings(rest.map(url.string))
      }
      if fresh, let value { append(name, value) } else { self[name] = value }
    }
  }
}
