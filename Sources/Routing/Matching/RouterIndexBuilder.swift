// Building a RouterIndex from routes, and finding conflicts on the way.

extension RouterIndex {
  /// Builds the index of `routes`; two expansions that no URL can tell apart (ROUTING.md
  /// section 1) are a ``RouteConflict``, the first in table order.
  ///
  /// Two expansions are indistinguishable exactly when they end in the same terminal list of
  /// the same trie node (same scheme, same segment kinds and literals) with the same domain,
  /// query constraints and priority, so conflicts are found while inserting, by comparing
  /// with the few routes already in that list.
  convenience init(routes: [Router.Route]) throws(RouteConflict) {
    var refuse: [RouteConflict]? = nil
    try self.init(routes: routes, collecting: &refuse)
  }

  /// Builds the index of `routes`. With `conflicts` nil, the first conflict is thrown; with an
  /// array, every conflicting pair is appended to it (later route first; once per pair of
  /// expansions) and both routes are kept, so a URL they both match goes to the route listed
  /// first (rule 6), as the linear scan decides.
  convenience init(routes: [Router.Route], collecting conflicts: inout [RouteConflict]?)
    throws(RouteConflict)
  {
    var builder = Builder(routes: routes)
    // Priorities as dense ranks, so they fit 32 bits and keep their order exactly.
    let priorityRanks = Dictionary(
      uniqueKeysWithValues: Set(routes.map(\.priority)).sorted().enumerated().map {
        ($1, Int32($0))
      })
    for routeIndex in routes.indices {
      let pattern = routes[routeIndex].pattern
      let priority = routes[routeIndex].priority
      builder.addRoute(pattern, priority: priority)
      let root = pattern.scheme.map { builder.root(forScheme: $0) } ?? builder.index.globalRoot
      var flags: UInt8 = 0
      if pattern.scheme != nil { flags |= Terminal.schemeFlag }
      if pattern.domain != nil { flags |= Terminal.domainFlag }
      for expansion in 0..<pattern.expansionCount {
        try builder.insert(
          pattern.expansion(expansion), from: root,
          Terminal(
            route: Int32(routeIndex), expansion: Int16(expansion),
            priority: priorityRanks[priority]!, flags: flags,
            constraints: UInt8(clamping: pattern.constraints.count)), conflicts: &conflicts)
      }
    }
    self.init(builder.finish())
  }

  /// Fills the tables: nodes, literal children straight into the hash table, and per-node
  /// terminal lists as linked lists in one array, flattened at the end.
  private struct Builder {
    let routes: [Router.Route]
    var index = Tables()
    var literalCount = 0
    /// Terminals in insertion order, each with the next one of its list.
    var entries: [(terminal: Terminal, next: Int32)] = []

    /// Scheme -> root node.
    var roots: [String: Int32] = [:]

    init(routes: [Router.Route]) {
      self.routes = routes
      // Room for the usual shapes up front, so the arrays are not copied as they grow.
      index.nodes.reserveCapacity(routes.count * 2 + 1)
      entries.reserveCapacity(routes.count + 1)
      index.text.reserveCapacity(routes.count * 16 + 16)
      index.routeInfo.reserveCapacity(routes.count)
      var capacity = 16
      while capacity < routes.count * 3 { capacity *= 2 }
      index.slots = Array(repeating: Slot(), count: capacity)
      index.slotMask = UInt32(capacity - 1)
      index.nodes.append(Self.emptyNode)
      index.globalRoot = 0
    }

    mutating func root(forScheme scheme: String) -> Int32 {
      // Schemes are lowercase ASCII, so Swift string equality is byte equality here.
      if let root = roots[scheme] { return root }
      let bytes = Array(scheme.utf8)
      let start = Int32(index.text.count)
      index.text += bytes
      let root = newNode()
      index.schemes.append(SchemeRoot(start: start, count: Int32(bytes.count), root: root))
      roots[scheme] = root
      return root
    }

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

