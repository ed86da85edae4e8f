import CMemory

/// The compiled form of a route list that lookups walk: one segment trie per scheme plus a
/// global one, every node an entry of one open-addressing hash table, at the place the hash of
/// its path from the root gives.
///
/// Because a node's place follows from its path alone, a lookup knows where every node along a
/// URL's literal path lives before reading any of them, and can fetch them all from memory at
/// once instead of one trie level after another. Flat arrays of plain values keep the index
/// small, and segments are compared as UTF-8 bytes without making a single `String`.
final class RouterIndex: @unchecked Sendable {
  /// A trie node: the edge that leads to it from its parent (the key it is found by), which
  /// typed children it has, and the routes that end, or start a `<path:>` or `*`, here.
  struct Entry: Sendable {
    /// The edge's bytes for a literal of up to 8 bytes (little-endian, zero-padded); for a
    /// longer literal, its 32-bit hash with the offset of its text (``longText(_:)``) above;
    /// 0 for a typed edge; a root's number.
    var word: UInt64 = 0
    /// The parent entry (-1: an empty place; -2: a root).
    var parent: Int32 = -1
    /// The edge kind (``Edge``) in bits 0-3; the typed children there are in bits 4-7;
    /// ``Edge/inline`` when the node's one terminal is kept in the entry; the flags
    /// ``Edge/literalChildren`` and ``Edge/branches``; the subtree's bound in bits 16-31.
    var edge: UInt32 = 0
    /// The node's terminals: the one route that ends here, when that is all (``Edge/inline``);
    /// otherwise where its lists start in ``terminals`` and how long each is.
    var lists: (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)

    /// Where this node's terminals start: `endCount` routes that end here, then `pathCount`
    /// whose `<path:>` starts here, then `restCount` whose `*` starts here.
    var terminalStart: Int32 { lists.0 }
    /// How many routes end here.
    var endCount: Int32 { lists.1 }
    /// How many routes' `<path:>` starts here.
    var pathCount: Int32 { lists.2 }
    /// How many routes' `*` starts here.
    var restCount: Int32 { lists.3 }

    /// The one terminal kept in the entry.
    var inlineTerminal: Terminal {
      Terminal(
        route: lists.0, priority: lists.1, expansion: Int16(truncatingIfNeeded: lists.2),
        flags: UInt8(truncatingIfNeeded: lists.2 >> 16),
        constraints: UInt8(truncatingIfNeeded: lists.2 >> 24))
    }

    /// Keeps `terminal` in the entry, as the node's only one.
    mutating func setInline(_ terminal: Terminal) {
      edge |= Edge.inline
      let packed =
        UInt32(UInt16(bitPattern: terminal.expansion)) | UInt32(terminal.flags) << 16
        | UInt32(terminal.constraints) << 24
      lists = (terminal.route, terminal.priority, Int32(bitPattern: packed), 0)
    }
  }

  /// The kinds of edge, as kept in bits 0-3 of ``Entry/edge``: a literal's length up to 8,
  /// then the other kinds; and the bits that say which typed children a node has.
  enum Edge {
    /// A literal longer than 8 bytes.
    static let longLiteral: UInt32 = 9
    /// Typed edges, by the kind of value they take.
    static let int: UInt32 = 10
    static let float: UInt32 = 11
    static let uuid: UInt32 = 12
    static let string: UInt32 = 13
    /// No edge: a trie's root.
    static let root: UInt32 = 14
    /// The bits of ``Entry/edge`` that hold the edge kind.
    static let kindMask: UInt32 = 0xF
    /// Set when the entry keeps its node's only terminal (``Entry/inlineTerminal``).
    static let inline: UInt32 = 0x100
    /// Set when the node has literal children (else a search for one is skipped).
    static let literalChildren: UInt32 = 0x200
    /// The bits that say which typed children a node has.
    static let childMask: UInt32 = 0xF0
    /// Set when a walk has more to try at the node than its literal child: typed children, or
    /// routes whose `<path:>` or `*` starts there.
    static let branches: UInt32 = 0x400
    /// Where the subtree's bound starts in ``Entry/edge``: the highest
    /// ``rankKey(priority:flags:)`` of the routes at or below the node, in the top 16 bits.
    static let boundShift: UInt32 = 16
    /// The bound of a subtree that may hold any route (priorities too many to count).
    static let unbounded: UInt32 = 0xFFFF

    /// The bound of the subtree at and below an entry with this edge.
    @inline(__always) static func bound(_ edge: UInt32) -> Int32 {
      Int32(truncatingIfNeeded: edge >> boundShift)
    }

