import CMemory

/// The compiled form of a route list that lookups walk: one segment trie per scheme plus a
/// global one, all in flat arrays of plain values, with literal children found through one
/// open-addressing hash table keyed by (parent node, segment bytes).
///
/// Flat arrays keep the structure small (no per-node dictionaries) and let a lookup compare
/// segments as UTF-8 bytes without making a single `String`.
final class RouterIndex: @unchecked Sendable {
  /// A trie node: its typed children and the routes that end, or start a `<path:>` or `*`, here.
  struct Node: Sendable {
    var int: Int32 = -1
    var float: Int32 = -1
    var uuid: Int32 = -1
    var string: Int32 = -1
    /// Routes that end here (the first also kept inline, to save a memory access).
    var terminals = TerminalRange()
    var firstTerminal = Terminal(route: -1, expansion: 0, priority: 0, flags: 0, constraints: 0)
    /// Routes whose `<path:>` starts here (one or more remaining segments).
    var pathTerminals = TerminalRange()
    /// Routes whose `*` starts here (zero or more remaining segments).
    var restTerminals = TerminalRange()
  }

  /// A run of ``terminals``.
  struct TerminalRange: Sendable {
    var start: Int32 = 0
    var count: Int32 = 0
  }

  /// A route (and which expansion of its optional groups) that ends at a node, with what
  /// ranking needs of it, so ranking reads nothing else.
  struct Terminal: Sendable {
    var route: Int32
    var expansion: Int16
    /// The rank of the route's priority among the table's priorities (higher wins).
    var priority: Int32
    /// ``schemeFlag`` and ``domainFlag``.
    var flags: UInt8
    /// How many query constraints the route has.
    var constraints: UInt8

    static let schemeFlag: UInt8 = 1
    static let domainFlag: UInt8 = 2
  }

  /// One literal child: `child` of `parent` for the segment `text` (a range of ``text``;
  /// up to 8 bytes are also kept inline in `word`, so most compares read only the slot).
  struct Slot: Sendable {
    var word: UInt64 = 0
    var hash: UInt32 = 0
    var parent: Int32 = -1
    var child: Int32 = -1
    var textStart: Int32 = 0
    var textCount: Int32 = 0
  }

