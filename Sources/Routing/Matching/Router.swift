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

  /// Whether some route has a fragment pattern: a URL's fragment is then read (and must decode),
  /// where otherwise it is dropped unread. Pass it to ``RouteURL/init(_:fragment:)``.
  public var readsFragment: Bool { trie.readsFragment }

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
    URLParts.with(url) { all($0) }
  }

  private func all(_ parts: URLParts) -> [RouteMatch] {
    var seen: Set<Int32> = []
    return trie.all(parts).filter { seen.insert($0.route).inserted }.map { makeMatch($0, parts) }
  }

  /// The index of the best route for the URL `text`, read in place, or nil when none matches or
  /// the URL cannot be read.
  public func decide(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { decide(bytes: $0) }
  }

  /// The best route for the URL `text`, read in place, with its parameters, or nil when none
  /// matches or the URL cannot be read.
  public func match(_ text: String) -> RouteMatch? {
    var text = text
    return text.withUTF8 { match(bytes: $0) }
  }

  /// Every route that matches the URL `text`, read in place, best first, each once (with its
  /// best expansion) and with its parameters; none when the URL cannot be read.
  public func matches(_ text: String) -> [RouteMatch] {
    var text = text
    return text.withUTF8 { bytes in
      (try? URLParts.read(bytes, fragment: trie.readsFragment) { all($0) }) ?? []
    }
  }

  /// The index of the best route for the URL in `bytes`, or nil when none matches or the URL
  /// cannot be read.
  public func decide(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    (try? URLParts.read(bytes, fragment: trie.readsFragment) { decide($0) }) ?? nil
  }

  /// The best route for the URL in `bytes`, with its parameters, or nil when none matches or
  /// the URL cannot be read.
  public func match(bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch? {
    (try? URLParts.read(bytes, fragment: trie.readsFragment) { match($0) }) ?? nil
  }

  /// The best route for the URL in `bytes` with its parameters, or nil when none matches;
  /// a URL that cannot be read throws why.
  func match(reading bytes: UnsafeBufferPointer<UInt8>) throws(URLReadError) -> RouteMatch? {
    try URLParts.read(bytes, fragment: trie.readsFragment) { match($0) }
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
        url, steps: trie.steps(of: terminal), constraints: trie.constraints(of: terminal),
        fragment: trie.fragmentConstraints(of: terminal)))
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

/// One capture of an expansion of a pattern: the segment, and where its URL segments are.
struct CaptureStep: Sendable {
  /// What a capture step reads: one segment as a typed value or as text, or a run of segments
  /// joined (`<path:>`) or as a list (`*`). Plain values, so that copying a step is cheap.
  enum Reading: Sendable {
    case typed(CaptureType)
    case text
    case path
    case rest
  }

  /// The parameter's name.
  var name: String
  var reading: Reading
  /// Whether it is a segment of the fragment rather than the path.
  var inFragment: Bool
  /// Its pattern segment's place, and how many pattern segments follow it.
  var position: Int
  var following: Int
  /// Whether it follows a wildcard, and so is counted from the end of the URL's segments.
  var fromEnd: Bool

  /// The URL segments it takes, out of `count`.
  func range(in count: Int) -> Range<Int> {
    if fromEnd { return (count - following - 1)..<(count - following) }
    if reading == .path || reading == .rest { return position..<(count - following) }
    return position..<(position + 1)
  }
}

extension CaptureStep.Reading {
  /// How a capture of this kind is read.
  init(_ kind: SegmentKind) {
    switch kind {
    case .capture(let type): self = .typed(type)
    case .path: self = .path
    case .rest: self = .rest
    case .literal, .oneOf, .regex: self = .text
    }
  }
}

extension CaptureStep.Reading: Equatable {}

extension RoutePattern {
  /// The segments of an expansion, and of a fragment read like a path, that capture a
  /// parameter, with their places.
  func captureSteps(expansion: Int) -> [CaptureStep] {
    var steps = Self.captureSteps(self.expansion(expansion), inFragment: false)
    if case .segments(let list)? = fragment {
      steps += Self.captureSteps(list, inFragment: true)
    }
    return steps
  }

  private static func captureSteps(_ segments: [PatternSegment], inFragment: Bool)
    -> [CaptureStep]
  {
    let wildcard = segments.firstIndex(where: \.kind.isWildcard) ?? segments.count
    return segments.enumerated().compactMap { position, segment in
      segment.name.map { name in
        CaptureStep(
          name: name, reading: CaptureStep.Reading(segment.kind), inFragment: inFragment,
          position: position, following: segments.count - position - 1,
          fromEnd: position > wildcard)
      }
    }
  }
}

extension Parameters {
  /// The parameters of `url` matched by an expansion with these capture steps, query
  /// constraints and fragment constraints, from lowest to highest precedence: the query (a
  /// repeated key gives an array), then query-constraint captures, then path and fragment
  /// captures.
  init(
    _ url: URLParts, steps: ArraySlice<CaptureStep>, constraints: [QueryConstraint],
    fragment: [QueryConstraint] = []
  ) {
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
    for constraint in constraints { capture(constraint, url, url.query) }
    // Names are unique within a pattern: without earlier parameters, each is new.
    let fresh = isEmpty
    for step in steps {
      let list = step.inFragment ? url.fragmentSegments : url.segments
      let range = step.range(in: list.count)
      let value: ParamValue?
      switch step.reading {
      case .path: value = .string(list[range].map(url.string).joined(separator: "/"))
      case .rest: value = .strings(list[range].map(url.string))
      case .text: value = .string(url.string(list[range.lowerBound]))
      case .typed(let type): value = type.value(of: url.bytes(list[range.lowerBound]))
      }
      if fresh, let value { append(step.name, value) } else { self[step.name] = value }
    }
    for constraint in fragment { capture(constraint, url, url.fragmentItems) }
  }

  /// Sets the value a constraint captures from `items`, if it captures one.
  private mutating func capture(
    _ constraint: QueryConstraint, _ url: URLParts, _ items: UnsafeBufferPointer<URLParts.Item>
  ) {
    guard let name = constraint.value.name, let kind = constraint.value.segmentKind,
      let item = items.first(where: { url.part($0.key, is: constraint.key) }),
      let value = kind.value(of: url.bytes(item.value))
    else { return }
    self[name] = value
  }
}