    /// What rules 1 to 3 of ROUTING.md section 4 rank a route by, as one number: its priority
    /// rank (up to ``maxBoundPriority``), then scheme-specific, then with a domain (higher
    /// wins). A route can outrank one found before it in a walk only with a higher key, since
    /// a later one is less specific; a subtree with priority ranks beyond the cap is
    /// ``unbounded`` and never skipped.
    @inline(__always) static func rankKey(priority: Int32, flags: UInt8) -> Int32 {
      min(priority, maxBoundPriority) << 2 | Int32(Terminal.flagRank(flags))
    }

    /// The highest priority rank a bound tells apart; a subtree with a higher one is
    /// ``unbounded``.
    static let maxBoundPriority: Int32 = 0x3FFE

    /// The bit of ``Entry/edge`` that says a node has a typed child of `kind`.
    @inline(__always) static func childBit(_ kind: UInt32) -> UInt32 { 1 << (kind - 6) }

    /// The hash of a typed edge, in place of a segment's.
    @inline(__always) static func hash(_ kind: UInt32) -> UInt64 {
      0xA076_1D64_78BD_642F &* UInt64(kind)
    }
  }

  /// A route (and which expansion of its optional groups) that ends at a node, with what
  /// ranking needs of it, so ranking reads nothing else.
  struct Terminal: Sendable {
    /// The route's index in the table.
    var route: Int32
    /// The rank of the route's priority among the table's priorities (higher wins).
    var priority: Int32
    /// Which expansion of the route's optional groups ends here.
    var expansion: Int16
    /// ``schemeFlag`` and ``domainFlag``.
    var flags: UInt8
    /// How many query constraints the route has.
    var constraints: UInt8

    static let schemeFlag: UInt8 = 1
    static let domainFlag: UInt8 = 2

    /// Rules 2 and 3 of ROUTING.md section 4 as one rank (higher wins): scheme-specific
    /// first, then with a domain.
    @inline(__always) static func flagRank(_ flags: UInt8) -> UInt8 {
      (flags & schemeFlag) << 1 | (flags & domainFlag) >> 1
    }
  }

  /// The hash of a node's path from the hash of its parent's and of the edge between them.
  /// One multiplication mixes enough: ``home(_:)`` reads the product's top bits, which every
  /// bit of `path ^ edge` moves.
  @inline(__always)
  static func step(_ path: UInt64, _ edge: UInt64) -> UInt64 {
    (path ^ edge) &* 0xBF58_476D_1CE4_E5B9
  }

  /// The path hash of the global trie's root.
  static let globalPath: UInt64 = 0x5EED_0F_A11_0F_C0DE
  /// What a scheme root's path hash is made from with the scheme's hash: not ``globalPath``,
  /// or the scheme's trie would share every place with a global literal named like it.
  static let schemeSeed: UInt64 = 0x5C4E_3E00_D00D_F00D

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

  /// A scheme's root: the scheme as a range of ``text`` (lowercase) and, up to 8 bytes, as a
  /// word; the root entry and the root's path hash.
  struct SchemeRoot: Sendable {
    /// The scheme as a range of ``text``.
    var start: Int32
    var count: Int32
    /// The root entry.
    var root: Int32
    /// The root's path hash.
    var path: UInt64
    /// The scheme as a word when it has up to 8 bytes (else 0).
    var word: UInt64
  }

  /// The arrays a builder fills, before they move into fixed buffers.
  struct Tables {
    var entries: [Entry] = []
    var terminals: [Terminal] = []
    var text: [UInt8] = []
    var routeInfo: [RouteInfo] = []
    var constraints: [Constraint] = []
    var schemes: [SchemeRoot] = []
    var globalRoot: Int32 = 0
    /// How far entries were placed from their homes, in places: the mean and the longest.
    var placement: (mean: Double, longest: Int) = (0, 0)
  }

