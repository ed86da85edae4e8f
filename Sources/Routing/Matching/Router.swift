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
  private let schemeTries: [String: Trie]
  private let globalTrie: Trie

  /// Compiles routes; two routes (or two expansions of one) that no URL can tell apart are a
  /// ``RouteConflict``.
  public init(_ routes: [Route]) throws(RouteConflict) {
    self.routes = routes
    var seen: [Shape: Int] = [:]
    var builders: [String: Trie.Builder] = [:]
    var global = Trie.Builder()
    for (routeIndex, route) in routes.enumerated() {
      let pattern = route.pattern
      let constraintShapes = pattern.constraints.map(ConstraintShape.init).sorted {
        $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8)
      }
      for (expansionIndex, segments) in pattern.expansions.enumerated() {
        let shape = Shape(
          scheme: pattern.scheme, domain: pattern.domain.map(ExactText.init),
          kinds: segments.map(KindShape.init),
          constraints: constraintShapes, priority: route.priority)
        if let other = seen.updateValue(routeIndex, forKey: shape) {
          throw RouteConflict(route: routeIndex, other: other)
        }
        let terminal = Trie.Terminal(route: Int32(routeIndex), expansion: Int32(expansionIndex))
        if let scheme = pattern.scheme {
          builders[scheme, default: Trie.Builder()].insert(segments, terminal)
        } else {
          global.insert(segments, terminal)
        }
      }
    }
    schemeTries = builders.mapValues { $0.trie }
    globalTrie = global.trie
  }

  /// The best route for `url`, with its parameters, or nil when none matches.
  public func match(_ url: RouteURL) -> RouteMatch? {
    let candidates = self.candidates(url)
    guard let best = candidates.min(by: isRankedBefore) else { return nil }
    return makeMatch(best, url)
  }

  /// Every route that matches `url`, best first, each once (with its best expansion) and with
  /// its parameters.
  public func matches(_ url: RouteURL) -> [RouteMatch] {
    var seen: Set<Int> = []
    return candidates(url).sorted(by: isRankedBefore).filter { seen.insert($0.route).inserted }
      .map { makeMatch($0, url) }
  }

  // MARK: - Ranking

  private struct Candidate {
    var route: Int
    var expansion: Int
    /// Order of specificity within one trie (rule 4): lower is more specific.
    var specificity: Int
  }

  private func candidates(_ url: RouteURL) -> [Candidate] {
    var found: [Candidate] = []
    if let scheme = url.scheme, let trie = schemeTries[scheme] {
      var order = 0
      walk(trie, node: 0, segment: 0, url, &found, &order)
    }
    var order = 0
    walk(globalTrie, node: 0, segment: 0, url, &found, &order)
    return found
  }

  private func isRankedBefore(_ a: Candidate, _ b: Candidate) -> Bool {
    let routeA = routes[a.route]
    let routeB = routes[b.route]
    if routeA.priority != routeB.priority { return routeA.priority > routeB.priority }
    let schemeA = routeA.pattern.scheme != nil
    let schemeB = routeB.pattern.scheme != nil
    if schemeA != schemeB { return schemeA }
    let domainA = routeA.pattern.domain != nil
    let domainB = routeB.pattern.domain != nil
    if domainA != domainB { return domainA }
    if a.specificity != b.specificity { return a.specificity < b.specificity }
    let queryA = routeA.pattern.constraints.count
    let queryB = routeB.pattern.constraints.count
    if queryA != queryB { return queryA > queryB }
    if a.route != b.route { return a.route < b.route }
    return a.expansion < b.expansion
  }

  /// Depth-first walk that visits children from the most to the least specific kind, so the
  /// order in which terminal lists are reached is the specificity order of rule 4.
  private func walk(
    _ trie: Trie, node index: Int, segment: Int, _ url: RouteURL, _ found: inout [Candidate],
    _ order: inout Int
  ) {
    let node = trie.nodes[index]
    let segments = url.segments
    if segment == segments.count {
      collect(node.terminals, url, &found, &order)
      collect(node.restTerminals, url, &found, &order)
      return
    }
    let text = segments[segment]
    if let child = node.literals[ExactText(text)] {
      walk(trie, node: Int(child), segment: segment + 1, url, &found, &order)
    }
    if node.int >= 0, parseInt(text) != nil {
      walk(trie, node: Int(node.int), segment: segment + 1, url, &found, &order)
    }
    if node.float >= 0, parseFloat(text) != nil {
      walk(trie, node: Int(node.float), segment: segment + 1, url, &found, &order)
    }
    if node.uuid >= 0, parseUUID(text) != nil {
      walk(trie, node: Int(node.uuid), segment: segment + 1, url, &found, &order)
    }
    if node.string >= 0 {
      walk(trie, node: Int(node.string), segment: segment + 1, url, &found, &order)
    }
    collect(node.pathTerminals, url, &found, &order)
    collect(node.restTerminals, url, &found, &order)
  }

  private func collect(
    _ terminals: [Trie.Terminal], _ url: RouteURL, _ found: inout [Candidate], _ order: inout Int
  ) {
    guard !terminals.isEmpty else { return }
    order += 1
    for terminal in terminals {
      let pattern = routes[Int(terminal.route)].pattern
      if let domain = pattern.domain, !url.domain.isExactly(domain) { continue }
      guard pattern.constraints.allSatisfy({ $0.accepts(url) }) else { continue }
      found.append(
        Candidate(
          route: Int(terminal.route), expansion: Int(terminal.expansion), specificity: order))
    }
  }

  // MARK: - Parameters

  private func makeMatch(_ candidate: Candidate, _ url: RouteURL) -> RouteMatch {
    let pattern = routes[candidate.route].pattern
    var params: Parameters = [:]
    var repeated: [String: [String]] = [:]
    for item in url.query { repeated[item.key, default: []].append(item.value) }
    for (key, values) in repeated {
      params[key] = values.count == 1 ? .string(values[0]) : .strings(values)
    }
    for constraint in pattern.constraints {
      if case .capture(let type, let name) = constraint.value,
        let text = url.queryValues(constraint.key).first, let value = type.value(of: text)
      {
        params[name] = value
      }
    }
    let segments = pattern.expansions[candidate.expansion]
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
    return RouteMatch(route: candidate.route, expansion: candidate.expansion, params: params)
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

/// A segment trie stored as a flat array of nodes; node 0 is the root.
private struct Trie: Sendable {
  struct Terminal: Sendable {
    var route: Int32
    var expansion: Int32
  }

  struct Node: Sendable {
    var literals: [ExactText: Int32] = [:]
    var int: Int32 = -1
    var float: Int32 = -1
    var uuid: Int32 = -1
    var string: Int32 = -1
    /// Routes that end here.
    var terminals: [Terminal] = []
    /// Routes whose `<path:>` starts here (one or more remaining segments).
    var pathTerminals: [Terminal] = []
    /// Routes whose `*` starts here (zero or more remaining segments).
    var restTerminals: [Terminal] = []
  }

  var nodes: [Node]

  struct Builder {
    var nodes: [Node] = [Node()]

    var trie: Trie { Trie(nodes: nodes) }

    mutating func insert(_ segments: [PatternSegment], _ terminal: Terminal) {
      var current = 0
      for segment in segments {
        switch segment.kind {
        case .rest:
          nodes[current].restTerminals.append(terminal)
          return
        case .path:
          nodes[current].pathTerminals.append(terminal)
          return
        case .literal(let text):
          if let next = nodes[current].literals[ExactText(text)] {
            current = Int(next)
          } else {
            let next = newNode()
            nodes[current].literals[ExactText(text)] = Int32(next)
            current = next
          }
        case .capture(let type):
          current = child(current, type)
        }
      }
      nodes[current].terminals.append(terminal)
    }

    private mutating func newNode() -> Int {
      nodes.append(Node())
      return nodes.count - 1
    }

    private mutating func child(_ parent: Int, _ type: CaptureType) -> Int {
      let existing: Int32
      switch type {
      case .int: existing = nodes[parent].int
      case .float: existing = nodes[parent].float
      case .uuid: existing = nodes[parent].uuid
      case .string, .path: existing = nodes[parent].string
      }
      if existing >= 0 { return Int(existing) }
      let next = Int32(newNode())
      switch type {
      case .int: nodes[parent].int = next
      case .float: nodes[parent].float = next
      case .uuid: nodes[parent].uuid = next
      case .string, .path: nodes[parent].string = next
      }
      return Int(next)
    }
  }
}
