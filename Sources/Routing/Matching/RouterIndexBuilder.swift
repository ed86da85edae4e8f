// Building a RouterIndex from routes, and finding conflicts on the way.

extension RouterIndex {
  /// Builds the index of `routes`; two expansions that no URL can tell apart (ROUTING.md
  /// section 1) are a ``RouteConflict``, the first in table order.
  ///
  /// Two expansions are indistinguishable exactly when they end in the same terminal list of
  /// the same trie node (same scheme, same segment kinds and literals) with the same domain,
  /// query constraints and priority, so conflicts are found while inserting, by comparing
  /// with the few routes already in that list.
  ///
  /// With `conflicts` nil, the first conflict is thrown; with an array, every conflicting pair
  /// is appended to it (later route first; once per pair of expansions) and both routes are
  /// kept, so a URL they both match goes to the route listed first (rule 6), as the linear
  /// scan decides.
  ///
  /// Each route's pattern is also handed to `plans`, so that a route is read once for both
  /// (copying a route out of the array costs more than using it).
  convenience init(
    routes: [Router.Route], collecting conflicts: inout [RouteConflict]?,
    plans: inout CapturePlans
  ) throws(RouteConflict) {
    var builder = Builder(routes: routes)
    // Priorities as dense ranks, so they fit 32 bits and keep their order exactly.
    let priorityRanks = Dictionary(
      uniqueKeysWithValues: Set(routes.map(\.priority)).sorted().enumerated().map {
        ($1, Int32($0))
      })
    for routeIndex in routes.indices {
      let pattern = routes[routeIndex].pattern
      let priority = routes[routeIndex].priority
      plans.add(pattern)
      builder.addRoute(pattern, priority: priority)
      let root = pattern.scheme.map { builder.root(forScheme: $0) } ?? 0
      var flags: UInt8 = 0
      if pattern.scheme != nil { flags |= Terminal.schemeFlag }
      if pattern.domain != nil { flags |= Terminal.domainFlag }
      // The walk's pruning relies on this: routes in a scheme's trie, and only they, have the
      // scheme flag, so the two tries' rank keys never tie (``Edge/rankKey(priority:flags:)``).
      assert(pattern.domain == nil || pattern.scheme != nil, "a domain without a scheme")
      for expansion in 0..<pattern.expansionCount {
        try builder.insert(
          pattern.expansion(expansion), from: root,
          Terminal(
            route: Int32(routeIndex), priority: priorityRanks[priority]!,
            expansion: Int16(expansion), flags: flags,
            constraints: UInt8(clamping: pattern.constraints.count)), conflicts: &conflicts)
      }
    }
    self.init(builder.finish())
  }

  /// Fills the tables: a plain trie first (nodes in creation order, literal children found
  /// through a hash table keyed by parent), then `finish` places every node in the index's
  /// hash table by its path hash. Per-node terminal lists are linked lists in one array until
  /// then. Placing the nodes is in `RouterIndexPlacement.swift`.
  struct Builder {
    /// A node while building.
    struct Node {
      var int: Int32 = -1
      var float: Int32 = -1
      var uuid: Int32 = -1
      var string: Int32 = -1
      /// Whether the node has literal children.
      var hasLiterals = false
      /// The routes that end here.
      var ends = List()
      /// The routes whose `<path:>` starts here.
      var paths = List()
      /// The routes whose `*` starts here.
      var rests = List()

      /// List number `list`.
      subscript(list list: Int) -> List {
        get { list == 0 ? ends : list == 1 ? paths : rests }
        set {
          switch list {
          case 0: ends = newValue
          case 1: paths = newValue
          default: rests = newValue
          }
        }
      }
      /// The parent node (-1 for a root).
      var parent: Int32 = -1
      /// The edge from the parent: its kind, its word and its hash.
      var kind: UInt32 = Edge.root
      var word: UInt64 = 0
      var hash: UInt64 = 0
      /// Where a literal edge's bytes start in `literalText`.
      var textStart: Int32 = 0
      /// How many bytes a literal edge has.
      var textCount: Int32 = 0
    }

    /// A linked list of terminals: its first and last entry (-1: empty).
    struct List {
      var first: Int32 = -1
      var last: Int32 = -1
    }

    /// A literal child while building: `child` of `parent` for the literal with `hash`.
    struct Slot {
      var hash: UInt64 = 0
      var parent: Int32 = -1
      var child: Int32 = -1
    }

    /// The routes being indexed.
    let routes: [Router.Route]
    /// The tables being filled.
    var index = Tables()
    /// The trie, in creation order (a parent before its children).
    var nodes: [Node] = []
    /// The literal children, by parent and bytes; half empty at most.
    var slots: [Slot] = []
    /// How many slots are used.
    var literalCount = 0
    /// Every literal edge's bytes, back to back.
    var literalText: [UInt8] = []
    /// Terminals in insertion order, each with the next one of its list.
    var entries: [(terminal: Terminal, next: Int32)] = []
    /// Scheme -> root node; the global root is node 0.
    var roots: [String: Int32] = [:]
    /// The scheme found last and its root.
    var lastRoot: (scheme: String, root: Int32)?

