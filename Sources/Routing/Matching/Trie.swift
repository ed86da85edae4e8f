/// The compiled routes: a trie of pattern segments for each scheme and one for global patterns.
///
/// Every expansion of every route is a terminal at the node its single segments lead to. The
/// rank of a terminal (``RouteRank``) depends only on its pattern, so all terminals are sorted
/// once, at compile time, and each keeps its place in that order: a lookup compares two
/// integers instead of two ranks, and skips any subtree whose best terminal cannot beat the one
/// already found.
///
/// A route with an inner wildcard (`/stats/*/:period`) is not in a trie: its rank depends on how
/// many segments the wildcard takes, so it cannot be sorted once. Such routes are kept in a list
/// tried on every lookup, and ranked against the trie's best for each URL.
///
/// A class, immutable after `init`, so that passing it around (into a lookup's closures)
/// copies one reference rather than each of its arrays. Built here; the lookup is in
/// `TrieLookup.swift`.
final class Trie: Sendable {
  /// One node: where its children and terminals are in the shared tables. Plain numbers, so
  /// reading a node during a lookup copies no reference.
  struct Node: Sendable {
    /// Whether the node has literal children.
    var hasLiterals = false
    /// Whether the node has children for literals compared without regard to case (in
    /// ``Trie/literals`` under the parent `-2 - node`, by their lowercase text).
    var hasFoldedLiterals = false
    /// Its children by capture type, value set or regular expression in ``Trie/captures``,
    /// most specific first.
    var captures: Range<Int32> = 0..<0
    /// Terminals (in ``Trie/lists``) of expansions that end here.
    var ends: Range<Int32> = 0..<0
    /// Terminals (in ``Trie/lists``) of expansions whose trailing `<path:>` or `*` starts here.
    var tails: Range<Int32> = 0..<0
    /// The smallest ``Terminal/order`` at or below this node.
    var best = Int32.max
  }

  /// A child for one capture type, value set or regular expression.
  struct Capture: Sendable {
    var type: CaptureType
    /// The value set or regular expression in ``Trie/tests``, or -1 for a capture type.
    var test: Int32 = -1
    var rank: MatchKind
    var child: Int32
  }

  /// A segment test other than a capture type: a value set (alternatives in lowercase when
  /// `folded`) or a regular expression. Equal tests share a child.
  enum Test: Sendable, Hashable {
    case oneOf(Set<[UInt8]>, folded: Bool)
    case regex(RouteRegex)