  /// Up to 8 bytes as a little-endian word, zero-padded: two overlapping loads, no loop.
  @inline(__always)
  static func word(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    let count = bytes.count
    guard count > 0, let base = bytes.baseAddress else { return 0 }
    if count >= 4 {
      let raw = UnsafeRawPointer(base)
      let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
      let high = UInt64(
        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: min(count, 8) - 4, as: UInt32.self)))
      return low | high << UInt64((min(count, 8) - 4) * 8)
    }
    let middle = count >> 1
    return UInt64(base[0]) | UInt64(base[middle]) << UInt64(middle * 8) | UInt64(
      base[count - 1]) << UInt64((count - 1) * 8)
  }

  /// What ranking and filtering need of a route, without touching its pattern.
  struct RouteInfo: Sendable {
    var priority: Int
    var hasScheme: Bool
    /// The pattern's domain as a range of ``text`` (count -1: none).
    var domainStart: Int32
    var domainCount: Int32
    var constraintStart: Int32
    var constraintCount: Int32
  }

  /// A query constraint with its key and literal as ranges of ``text``.
  struct Constraint: Sendable {
    var keyStart: Int32
    var keyCount: Int32
    /// For a literal value (count -1 for a capture).
    var literalStart: Int32
    var literalCount: Int32
    var type: CaptureType
  }

  /// A scheme's root node, the scheme as a range of ``text`` (lowercase).
  struct SchemeRoot: Sendable {
    var start: Int32
    var count: Int32
    var root: Int32
  }

  /// The arrays a builder fills, before they move into fixed buffers.
  struct Tables {
    var nodes: [Node] = []
    var terminals: [Terminal] = []
    var slots: [Slot] = []
    var slotMask: UInt32 = 0
    var text: [UInt8] = []
    var routeInfo: [RouteInfo] = []
    var constraints: [Constraint] = []
    var schemes: [SchemeRoot] = []
    var globalRoot: Int32 = 0
  }

  // Immutable after `init`, held in raw buffers so a lookup does no reference counting.
  let nodes: UnsafeMutableBufferPointer<Node>
  let terminals: UnsafeMutableBufferPointer<Terminal>
  let slots: UnsafeMutableBufferPointer<Slot>
  let slotMask: UInt32
  /// Every literal, domain, query key and scheme, back to back.
  let text: UnsafeMutableBufferPointer<UInt8>
  let routeInfo: UnsafeMutableBufferPointer<RouteInfo>
  let constraints: UnsafeMutableBufferPointer<Constraint>
  let schemes: UnsafeMutableBufferPointer<SchemeRoot>
  /// The root of the global trie (patterns without a scheme).
  let globalRoot: Int32

  init(_ tables: Tables) {
    func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
      let buffer = Self.allocate(T.self, count: array.count)
      _ = buffer.initialize(from: array)
      return buffer
    }
    nodes = copy(tables.nodes)
    terminals = copy(tables.terminals)
    slots = copy(tables.slots)
    slotMask = tables.slotMask
    text = copy(tables.text)
    routeInfo = copy(tables.routeInfo)
    constraints = copy(tables.constraints)
    schemes = copy(tables.schemes)
    globalRoot = tables.globalRoot
  }

  deinit {
    Self.free(nodes)
    Self.free(terminals)
    Self.free(slots)
    Self.free(text)
    Self.free(routeInfo)
    Self.free(constraints)
    Self.free(schemes)
  }

  /// Arrays from this size up are put on huge pages: a big table's lookups touch memory all
  /// over its index, and ordinary pages would cost a TLB miss on most of those reads.
  static let hugePageThreshold = 1 << 20

  /// Room for `count` values (at least one), on huge pages when big.
  private static func allocate<T>(_: T.Type, count: Int) -> UnsafeMutableBufferPointer<T> {
    let bytes = max(1, count) * MemoryLayout<T>.stride
    let raw = appshell_allocate(bytes, bytes >= hugePageThreshold)
    guard let raw else { fatalError("RouterIndex: out of memory for \(bytes) bytes") }
    return UnsafeMutableBufferPointer(
      start: raw.bindMemory(to: T.self, capacity: max(1, count)), count: count)
  }

  private static func free<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
    appshell_free(UnsafeMutableRawPointer(buffer.baseAddress))
  }

  /// Bytes held, for the memory report.
  var byteCount: Int {
    nodes.count * MemoryLayout<Node>.stride + terminals.count * MemoryLayout<Terminal>.stride
      + slots.count * MemoryLayout<Slot>.stride + text.count + routeInfo.count
      * MemoryLayout<RouteInfo>.stride + constraints.count * MemoryLayout<Constraint>.stride
  }

  /// The hash of a segment under a parent, and its inline word (0 past 8 bytes): up to 8
  /// bytes are mixed as one word, longer segments hashed with FNV-1a; seeded by the parent.
  @inline(__always)
  static func key(_ bytes: UnsafeBufferPointer<UInt8>, parent: Int32) -> (
    hash: UInt32, word: UInt64
  ) {
    if bytes.count <= 8 {
      let word = word(bytes)
      var mixed =
        word &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(UInt32(bitPattern: parent)) << 8
        ^ UInt64(bytes.count)
      mixed ^= mixed >> 29
      mixed &*= 0xBF58_476D_1CE4_E5B9
      mixed ^= mixed >> 32
      return (UInt32(truncatingIfNeeded: mixed), word)
    }
    var hash: UInt32 = 0x811C_9DC5 ^ UInt32(bitPattern: parent) &* 0x0100_0193
    for byte in bytes {
      hash = (hash ^ UInt32(byte)) &* 0x0100_0193
    }
    return (hash ^ (hash >> 15), 0)
  }

  /// The literal child of `parent` for `bytes`, or -1.
  @inline(__always)
  func literalChild(of parent: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    guard !slots.isEmpty else { return -1 }
    let (hash, word) = Self.key(bytes, parent: parent)
    return literalChild(of: parent, bytes, hash: hash, word: word)
  }

  /// The literal child of `parent` for `bytes`, whose ``key(_:parent:)`` is given, or -1.
  @inline(__always)
  func literalChild(
    of parent: Int32, _ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32, word: UInt64
  ) -> Int32 {
    let count = bytes.count
    var index = Int(hash & slotMask)
    while true {
      let slot = slots[index]
      if slot.parent < 0 { return -1 }
      if slot.hash == hash && slot.parent == parent && Int(slot.textCount) == count
        && (count <= 8 ? slot.word == word : equalsText(slot.textStart, slot.textCount, bytes))
      {
        return slot.child
      }
      index = (index + 1) & Int(slotMask)
    }
  }

  /// Whether `bytes` equal the stored text at `start` (`count` bytes).
  @inline(__always)
  func equalsText(_ start: Int32, _ count: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard Int(count) == bytes.count else { return false }
    if count == 0 { return true }
    return memoryEqual(text.baseAddress! + Int(start), bytes.baseAddress!, Int(count))
  }

  /// Whether `bytes`, with ASCII letters lowercased, equal the stored (lowercase) text.
  @inline(__always)
  func equalsTextIgnoringASCIICase(
    _ start: Int32, _ count: Int32, _ bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    guard Int(count) == bytes.count else { return false }
    for offset in 0..<Int(count) {
      var byte = bytes[offset]
      if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
      if text[Int(start) + offset] != byte { return false }
    }
    return true
  }

  /// The root node for a URL's scheme (given as written), or -1.
  @inline(__always)
  func root(forScheme bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    for scheme in schemes where equalsTextIgnoringASCIICase(scheme.start, scheme.count, bytes) {
      return scheme.root
    }
    return -1
  }
}