    init(routes: [Router.Route]) {
      self.routes = routes
      // Room for the usual shapes up front, so the arrays are not copied as they grow.
      nodes.reserveCapacity(routes.count * 2 + 1)
      entries.reserveCapacity(routes.count + 1)
      literalText.reserveCapacity(routes.count * 8 + 16)
      index.routeInfo.reserveCapacity(routes.count)
      var capacity = 16
      while capacity < routes.count * 3 { capacity *= 2 }
      slots = Array(repeating: Slot(), count: capacity)
      nodes.append(Node())
    }

    /// The root node of a scheme's trie, made when missing.
    mutating func root(forScheme scheme: String) -> Int32 {
      // Schemes are lowercase ASCII, so Swift string equality is byte equality here. Tables
      // list a scheme's routes together, so the last one found is tried before hashing.
      if let last = lastRoot, last.scheme == scheme { return last.root }
      if let root = roots[scheme] {
        lastRoot = (scheme, root)
        return root
      }
      var bytes = Array(scheme.utf8)
      let start = Int32(index.text.count)
      index.text += bytes
      let root = Int32(nodes.count)
      nodes.append(Node())
      let path = bytes.withUnsafeMutableBufferPointer {
        RouterIndex.step(
          RouterIndex.schemeSeed, RouterIndex.SegmentKey(UnsafeBufferPointer($0)).hash)
      }
      let word =
        bytes.count <= 8 ? bytes.withUnsafeBufferPointer { RouterIndex.SegmentKey.word($0) } : 0
      index.schemes.append(
        SchemeRoot(start: start, count: Int32(bytes.count), root: root, path: path, word: word))
      roots[scheme] = root
      return root
    }

    /// Records what ranking and filtering need of a route: its domain and query constraints.
    mutating func addRoute(_ pattern: RoutePattern, priority: Int) {
      var domainStart: Int32 = 0
      var domainCount: Int32 = -1
      if let domain = pattern.domain {
        domainStart = Int32(index.text.count)
        domainCount = Int32(domain.utf8.count)
        index.text += domain.utf8
      }
      let constraintStart = Int32(index.constraints.count)
      for constraint in pattern.constraints {
        var entry = Constraint(
          keyStart: Int32(index.text.count), keyCount: Int32(constraint.key.utf8.count),
          literalStart: 0, literalCount: -1, type: .string)
        index.text += constraint.key.utf8
        switch constraint.value {
        case .literal(let literal):
          entry.literalStart = Int32(index.text.count)
          entry.literalCount = Int32(literal.utf8.count)
          index.text += literal.utf8
        case .capture(let type, _):
          entry.type = type
        }
        index.constraints.append(entry)
      }
      index.routeInfo.append(
        RouteInfo(
          priority: priority, hasScheme: pattern.scheme != nil, domainStart: domainStart,
          domainCount: domainCount, constraintStart: constraintStart,
          constraintCount: Int32(pattern.constraints.count)))
    }

    /// Adds one expansion's terminal; a conflict is thrown, or appended to `conflicts` when
    /// that is not nil (and the terminal kept).
    mutating func insert(
      _ segments: [PatternSegment], from root: Int32, _ terminal: Terminal,
      conflicts: inout [RouteConflict]?
    ) throws(RouteConflict) {
      var current = root
      var list = 0
      for segment in segments {
        switch segment.kind {
        case .rest:
          list = 2
        case .path:
          list = 1
        case .literal(let text):
          current = literalChild(current, text)
          continue
        case .capture(let type):
          current = child(current, type)
          continue
        }
        break
      }
      // Same node and list: same scheme and kinds. A conflict if domain, constraints and
      // priority agree too.
      var ends = nodes[Int(current)][list: list]
      var position = ends.first
      while position >= 0 {
        let other = entries[Int(position)].terminal
        if sameShape(other, terminal) {
          let conflict = RouteConflict(route: Int(terminal.route), other: Int(other.route))
          guard conflicts != nil else { throw conflict }
          conflicts!.append(conflict)
        }
        position = entries[Int(position)].next
      }
      let entry = Int32(entries.count)
      entries.append((terminal, -1))
      if ends.last >= 0 {
        entries[Int(ends.last)].next = entry
      } else {
        ends.first = entry
      }
      ends.last = entry
      nodes[Int(current)][list: list] = ends
    }

