/// The compiled routes: a trie of pattern segments for each scheme and one for global patterns.
///
/// Every expansion of every route is a terminal at the node its single segments lead to. The
/// rank of a terminal (``RouteRank``) depends only on its pattern, so all terminals are sorted
/// once, at compile time, and each keeps its place in that order: a lookup compares two
/// integers instead of two ranks, and skips any subtree whose best terminal cannot beat the one
/// already found.
///
/// A class, immutable after `init`, so that passing it around (into a lookup's closures)
/// copies one reference rather than each of its arrays.
final class Trie: Sendable {
  /// One node: where its children and terminals are in the shared tables. Plain numbers, so
  /// reading a node during a lookup copies no reference.
  struct Node: Sendable {
    /// Whether the node has literal children.
    var hasLiterals = false
    /// Its children by capture type in ``Trie/captures``, most specific first.
    var captures: Range<Int32> = 0..<0
    /// Terminals (in ``Trie/lists``) of expansions that end here.
    var ends: Range<Int32> = 0..<0
    /// Terminals (in ``Trie/lists``) of expansions whose trailing `<path:>` or `*` starts here.
    var tails: Range<Int32> = 0..<0
    /// The smallest ``Terminal/order`` at or below this node.
    var best = Int32.max
  }

  /// A child for one capture type.
  struct Capture: Sendable {
    var type: CaptureType
    var child: Int32
  }

  /// What ends an expansion after its single segments.
  enum Tail: Sendable, Equatable {
    /// Nothing: the URL must have no more segments.
    case none
    /// `<path:>`: one or more segments.
    case path
    /// `*`: zero or more segments.
    case rest
  }

  /// One expansion of one route, where its single segments end.
  struct Terminal: Sendable {
    var route: Int32
    var expansion: Int32
    var tail: Tail
    /// Its place among all terminals in ranking order (0 ranks first).
    var order: Int32 = 0
    /// Its route's domain and query check in ``checks``, or -1 when it has none.
    var check: Int32 = -1
    /// Its capture steps in ``steps``, read when the match's parameters are made.
    var steps: Range<Int32> = 0..<0
  }

  /// What a route requires of a URL besides its path.
  struct Check: Sendable {
    /// The domain the pattern requires, if any.
    var domain: String?
    /// The pattern's query constraints.
    var constraints: [QueryConstraint]
  }

  private let nodes: [Node]
  /// Literal children, and the root of each scheme's trie as a child of node -1; node 0 is
  /// the root of global patterns.
  private let literals: LiteralTable
  private let captures: [Capture]
  private let lists: [Int32]
  private let terminals: [Terminal]
  private let checks: [Check]
  /// The capture steps of every terminal, kept here so that making a match's parameters reads
  /// one small array rather than the pattern's parts scattered over the heap.
  private let captureSteps: [CaptureStep]

  /// A node while the trie is built.
  private struct Building {
    var parent: Int32
    var hasLiterals = false
    var captures: [Capture] = []
    var ends: [Int32] = []
    var tails: [Int32] = []
  }