    /// While building, a node's three terminal ranges hold the first (`start`) and last
    /// (`count`) entry of its lists (-1: empty); `finish` turns them into real ranges.
    static let emptyNode: Node = {
      var node = Node()
      let empty = TerminalRange(start: -1, count: -1)
      node.terminals = empty
      node.pathTerminals = empty
      node.restTerminals = empty
      return node
    }()

    mutating func newNode() -> Int32 {
      index.nodes.append(Self.emptyNode)
      return Int32(index.nodes.count - 1)
    }

    /// The list (0 exact end, 1 `<path:>`, 2 `*`) of a node, as first and last entry.
    private func list(_ node: Int32, _ list: Int) -> TerminalRange {
      switch list {
      case 0: return index.nodes[Int(node)].terminals
      case 1: return index.nodes[Int(node)].pathTerminals
      default: return index.nodes[Int(node)].restTerminals
      }
    }

    private mutating func setList(_ node: Int32, _ list: Int, _ range: TerminalRange) {
      switch list {
      case 0: index.nodes[Int(node)].terminals = range
      case 1: index.nodes[Int(node)].pathTerminals = range
      default: index.nodes[Int(node)].restTerminals = range
      }
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
      var ends = self.list(current, list)
      var position = ends.start
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
      if ends.count >= 0 {
        entries[Int(ends.count)].next = entry
      } else {
        ends.start = entry
      }
      ends.count = entry
      setList(current, list, ends)
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
      let (hash, word) = RouterIndex.key(bytes, parent: parent)
      var position = Int(hash & index.slotMask)
      while index.slots[position].parent >= 0 {
        let slot = index.slots[position]
        if slot.hash == hash && slot.parent == parent && Int(slot.textCount) == bytes.count
          && index.text[Int(slot.textStart)..<Int(slot.textStart) + bytes.count].elementsEqual(
            bytes)
        {
          return slot.child
        }
        position = (position + 1) & Int(index.slotMask)
      }
      let child = newNode()
      let start = Int32(index.text.count)
      index.text.append(contentsOf: bytes)
      index.slots[position] = Slot(
        word: word, hash: hash, parent: parent, child: child,
        textStart: start, textCount: Int32(bytes.count))
      literalCount += 1
      if literalCount * 2 > index.slots.count { grow() }
      return child
    }

    /// Doubles the hash table (every slot keeps its hash, so nothing is hashed again).
    private mutating func grow() {
      let old = index.slots
      let capacity = old.count * 2
      index.slots = Array(repeating: Slot(), count: capacity)
      index.slotMask = UInt32(capacity - 1)
      for slot in old where slot.parent >= 0 {
        var position = Int(slot.hash & index.slotMask)
        while index.slots[position].parent >= 0 { position = (position + 1) & (capacity - 1) }
        index.slots[position] = slot
      }
    }

    private mutating func child(_ parent: Int32, _ type: CaptureType) -> Int32 {
      let node = index.nodes[Int(parent)]
      let existing: Int32
      switch type {
      case .int: existing = node.int
      case .float: existing = node.float
      case .uuid: existing = node.uuid
      case .string, .path: existing = node.string
      }
      if existing >= 0 { return existing }
      let next = newNode()
      switch type {
      case .int: index.nodes[Int(parent)].int = next
      case .float: index.nodes[Int(parent)].float = next
      case .uuid: index.nodes[Int(parent)].uuid = next
      case .string, .path: index.nodes[Int(parent)].string = next
      }
      return next
    }

    mutating func finish() -> Tables {
      index.terminals.reserveCapacity(entries.count)
      for node in index.nodes.indices {
        for list in 0..<3 {
          var position = self.list(Int32(node), list).start
          guard position >= 0 else {
            setList(Int32(node), list, TerminalRange())
            continue
          }
          let start = Int32(index.terminals.count)
          while position >= 0 {
            index.terminals.append(entries[Int(position)].terminal)
            position = entries[Int(position)].next
          }
          setList(
            Int32(node), list,
            TerminalRange(start: start, count: Int32(index.terminals.count) - start))
          if list == 0 { index.nodes[node].firstTerminal = index.terminals[Int(start)] }
        }
      }
      index.text.append(0)  // never empty, so a base address always exists
      return index
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