    /// Whether two routes ending in the same list differ in nothing a URL can tell apart.
    private func sameShape(_ a: Terminal, _ b: Terminal) -> Bool {
      guard a.priority == b.priority, a.flags == b.flags, a.constraints == b.constraints else {
        return false
      }
      let patternA = routes[Int(a.route)].pattern
      let patternB = routes[Int(b.route)].pattern
      guard patternA.domain.isExactly(patternB.domain) else { return false }
      func shape(_ pattern: RoutePattern) -> [(key: String, literal: String?, type: CaptureType?)] {
        pattern.constraints.map { constraint in
          switch constraint.value {
          case .literal(let text): return (constraint.key, text, nil)
          case .capture(let type, _): return (constraint.key, nil, type)
          }
        }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      }
      let shapeA = shape(patternA)
      let shapeB = shape(patternB)
      guard shapeA.count == shapeB.count else { return false }
      for (x, y) in zip(shapeA, shapeB) {
        guard x.key.isExactly(y.key), x.literal.isExactly(y.literal), x.type == y.type else {
          return false
        }
      }
      return true
    }

    /// The literal child of `parent` for `text`, made when missing.
    private mutating func literalChild(_ parent: Int32, _ text: String) -> Int32 {
      var text = text
      return text.withUTF8 { literalChild(parent, $0) }
    }

    private mutating func literalChild(_ parent: Int32, _ bytes: UnsafeBufferPointer<UInt8>)
      -> Int32
    {
      let key = RouterIndex.SegmentKey(bytes)
      let hash = RouterIndex.step(UInt64(UInt32(bitPattern: parent)), key.hash)
      let mask = slots.count - 1
      var position = Self.slot(hash, mask)
      while slots[position].parent >= 0 {
        let slot = slots[position]
        if slot.hash == hash && slot.parent == parent {
          let node = nodes[Int(slot.child)]
          if literalText[Int(node.textStart)..<Int(node.textStart + node.textCount)]
            .elementsEqual(bytes)
          {
            return slot.child
          }
        }
        position = (position + 1) & mask
      }
      let child = Int32(nodes.count)
      var node = Node()
      node.parent = parent
      node.kind = key.kind
      node.word = key.word
      node.hash = key.hash
      node.textStart = Int32(literalText.count)
      node.textCount = Int32(bytes.count)
      literalText.append(contentsOf: bytes)
      nodes.append(node)
      nodes[Int(parent)].hasLiterals = true
      slots[position] = Slot(hash: hash, parent: parent, child: child)
      literalCount += 1
      if literalCount * 2 > slots.count { grow() }
      return child
    }

    /// Where the search for a literal child with this hash starts in a table of `mask + 1`
    /// slots (a power of two): the hash's top bits, which every bit of a path step's input
    /// moves (its low bits depend on the input's low bits only).
    private static func slot(_ hash: UInt64, _ mask: Int) -> Int {
      Int(truncatingIfNeeded: hash >> UInt64(64 - (mask + 1).trailingZeroBitCount))
    }

    /// Doubles the hash table (every slot keeps its hash, so nothing is hashed again).
    private mutating func grow() {
      let old = slots
      let capacity = old.count * 2
      slots = Array(repeating: Slot(), count: capacity)
      for slot in old where slot.parent >= 0 {
        var position = Self.slot(slot.hash, capacity - 1)
        while slots[position].parent >= 0 { position = (position + 1) & (capacity - 1) }
        slots[position] = slot
      }
    }

    /// The typed child of `parent` for `type`, made when missing.
    private mutating func child(_ parent: Int32, _ type: CaptureType) -> Int32 {
      let node = nodes[Int(parent)]
      let kind: UInt32
      let existing: Int32
      switch type {
      case .int: (kind, existing) = (Edge.int, node.int)
      case .float: (kind, existing) = (Edge.float, node.float)
      case .uuid: (kind, existing) = (Edge.uuid, node.uuid)
      case .string, .path: (kind, existing) = (Edge.string, node.string)
      }
      if existing >= 0 { return existing }
      let next = Int32(nodes.count)
      var child = Node()
      child.parent = parent
      child.kind = kind
      child.hash = Edge.hash(kind)
      nodes.append(child)
      switch kind {
      case Edge.int: nodes[Int(parent)].int = next
      case Edge.float: nodes[Int(parent)].float = next
      case Edge.uuid: nodes[Int(parent)].uuid = next
      default: nodes[Int(parent)].string = next
      }
      return next
    }
  }
}

extension RoutePattern {
  /// How many expansions the optional groups give (2^groups).
  var expansionCount: Int { 1 << groups.count }

  /// One expansion: the segments with the groups whose bit is set in `mask`.
  func expansion(_ mask: Int) -> [PatternSegment] {
    guard mask != 0 else { return segments }
    var result = segments
    for (index, group) in groups.enumerated() where mask & (1 << index) != 0 {
      result += group
    }
    return result
  }
}
