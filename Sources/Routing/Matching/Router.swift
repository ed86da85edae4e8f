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
    var seen: [Shape: Int] = [:]
    seen.reserveCapacity(routes.count)
    for (routeIndex, route) in routes.enumerated() {
      let pattern = route.pattern
      let constraintShapes = pattern.constraints.map(ConstraintShape.init).sorted {
        $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8)
      }
      for expansion in 0..<pattern.expansionCount {
        let shape = Shape(
          scheme: pattern.scheme, domain: pattern.domain.map(ExactText.init),
          kinds: pattern.expansion(expansion).map(KindShape.init),
          constraints: constraintShapes, priority: route.priority)
        if let other = seen.updateValue(routeIndex, forKey: shape) {
          throw RouteConflict(route: routeIndex, other: other)
        }
      }
    }
    index = RouterIndex(routes: routes)
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
      var found: [Candidate] = []
      walkAll(view) { found.append($0) }
      var seen: Set<Int32> = []
      return found.sorted(by: isRankedBefore).filter { seen.insert($0.route).inserted }
        .map { makeMatch($0, view) }
    }
  }

  /// The index of the best route for the URL in `bytes`, or nil when none matches or the URL
  /// cannot be read. Reads the bytes in place: no allocation for ordinary ASCII URLs.
  public func decide(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    if let route = URLScanner.scan(bytes, { decide($0).route }) {
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

  // MARK: - Ranking

  private struct Candidate {
    var route: Int32 = -1
    var expansion: Int32 = 0
    /// Order of specificity within one trie (rule 4): lower is more specific.
    var specificity: Int32 = 0
  }

  /// The best candidate for a view (route -1 when none).
  private func decide(_ view: URLView) -> Candidate {
    var best = Candidate()
    walkAll(view) { candidate in
      if best.route < 0 || isRankedBefore(candidate, best) { best = candidate }
    }
    return best
  }

  /// Reports every matching (route, expansion) of the URL's scheme trie, then the global one.
  @inline(__always)
  private func walkAll(_ view: URLView, _ report: (Candidate) -> Void) {
    if let scheme = view.scheme {
      let root = index.root(forScheme: scheme.bytes)
      if root >= 0 {
        var order: Int32 = 0
        walk(root, 0, view, &order, report)
      }
    }
    var order: Int32 = 0
    walk(index.globalRoot, 0, view, &order, report)
  }

  private func isRankedBefore(_ a: Candidate, _ b: Candidate) -> Bool {
    let infoA = index.routeInfo[Int(a.route)]
    let infoB = index.routeInfo[Int(b.route)]
    if infoA.priority != infoB.priority { return infoA.priority > infoB.priority }
    if infoA.hasScheme != infoB.hasScheme { return infoA.hasScheme }
    let domainA = infoA.domainCount >= 0
    if domainA != (infoB.domainCount >= 0) { return domainA }
    if a.specificity != b.specificity { return a.specificity < b.specificity }
    if infoA.constraintCount != infoB.constraintCount {
      return infoA.constraintCount > infoB.constraintCount
    }
    if a.route != b.route { return a.route < b.route }
    return a.expansion < b.expansion
  }

  /// Depth-first walk that visits children from the most to the least specific kind, so the
  /// order in which terminal lists are reached is the specificity order of rule 4.
  private func walk(
    _ nodeIndex: Int32, _ segment: Int, _ view: URLView, _ order: inout Int32,
    _ report: (Candidate) -> Void
  ) {
    let node = index.nodes[Int(nodeIndex)]
    let segments = view.segments
    if segment == segments.count {
      collect(node.terminals, view, &order, report)
      collect(node.restTerminals, view, &order, report)
      return
    }
    let text = segments[segment].bytes
    let literal = index.literalChild(of: nodeIndex, text)
    if literal >= 0 { walk(literal, segment + 1, view, &order, report) }
    if node.int >= 0, bytesAreInt(text) { walk(node.int, segment + 1, view, &order, report) }
    if node.float >= 0, bytesAreFloat(text) {
      walk(node.float, segment + 1, view, &order, report)
    }
    if node.uuid >= 0, bytesAreUUID(text) { walk(node.uuid, segment + 1, view, &order, report) }
    if node.string >= 0 { walk(node.string, segment + 1, view, &order, report) }
    collect(node.pathTerminals, view, &order, report)
    collect(node.restTerminals, view, &order, report)
  }

  @inline(__always)
  private func collect(
    _ range: RouterIndex.TerminalRange, _ view: URLView, _ order: inout Int32,
    _ report: (Candidate) -> Void
  ) {
    guard range.count > 0 else { return }
    order += 1
    for position in Int(range.start)..<Int(range.start + range.count) {
      let terminal = index.terminals[position]
      let info = index.routeInfo[Int(terminal.route)]
      if info.domainCount >= 0 {
        guard let domain = view.domain,
          index.equalsTextIgnoringASCIICase(info.domainStart, info.domainCount, domain.bytes)
        else { continue }
      }
      if info.constraintCount > 0 && !acceptsConstraints(info, view) { continue }
      report(
        Candidate(route: terminal.route, expansion: terminal.expansion, specificity: order))
    }
  }

  /// Whether every query constraint of the route holds: its key once, with a fitting value.
  private func acceptsConstraints(_ info: RouterIndex.RouteInfo, _ view: URLView) -> Bool {
    let start = Int(info.constraintStart)
    for position in start..<start + Int(info.constraintCount) {
      let constraint = index.constraints[position]
      var found: ByteSlice?
      for item in view.query
      where index.equalsText(constraint.keyStart, constraint.keyCount, item.key.bytes) {
        if found != nil { return false }
        found = item.value
      }
      guard let value = found else { return false }
      if constraint.literalCount >= 0 {
        guard index.equalsText(constraint.literalStart, constraint.literalCount, value.bytes)
        else { return false }
      } else if !constraint.type.accepts(value.bytes) {
        return false
      }
    }
    return true
  }

  // MARK: - Parameters

  private func makeMatch(_ candidate: Candidate, _ view: URLView) -> RouteMatch {
    let route = Int(candidate.route)
    let pattern = routes[route].pattern
    var params: Parameters = [:]
    let query = view.query
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
          item.key.count == key.count && (key.isEmpty || memoryEqual(item.key.start!, key.baseAddress!, key.count))
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

/// What makes two routes impossible to tell apart (ROUTING.md section 1).
private struct Shape: Hashable {
  var scheme: String?
  var domain: ExactText?
  var kinds: [KindShape]
  var constraints: [ConstraintShape]
  var priority: Int
}

/// A segment kind with literals compared exactly.
private enum KindShape: Hashable {
  case literal(ExactText)
  case other(SegmentKind)

  init(_ segment: PatternSegment) {
    if case .literal(let text) = segment.kind {
      self = .literal(ExactText(text))
    } else {
      self = .other(segment.kind)
    }
  }
}

/// A query constraint without its capture name.
private struct ConstraintShape: Hashable {
  var key: ExactText
  var literal: ExactText?
  var type: CaptureType?

  init(_ constraint: QueryConstraint) {
    key = ExactText(constraint.key)
    switch constraint.value {
    case .literal(let value): literal = ExactText(value)
    case .capture(let type, _): self.type = type
    }
  }
}