  /// Compiles the routes. Two expansions that no URL can tell apart (the same node, tail,
  /// domain, query constraints and priority) are reported to `conflict`, later route first;
  /// it throws to stop, or returns to keep both.
  init(
    _ routes: [Router.Route], conflict: (RouteConflict) throws(RouteConflict) -> Void
  ) throws(RouteConflict) {
    var (nodes, captures, lists) = ([Node](), [Capture](), [Int32]())
    var (terminals, checks, captureSteps) = ([Terminal](), [Check](), [CaptureStep]())
    var building = [Building(parent: -1)]
    var literals = LiteralTable()
    func newNode(_ parent: Int32) -> Int32 {
      building.append(Building(parent: parent))
      return Int32(building.count - 1)
    }
    var ranks: [RouteRank] = []
    for (index, route) in routes.enumerated() {
      let pattern = route.pattern
      var check: Int32 = -1
      if pattern.domain != nil || !pattern.constraints.isEmpty {
        check = Int32(checks.count)
        checks.append(Check(domain: pattern.domain, constraints: pattern.constraints))
      }
      var root: Int32 = 0
      if let scheme = pattern.scheme {
        root = literals.child(of: -1, scheme) { newNode(-1) }
      }
      for expansion in 0..<pattern.expansionCount {
        var node = root
        var tail = Tail.none
        let segments = pattern.expansion(expansion)
        for segment in segments {
          switch segment.kind {
          case .literal(let text):
            building[Int(node)].hasLiterals = true
            node = literals.child(of: node, text) { newNode(node) }
          case .capture(let type):
            if let found = building[Int(node)].captures.first(where: { $0.type == type }) {
              node = found.child
            } else {
              let child = newNode(node)
              building[Int(node)].captures.append(Capture(type: type, child: child))
              building[Int(node)].captures.sort {
                MatchKind(.capture($0.type)) < MatchKind(.capture($1.type))
              }
              node = child
            }
          case .path: tail = .path
          case .rest: tail = .rest
          }
        }
        let first = Int32(captureSteps.count)
        captureSteps += RoutePattern.captureSteps(segments)
        let terminal = Terminal(
          route: Int32(index), expansion: Int32(expansion), tail: tail, check: check,
          steps: first..<Int32(captureSteps.count))
        let list = tail == .none ? building[Int(node)].ends : building[Int(node)].tails
        for other in list where Self.sameShape(terminals[Int(other)], terminal, routes) {
          try conflict(RouteConflict(route: index, other: Int(terminals[Int(other)].route)))
        }
        let number = Int32(terminals.count)
        terminals.append(terminal)
        ranks.append(
          RouteRank(
            pattern, priority: route.priority, route: index, expansion: expansion,
            segments: segments))
        if tail == .none {
          building[Int(node)].ends.append(number)
        } else {
          building[Int(node)].tails.append(number)
        }
      }
    }
    // Places in ranking order. The ranks, one per terminal, are sorted by index, each read in
    // place: moving ranks, which hold an array, costs more.
    var order = Array(ranks.indices)
    ranks.withUnsafeBufferPointer { ranks in order.sort { ranks[$0] < ranks[$1] } }
    for (place, number) in order.enumerated() { terminals[number].order = Int32(place) }
    // Then each node's best place, children before parents (a child is made after its parent).
    self.literals = literals
    nodes = building.map { _ in Node() }
    for index in building.indices.reversed() {
      let node = building[index]
      nodes[index].hasLiterals = node.hasLiterals
      nodes[index].captures = Int32(captures.count)..<Int32(captures.count + node.captures.count)
      captures += node.captures
      nodes[index].ends = Int32(lists.count)..<Int32(lists.count + node.ends.count)
      lists += node.ends
      nodes[index].tails = Int32(lists.count)..<Int32(lists.count + node.tails.count)
      lists += node.tails
      for number in node.ends + node.tails {
        nodes[index].best = min(nodes[index].best, terminals[Int(number)].order)
      }
      if node.parent >= 0 {
        nodes[Int(node.parent)].best = min(nodes[Int(node.parent)].best, nodes[index].best)
      }
    }
    (self.nodes, self.captures, self.lists) = (nodes, captures, lists)
    (self.terminals, self.checks, self.captureSteps) = (terminals, checks, captureSteps)
  }

  /// Two terminals at the same node and tail that no URL can tell apart.
  private static func sameShape(_ a: Terminal, _ b: Terminal, _ routes: [Router.Route]) -> Bool {
    let (routeA, routeB) = (routes[Int(a.route)], routes[Int(b.route)])
    let (constraintsA, constraintsB) = (routeA.pattern.constraints, routeB.pattern.constraints)
    guard a.tail == b.tail, routeA.pattern.domain.isExactly(routeB.pattern.domain),
      routeA.priority == routeB.priority, constraintsA.count == constraintsB.count
    else { return false }
    // Keys are unique within a pattern; literal values count, capture names do not.
    return constraintsA.allSatisfy { constraint in
      constraintsB.contains { other in
        guard other.key.isExactly(constraint.key) else { return false }
        switch (constraint.value, other.value) {
        case (.literal(let x), .literal(let y)): return x.isExactly(y)
        case (.capture(let x, _), .capture(let y, _)): return x == y
        default: return false
        }
      }
    }
  }