  // Immutable after `init`, held in raw buffers so a lookup does no reference counting.
  /// The hash table of trie nodes.
  let entries: UnsafeMutableBufferPointer<Entry>
  /// The terminal lists of the nodes that do not keep their one terminal inline.
  let terminals: UnsafeMutableBufferPointer<Terminal>
  /// Every long literal, domain, query key and scheme, back to back.
  let text: UnsafeMutableBufferPointer<UInt8>
  /// What ranking and filtering need of each route, by route index.
  let routeInfo: UnsafeMutableBufferPointer<RouteInfo>
  /// The routes' query constraints (``RouteInfo/constraintStart``).
  let constraints: UnsafeMutableBufferPointer<Constraint>
  /// The scheme tries' roots.
  let schemes: UnsafeMutableBufferPointer<SchemeRoot>
  /// The places in ``schemes`` of the schemes of up to 8 bytes, by a hash of their lowercased
  /// word (-1: free), so that finding one takes a single comparison whatever the number of
  /// schemes. Half the slots at least are free.
  let schemeSlots: UnsafeMutableBufferPointer<Int32>
  /// Shifts a scheme word's hash product down to a slot of ``schemeSlots``.
  let schemeShift: UInt64
  /// The root of the global trie (patterns without a scheme).
  let globalRoot: Int32
  /// How far, in places, entries sit past their homes on average and at most: what a search
  /// for a node costs beyond its first place (a check on the hash table's health).
  let placement: (mean: Double, longest: Int)
  /// Whether a lookup fetches its literal path's entries before walking: from
  /// ``prefetchThreshold`` bytes, where the index no longer fits a core's own cache.
  let prefetches: Bool

  init(_ tables: Tables) {
    func copy<T>(_ array: [T]) -> UnsafeMutableBufferPointer<T> {
      let buffer = Self.allocate(T.self, count: array.count)
      _ = buffer.initialize(from: array)
      return buffer
    }
    entries = copy(tables.entries)
    terminals = copy(tables.terminals)
    text = copy(tables.text)
    routeInfo = copy(tables.routeInfo)
    constraints = copy(tables.constraints)
    schemes = copy(tables.schemes)
    var slotBits = 2
    while 1 << slotBits < 2 * schemes.count { slotBits += 1 }
    schemeShift = UInt64(64 - slotBits)
    schemeSlots = Self.allocate(Int32.self, count: 1 << slotBits)
    schemeSlots.initialize(repeating: -1)
    for position in schemes.indices where schemes[position].word != 0 {
      var slot = Self.schemeSlot(schemes[position].word, schemeShift)
      while schemeSlots[slot] >= 0 { slot = Self.nextSlot(slot, of: schemeSlots) }
      schemeSlots[slot] = Int32(position)
    }
    globalRoot = tables.globalRoot
    placement = tables.placement
    prefetches =
      Self.byteCount(entries, terminals, text, routeInfo, constraints) >= Self.prefetchThreshold
  }

  deinit {
    Self.free(entries)
    Self.free(terminals)
    Self.free(text)
    Self.free(routeInfo)
    Self.free(constraints)
    Self.free(schemes)
    Self.free(schemeSlots)
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
    Self.byteCount(entries, terminals, text, routeInfo, constraints) + schemes.count
      * MemoryLayout<SchemeRoot>.stride + schemeSlots.count * MemoryLayout<Int32>.stride
  }

  private static func byteCount(
    _ entries: UnsafeMutableBufferPointer<Entry>,
    _ terminals: UnsafeMutableBufferPointer<Terminal>, _ text: UnsafeMutableBufferPointer<UInt8>,
    _ routeInfo: UnsafeMutableBufferPointer<RouteInfo>,
    _ constraints: UnsafeMutableBufferPointer<Constraint>
  ) -> Int {
    entries.count * MemoryLayout<Entry>.stride + terminals.count
      * MemoryLayout<Terminal>.stride + text.count + routeInfo.count
      * MemoryLayout<RouteInfo>.stride + constraints.count * MemoryLayout<Constraint>.stride
  }

  /// The place in ``entries`` where the search for the node with path hash `path` starts.
  @inline(__always)
  func home(_ path: UInt64) -> Int {
    Int(truncatingIfNeeded: ((path >> 32) &* UInt64(entries.count)) >> 32)
  }

  /// The child of `parent`, whose path hash is `path`, along an edge of `kind` with `word`
  /// (a literal of up to 8 bytes, or a typed edge), or -1.
  @inline(__always)
  func child(_ path: UInt64, of parent: Int32, word: UInt64, kind: UInt32) -> Int32 {
    let base = entries.baseAddress!
    var position = home(path)
    while true {
      let entry = base + position
      if entry.pointee.parent == parent && entry.pointee.word == word
        && entry.pointee.edge & Edge.kindMask == kind
      {
        return Int32(truncatingIfNeeded: position)
      }
      if entry.pointee.parent == -1 { return -1 }
      position += 1
      if position == entries.count { position = 0 }
    }
  }