// MARK: - Walking

extension RouterIndex {
  /// A (route, expansion) that matches, with its order of specificity within its trie
  /// (ROUTING.md section 4, rule 4): lower is more specific.
  struct Candidate {
    var route: Int32 = -1
    var expansion: Int32 = 0
    var specificity: Int32 = 0
    var priority: Int32 = 0
    var flags: UInt8 = 0
    var constraints: UInt8 = 0
  }

  /// Where a walk puts what it finds: the best so far, and every candidate when `all` is set.
  struct Sink {
    var best = Candidate()
    var all: [Candidate]?
  }

  /// The best route for raw URL bytes read in place (-1: none), or nil when the URL needs the
  /// full reader.
  @inline(__always)
  func decide(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
    withUnsafeTemporaryAllocation(
      byteCount: URLScanner.scratchBytes,
      alignment: MemoryLayout<ByteSlice>.alignment
    ) { scratch -> Int32? in
      guard let view = URLScanner.scan(bytes, scratch: scratch) else { return nil }
      var sink = Sink()
      walkAll(view, &sink)
      return sink.best.route
    }
  }

  /// Walks the URL's scheme trie, then the global one.
  @inline(__always)
  func walkAll(_ view: URLView, _ sink: inout Sink) {
    if let scheme = view.scheme {
      let root = view.schemeRoot >= -1 ? view.schemeRoot : root(forScheme: scheme.bytes)
      if root >= 0 {
        var order: Int32 = 0
        walk(root, 0, view, &order, &sink)
      }
    }
    var order: Int32 = 0
    walk(globalRoot, 0, view, &order, &sink)
  }