  /// Whether the URL's domain and query fit a terminal (its path already does).
  private func accepts(_ terminal: Terminal, _ url: URLParts) -> Bool {
    guard terminal.check >= 0 else { return true }
    let check = checks[Int(terminal.check)]
    if let domain = check.domain {
      guard let range = url.domain, url.part(range, is: domain) else { return false }
    }
    return check.constraints.allSatisfy { constraint in
      var found: Range<Int>?
      for item in url.query where url.part(item.key, is: constraint.key) {
        if found != nil { return false }
        found = item.value
      }
      guard let found else { return false }
      switch constraint.value {
      case .literal(let literal): return url.part(found, is: literal)
      case .capture(let type, _): return type.accepts(url.bytes(found))
      }
    }
  }

  /// A terminal's capture steps.
  func steps(of terminal: Terminal) -> ArraySlice<CaptureStep> {
    captureSteps[Int(terminal.steps.lowerBound)..<Int(terminal.steps.upperBound)]
  }

  /// A terminal's query constraints.
  func constraints(of terminal: Terminal) -> [QueryConstraint] {
    terminal.check < 0 ? [] : checks[Int(terminal.check)].constraints
  }

  /// The best terminal for `url` (the smallest order among those that match), or nil.
  func best(_ url: URLParts) -> Terminal? {
    var search = Search(keepsAll: false)
    each(url, &search)
    return search.best
  }

  /// Every terminal that matches `url`, best first.
  func all(_ url: URLParts) -> [Terminal] {
    var search = Search(keepsAll: true)
    each(url, &search)
    return search.all.sorted { $0.order < $1.order }
  }

  /// What a lookup has found so far.
  private struct Search {
    /// Whether every match is kept, or only the best.
    var keepsAll: Bool
    var best: Terminal?
    var all: [Terminal] = []

    /// Subtrees whose best order is not below this are skipped.
    var bound: Int32 { keepsAll ? .max : best?.order ?? .max }
  }

  /// Looks for the terminals whose path matches the URL's segments, in the scheme's trie and
  /// then the global one.
  private func each(_ url: URLParts, _ search: inout Search) {
    if let scheme = url.scheme, let root = literals.child(of: -1, url.bytes(scheme)) {
      walk(root, 0, url, &search)
    }
    walk(0, 0, url, &search)
  }

  /// Keeps a terminal whose path matches when the rest of the URL fits and it ranks first.
  private func consider(_ list: Int32, _ url: URLParts, _ search: inout Search) {
    let terminal = terminals[Int(lists[Int(list)])]
    guard terminal.order < search.bound, accepts(terminal, url) else { return }
    if search.keepsAll { search.all.append(terminal) }
    search.best = terminal
  }

  private func walk(_ node: Int32, _ position: Int, _ url: URLParts, _ search: inout Search) {
    let here = nodes[Int(node)]
    guard here.best < search.bound else { return }
    guard position < url.segments.count else {
      for list in here.ends { consider(list, url, &search) }
      for list in here.tails where terminals[Int(lists[Int(list)])].tail == .rest {
        consider(list, url, &search)
      }
      return
    }
    let segment = url.bytes(url.segments[position])
    if here.hasLiterals, let child = literals.child(of: node, segment) {
      walk(child, position + 1, url, &search)
    }
    for edge in here.captures where captures[Int(edge)].type.accepts(segment) {
      walk(captures[Int(edge)].child, position + 1, url, &search)
    }
    for list in here.tails { consider(list, url, &search) }
  }
}