  /// The literal child of `parent` for a segment longer than 8 bytes, or -1.
  func longChild(
    _ path: UInt64, of parent: Int32, _ key: SegmentKey, _ bytes: UnsafeBufferPointer<UInt8>
  ) -> Int32 {
    let base = entries.baseAddress!
    var position = home(path)
    while true {
      let entry = base + position
      if entry.pointee.parent == parent
        && UInt32(truncatingIfNeeded: entry.pointee.word) == UInt32(truncatingIfNeeded: key.word)
        && entry.pointee.edge & Edge.kindMask == Edge.longLiteral
        && equalsLongText(entry.pointee.word, bytes)
      {
        return Int32(truncatingIfNeeded: position)
      }
      if entry.pointee.parent == -1 { return -1 }
      position += 1
      if position == entries.count { position = 0 }
    }
  }

  /// Whether `bytes` are the text of the long literal edge whose entry's word is `word` (kept
  /// in ``text`` as a little-endian 4-byte length, then the bytes).
  @inline(__always)
  func equalsLongText(_ word: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = Int(word >> 32)
    let count = UInt32(
      littleEndian: UnsafeRawPointer(text.baseAddress! + start).loadUnaligned(as: UInt32.self))
    return Int(count) == bytes.count
      && memoryEqual(text.baseAddress! + start + 4, bytes.baseAddress!, bytes.count)
  }

  /// The literal child of `node` for a segment's `bytes` and `key`, whose path hash is `path`
  /// (-1: none).
  @inline(__always)
  func literalChild(
    _ path: UInt64, of node: Int32, _ key: SegmentKey, _ bytes: UnsafeBufferPointer<UInt8>
  ) -> Int32 {
    key.kind <= 8
      ? child(path, of: node, word: key.word, kind: key.kind)
      : longChild(path, of: node, key, bytes)
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
    let length = Int(count)
    if length >= 8 {
      // Eight ASCII bytes at a time, the last word overlapping the one before: bytes from
      // 0x41 to 0x5A get bit 5 set.
      let stored = UnsafeRawPointer(text.baseAddress! + Int(start))
      let given = UnsafeRawPointer(bytes.baseAddress!)
      let highs: UInt64 = 0x8080_8080_8080_8080
      var offset = 0
      while true {
        let at = min(offset, length &- 8)
        let word = given.loadUnaligned(fromByteOffset: at, as: UInt64.self)
        guard word & highs == 0 else { break }  // not ASCII: byte by byte
        let upper =
          (word &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(word &+ 0x2525_2525_2525_2525) & highs
        if word | upper &>> 2 != stored.loadUnaligned(fromByteOffset: at, as: UInt64.self) {
          return false
        }
        if at == length &- 8 { return true }
        offset &+= 8
      }
    }
    for offset in 0..<Int(count) {
      var byte = bytes[offset]
      if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
      if text[Int(start) + offset] != byte { return false }
    }
    return true
  }

  /// The slot after `slot` in ``schemeSlots``, wrapping around.
  @inline(__always)
  private static func nextSlot(_ slot: Int, of slots: UnsafeMutableBufferPointer<Int32>) -> Int {
    (slot + 1) & (slots.count - 1)
  }

  /// Where the search for a scheme's word in ``schemeSlots`` starts.
  @inline(__always)
  private static func schemeSlot(_ word: UInt64, _ shift: UInt64) -> Int {
    Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The place in ``schemes`` of a URL's scheme (given as written), or -1.
  @inline(__always)
  func schemePosition(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    let count = bytes.count
    if count > 0 && count <= 8 {
      // Setting bit 5 of each byte lowercases a letter and keeps a digit, `+`, `-` or `.`;
      // a byte with bits 5 and 6 clear (a control character) would pass for one of those, so
      // such a scheme matches nothing.
      let lanes: UInt64 = 0x6060_6060_6060_6060
      let inside = UInt64.max >> UInt64(64 - 8 * count)
      let word = SegmentKey.word(bytes)
      let classes = word & lanes | lanes & ~inside
      let ones: UInt64 = 0x0101_0101_0101_0101
      guard (classes &- ones) & ~classes & (ones << 7) == 0 else { return -1 }
      let lowered = word | 0x2020_2020_2020_2020 & inside
      var slot = Self.schemeSlot(lowered, schemeShift)
      while true {
        let position = schemeSlots[slot]
        if position < 0 { return -1 }
        // The count too, as a safeguard: a word hides trailing zero bytes, which no scheme the
        // pattern parser accepts has.
        let scheme = schemes[Int(position)]
        if scheme.word == lowered && Int(scheme.count) == count { return position }
        slot = Self.nextSlot(slot, of: schemeSlots)
      }
    }
    for position in schemes.indices
    where equalsTextIgnoringASCIICase(schemes[position].start, schemes[position].count, bytes) {
      return Int32(position)
    }
    return -1
  }
}