    func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      switch self {
      case .oneOf(let alternatives, let isFolded):
        return isFolded
          ? withFolded(bytes) { alternatives.contains(Array($0)) }
          : alternatives.contains(Array(bytes))
      case .regex(let regex): return regex.matches(bytes)
      }
    }
  }

  /// What ends an expansion after its single segments.
  enum Tail: Sendable, Hashable {
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
    /// The exact domain the pattern requires, if any.
    var domain: String?
    /// The pattern's query constraints.
    var constraints: [QueryConstraint]
    /// What else the pattern requires, in ``Trie/extras``, or -1 when nothing: kept apart so
    /// that a check of a plain route reads no more than it needs.
    var extra: Int32 = -1
  }

  /// What a route with one of the other kinds requires of a URL besides its path.
  struct Extra: Sendable {
    /// A `*.` domain the host must be under.
    var wildcardDomain: String?
    /// The pattern's fragment pattern.
    var fragment: FragmentPattern?
    /// Whether literals compare with regard to case.
    var caseSensitive: Bool
  }

  let nodes: [Node]
  let tests: [Test]
  let extras: [Extra]
  /// Terminals of routes with an inner wildcard, tried on every lookup, in table order.
  let inner: [Int32]
  /// The routes, for ranking those with an inner wildcard.
  let routes: [Router.Route]
  /// Whether some route has a fragment pattern, so a URL's fragment must be read.
  let readsFragment: Bool
  /// Literal children, and the root of each scheme's trie as a child of node -1; node 0 is
  /// the root of global patterns.
  let literals: LiteralTable
  let captures: [Capture]
  let lists: [Int32]
  let terminals: [Terminal]
  let checks: [Check]
  /// The capture steps of every terminal, kept here so that making a match's parameters reads
  /// one small array rather than the pattern's parts scattered over the heap.
  let captureSteps: [CaptureStep]

  /// A node while the trie is built.
  private struct Building {
    var parent: Int32
    var hasLiterals = false
    var hasFoldedLiterals = false
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
    var (tests, inner, extras) = ([Test](), [Int32](), [Extra]())
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
      if pattern.domain != nil || !pattern.constraints.isEmpty || pattern.fragment != nil {
        check = Int32(checks.count)
        var extra: Int32 = -1
        if pattern.domainIsWildcard || pattern.fragment != nil || !pattern.caseSensitive {
          extra = Int32(extras.count)
          extras.append(
            Extra(
              wildcardDomain: pattern.domainIsWildcard ? pattern.domain : nil,
              fragment: pattern.fragment, caseSensitive: pattern.caseSensitive))
        }
        checks.append(
          Check(
            domain: pattern.domainIsWildcard ? nil : pattern.domain,
            constraints: pattern.constraints, extra: extra))
      }
      var root: Int32 = 0
      if let scheme = pattern.scheme {
        root = literals.child(of: -1, scheme) { newNode(-1) }
      }
      if pattern.hasInnerWildcard {
        let number = Int32(terminals.count)
        for other in inner where Self.sameInner(terminals[Int(other)], index, routes) {
          try conflict(RouteConflict(route: index, other: Int(terminals[Int(other)].route)))
        }
        let first = Int32(captureSteps.count)
        captureSteps += pattern.captureSteps(expansion: 0)
        terminals.append(
          Terminal(
            route: Int32(index), expansion: 0, tail: .none, check: check,
            steps: first..<Int32(captureSteps.count)))
        ranks.append(RouteRank(pattern, priority: route.priority, route: index, expansion: 0))
        inner.append(number)
        continue
      }
      for expansion in 0..<pattern.expansionCount {
        var node = root
        var tail = Tail.none
        let segments = pattern.expansion(expansion)
        for segment in segments {
          var test: Test?
          switch segment.kind {
          case .literal(let text) where pattern.caseSensitive:
            building[Int(node)].hasLiterals = true
            node = literals.child(of: node, text) { newNode(node) }
            continue
          case .literal(let text):
            building[Int(node)].hasFoldedLiterals = true
            node = literals.child(of: -2 - node, text.lowercased()) { newNode(node) }
            continue
          case .path:
            tail = .path
            continue
          case .rest:
            tail = .rest
            continue
          case .capture: test = nil
          case .oneOf(let alternatives):
            let folded = !pattern.caseSensitive
            test = .oneOf(
              Set(alternatives.map { Array((folded ? $0.lowercased() : $0).utf8) }),
              folded: folded)
          case .regex(let regex): test = .regex(regex)
          }
          var type = CaptureType.string
          if case .capture(let captureType) = segment.kind { type = captureType }
          let rank = MatchKind(segment.kind)
          let found = building[Int(node)].captures.first {
            $0.rank == rank && $0.type == type
              && ($0.test < 0 ? test == nil : test == tests[Int($0.test)])
          }
          if let found {
            node = found.child
          } else {
            let child = newNode(node)
            var number: Int32 = -1
            if let test {
              number = Int32(tests.count)
              tests.append(test)
            }
            building[Int(node)].captures.append(
              Capture(type: type, test: number, rank: rank, child: child))
            building[Int(node)].captures.sort { $0.rank < $1.rank }
            node = child
          }
        }
        let first = Int32(captureSteps.count)
        captureSteps += pattern.captureSteps(expansion: expansion)
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
    // place through its address: moving or copying ranks, which hold arrays, costs more.
    var order = Array(ranks.indices)
    ranks.withUnsafeBufferPointer { ranks in
      guard let base = ranks.baseAddress else { return }
      order.sort { (base + $0).pointee < (base + $1).pointee }
    }
    for (place, number) in order.enumerated() { terminals[number].order = Int32(place) }
    // Then each node's best place, children before parents (a child is made after its parent).
    self.literals = literals
    nodes = building.map { _ in Node() }
    for index in building.indices.reversed() {
      let node = building[index]
      nodes[index].hasLiterals = node.hasLiterals
      nodes[index].hasFoldedLiterals = node.hasFoldedLiterals
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
    (self.tests, self.inner, self.routes, self.extras) = (tests, inner, routes, extras)
    readsFragment = routes.contains { $0.pattern.fragment != nil }
  }

  /// Two terminals at the same node and tail that no URL can tell apart.
  private static func sameShape(_ a: Terminal, _ b: Terminal, _ routes: [Router.Route]) -> Bool {
    let (routeA, routeB) = (routes[Int(a.route)], routes[Int(b.route)])
    return a.tail == b.tail && routeA.priority == routeB.priority
      && routeA.pattern.sameBeyondPath(routeB.pattern)
  }

  /// Two routes with an inner wildcard that no URL can tell apart.
  private static func sameInner(_ a: Terminal, _ route: Int, _ routes: [Router.Route]) -> Bool {
    let (routeA, routeB) = (routes[Int(a.route)], routes[route])
    let (patternA, patternB) = (routeA.pattern, routeB.pattern)
    return routeA.priority == routeB.priority && patternA.scheme == patternB.scheme
      && PatternSegment.sameKinds(
        patternA.segments, patternA.caseSensitive, patternB.segments, patternB.caseSensitive)
      && patternA.sameBeyondPath(patternB)
  }
}