  /// Rules 1 to 6 of ROUTING.md section 4.
  @inline(__always)
  func isRankedBefore(_ a: Candidate, _ b: Candidate) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    // Scheme-specific first, then with a domain: both flags, scheme the higher bit of rank.
    let flagsA = (a.flags & Terminal.schemeFlag) << 1 | (a.flags & Terminal.domainFlag) >> 1
    let flagsB = (b.flags & Terminal.schemeFlag) << 1 | (b.flags & Terminal.domainFlag) >> 1
    if flagsA != flagsB { return flagsA > flagsB }
    if a.specificity != b.specificity { return a.specificity < b.specificity }
    if a.constraints != b.constraints { return a.constraints > b.constraints }
    if a.route != b.route { return a.route < b.route }
    return a.expansion < b.expansion
  }

  /// Depth-first walk that visits children from the most to the least specific kind, so the
  /// order in which terminal lists are reached is the specificity order of rule 4.
  private func walk(
    _ nodeIndex: Int32, _ segment: Int, _ view: URLView, _ order: inout Int32,
    _ sink: inout Sink
  ) {
    let node = nodes[Int(nodeIndex)]
    let segments = view.segments
    if segment == segments.count {
      if node.terminals.count == 1 {
        order += 1
        consider(node.firstTerminal, view, order, &sink)
      } else {
        collect(node.terminals, view, &order, &sink)
      }
      collect(node.restTerminals, view, &order, &sink)
      return
    }
    let text = segments[segment].bytes
    let literal: Int32
    if let memo = view.memo, memo[2 * segment].parent == nodeIndex {
      literal = memo[2 * segment].child
    } else if let memo = view.memo, memo[2 * segment + 1].parent == nodeIndex {
      literal = memo[2 * segment + 1].child
    } else {
      literal = literalChild(of: nodeIndex, text)
    }
    if literal >= 0 { walk(literal, segment + 1, view, &order, &sink) }
    if node.int >= 0, bytesAreInt(text) { walk(node.int, segment + 1, view, &order, &sink) }
    if node.float >= 0, bytesAreFloat(text) {
      walk(node.float, segment + 1, view, &order, &sink)
    }
    if node.uuid >= 0, bytesAreUUID(text) { walk(node.uuid, segment + 1, view, &order, &sink) }
    if node.string >= 0 { walk(node.string, segment + 1, view, &order, &sink) }
    collect(node.pathTerminals, view, &order, &sink)
    collect(node.restTerminals, view, &order, &sink)
  }

  @inline(__always)
  private func collect(
    _ range: TerminalRange, _ view: URLView, _ order: inout Int32, _ sink: inout Sink
  ) {
    guard range.count > 0 else { return }
    order += 1
    for position in Int(range.start)..<Int(range.start + range.count) {
      consider(terminals[position], view, order, &sink)
    }
  }

  /// Checks a route's domain and query constraints, then hands it to the sink.
  @inline(__always)
  private func consider(
    _ terminal: Terminal, _ view: URLView, _ order: Int32, _ sink: inout Sink
  ) {
    if terminal.flags & Terminal.domainFlag != 0 || terminal.constraints > 0 {
      let info = routeInfo[Int(terminal.route)]
      if info.domainCount >= 0 {
        guard let domain = view.domain,
          equalsTextIgnoringASCIICase(info.domainStart, info.domainCount, domain.bytes)
        else { return }
      }
      if info.constraintCount > 0 && !acceptsConstraints(info, view) { return }
    }
    let candidate = Candidate(
      route: terminal.route, expansion: Int32(terminal.expansion), specificity: order,
      priority: terminal.priority, flags: terminal.flags, constraints: terminal.constraints)
    if sink.all != nil {
      sink.all!.append(candidate)
    } else if sink.best.route < 0 || isRankedBefore(candidate, sink.best) {
      sink.best = candidate
    }
  }

  /// Whether every query constraint of the route holds: its key once, with a fitting value.
  private func acceptsConstraints(_ info: RouteInfo, _ view: URLView) -> Bool {
    let start = Int(info.constraintStart)
    for position in start..<start + Int(info.constraintCount) {
      let constraint = constraints[position]
      var found: ByteSlice?
      for item in view.query
      where equalsText(constraint.keyStart, constraint.keyCount, item.key.bytes) {
        if found != nil { return false }
        found = item.value
      }
      guard let value = found else { return false }
      if constraint.literalCount >= 0 {
        guard equalsText(constraint.literalStart, constraint.literalCount, value.bytes) else {
          return false
        }
      } else if !constraint.type.accepts(value.bytes) {
        return false
      }
    }
    return true
  }
}

/// Byte-wise equality of two memory ranges.
@inline(__always)
func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var offset = 0
  while offset + 8 <= count {
    let x = UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self)
    let y = UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self)
    if x != y { return false }
    offset += 8
  }
  while offset < count {
    if a[offset] != b[offset] { return false }
    offset += 1
  }
  return true
}
