/// A URL as the trie walk sees it: byte ranges for the scheme, the domain, the decoded path
/// segments and the decoded query items, pointing into the caller's memory (ROUTING.md
/// section 3 gives what each range holds).
struct URLView {
  /// The scheme as written (compared ignoring ASCII case), if any.
  var scheme: ByteSlice?
  /// The host when it is a domain (compared ignoring ASCII case), if any.
  var domain: ByteSlice?
  /// The decoded path segments, a host that is not a domain first.
  var segments: UnsafeBufferPointer<ByteSlice>
  /// The decoded query items in order.
  var query: UnsafeBufferPointer<QueryPiece>
  /// The segments' keys in the index, one per segment: made by the reader, or by
  /// ``RouterIndex/prepare(_:_:)`` for a view of a ``RouteURL``.
  var keys: UnsafePointer<RouterIndex.SegmentKey>? = nil
  /// The scheme's place in the index's scheme list once looked up (-1: none there;
  /// ``schemeNotLookedUp`` before).
  var schemePosition: Int32 = URLView.schemeNotLookedUp

  /// The ``schemePosition`` of a view whose scheme has not been looked up yet.
  static let schemeNotLookedUp: Int32 = -2
}

/// A range of bytes somewhere in memory.
struct ByteSlice {
  var start: UnsafePointer<UInt8>?
  var count: Int

  /// The bytes.
  @inline(__always) var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: start, count: count)
  }

  /// The bytes as a string (they are valid UTF-8 wherever a view is made).
  var string: String {
    if let short = ShortASCIIString.make(start, count) { return short }
    return String(unsafeUninitializedCapacity: count) { buffer in
      guard count > 0 else { return 0 }
      buffer.baseAddress!.initialize(from: start!, count: count)
      return count
    }
  }

  /// Byte-wise equality.
  @inline(__always) func equals(_ other: ByteSlice) -> Bool {
    guard count == other.count else { return false }
    guard count > 0 else { return true }
    return memoryEqual(start!, other.start!, count)
  }
}

/// One decoded query item.
struct QueryPiece {
  var key: ByteSlice
  var value: ByteSlice
}

/// Reads raw URL bytes into a ``URLView`` without allocating, for the common case: ASCII
/// URLs whose authority is a plain host, whose escapes decode to ASCII, with no dot segments
/// and at most ``maxSegments`` segments and ``maxQueryItems`` query items. Anything else
/// (and every error) returns nil, and the caller reads the URL with ``RouteURL`` instead, which
/// decides exactly as this would.
enum URLScanner {
  /// Segments the fast path handles.
  static let maxSegments = 16
  /// Query items the fast path handles.
  static let maxQueryItems = 16
  /// The longest URL the fast path handles, in bytes.
  static let maxBytes = 256

  /// The scratch memory ``scan(_:scratch:keys:)`` needs: small enough (1 KiB) that Swift takes it
  /// from the stack.
  static let scratchBytes =
    maxSegments * MemoryLayout<ByteSlice>.stride + maxQueryItems
    * MemoryLayout<QueryPiece>.stride + maxBytes

  /// Calls `body` with the view of `input`, its segment keys made, or returns nil when the
  /// fast path does not apply.
  @inline(__always)
  static func scan<R>(_ input: UnsafeBufferPointer<UInt8>, _ body: (URLView) -> R) -> R? {
    withUnsafeTemporaryAllocation(
      byteCount: scratchBytes, alignment: MemoryLayout<ByteSlice>.alignment
    ) { raw in
      withUnsafeTemporaryAllocation(of: RouterIndex.SegmentKey.self, capacity: maxSegments) {
        keys in
        scan(input, scratch: raw, keys: keys.baseAddress!).map(body)
      }
    }
  }

  /// The view of `input`, with its parts in `scratch` (``scratchBytes`` bytes, aligned for
  /// ``ByteSlice``) and, when `keys` is given (room for ``maxSegments``), its segments' keys
  /// there, made while each segment's bytes are at hand; nil when the fast path does not
  /// apply.
  @inline(__always)
  static func scan(
    _ input: UnsafeBufferPointer<UInt8>, scratch raw: UnsafeMutableRawBufferPointer,
    keys: UnsafeMutablePointer<RouterIndex.SegmentKey>? = nil
  ) -> URLView? {
    guard let base = input.baseAddress, !input.isEmpty, input.count <= maxBytes else {
      return nil
    }
    let segmentBytes = maxSegments * MemoryLayout<ByteSlice>.stride
    let queryBytes = maxQueryItems * MemoryLayout<QueryPiece>.stride
    let segments = UnsafeMutableBufferPointer(
      start: raw.baseAddress!.bindMemory(to: ByteSlice.self, capacity: maxSegments),
      count: maxSegments)
    let query = UnsafeMutableBufferPointer(
      start: (raw.baseAddress! + segmentBytes).bindMemory(
        to: QueryPiece.self, capacity: maxQueryItems),
      count: maxQueryItems)
    let scratch = UnsafeMutableBufferPointer(
      start: (raw.baseAddress! + segmentBytes + queryBytes).bindMemory(
        to: UInt8.self, capacity: input.count),
      count: input.count)
    return scan(base, input.count, scratch, segments, keys, query)
  }

  /// The view of the `count` bytes at `base` (at least one), with its segments, keys and query
  /// items in the buffers given; nil when the fast path does not apply.
  @inline(__always)
  private static func scan(
    _ base: UnsafePointer<UInt8>, _ count: Int, _ scratch: UnsafeMutableBufferPointer<UInt8>,
    _ segments: UnsafeMutableBufferPointer<ByteSlice>,
    _ keys: UnsafeMutablePointer<RouterIndex.SegmentKey>?,
    _ query: UnsafeMutableBufferPointer<QueryPiece>
  ) -> URLView? {
    // One pass from the start: the fragment (from the first `#`) is dropped where it is met,
    // and a byte that is not ASCII before it sends the URL to the full reader.
    var end = count
    var index = 0
    var scheme: ByteSlice?
    if base[0] & 0xDF &- 0x41 < 26 {  // a letter
      var schemeEnd = 0  // where the scheme's `:` is; 0: no scheme
      let first = count >= 8 ? word(base, 0) : 0
      let colons = matches(first, 0x3A)
      if colons != 0 {
        // A scheme of up to 7 bytes, read as one word: it is one if the bytes before the
        // first `:` are all scheme bytes.
        let colon = colons.trailingZeroBitCount &>> 3
        let before = (1 &<< UInt64(colon &<< 3)) &- 1
        if schemeBytes(first) | ~before & highBits == highBits { schemeEnd = colon }
      } else {
        var end = 1
        while end < count, isSchemeByte(base[end]) { end &+= 1 }
        if end < count, base[end] == 0x3A { schemeEnd = end }
      }
      if schemeEnd > 0 {
        scheme = ByteSlice(start: base, count: schemeEnd)
        index = schemeEnd &+ 1
      }
    }
    var segmentCount = 0
    var domain: ByteSlice?
    var used = 0  // scratch bytes used by decoding
    if scheme != nil, count &- index >= 2, base[index] == 0x2F, base[index &+ 1] == 0x2F {
      let start = index &+ 2
      guard let (authorityEnd, hasDot) = readHost(base, start, count) else { return nil }
      if authorityEnd < count, base[authorityEnd] == 0x23 { end = authorityEnd }
      let host = ByteSlice(start: base + start, count: authorityEnd &- start)
      if host.count > 0 {
        if hasDot || isLocalhost(host) {
          domain = host
        } else {
          segments[0] = host
          keys?[0] = RouterIndex.SegmentKey(host.bytes)
          segmentCount = 1
        }
      }
      index = authorityEnd
    }

    // Path: split on `/` up to the first `?`, skip empty pieces, decode pieces with `%`.
    var segmentStart = index
    var cursor = index
    var hasEscape = false
    var pathEnd = end
    while true {
      var next = firstOf(base, cursor, end, 0x2F, 0x3F, 0x25, 0x23)
      if next < end {
        let byte = base[next]
        if byte == 0x25 {
          hasEscape = true
          cursor = next &+ 1
          continue
        }
        if byte >= 0x80 { return nil }
        if byte == 0x23 { end = next }
      }
      next = min(next, end)
      // `next` is a `/`, the `?` or the end: it closes a piece.
      if next > segmentStart {
        guard segmentCount < maxSegments else { return nil }
        var piece = ByteSlice(start: base + segmentStart, count: next &- segmentStart)
        if hasEscape {
          guard let decoded = decode(piece, plusAsSpace: false, into: scratch, at: &used) else {
            return nil
          }
          piece = decoded
        }
        if isDotSegment(piece) { return nil }
        segments[segmentCount] = piece
        keys?[segmentCount] = RouterIndex.SegmentKey(piece.bytes)
        segmentCount &+= 1
      }
      if next == end || base[next] == 0x3F {
        pathEnd = next
        break
      }
      segmentStart = next &+ 1
      hasEscape = false
      cursor = next &+ 1
    }

    // Query: split on `&`, then on the first `=`; `+` is a space; skip empty pieces.
    var queryCount = 0
    if pathEnd < end {
      var pieceStart = pathEnd &+ 1
      var position = pieceStart
      var equals = -1
      var needsDecoding = false
      while true {
        var next = firstOf(base, position, end, 0x26, 0x3D, 0x25, 0x2B, 0x23)
        if next < end {
          let byte = base[next]
          if byte >= 0x80 { return nil }
          if byte == 0x23 {
            end = next
          } else if byte != 0x26 {
            if byte != 0x3D {
              needsDecoding = true
            } else if equals < 0 {
              equals = next
            }
            position = next &+ 1
            continue
          }
        }
        next = min(next, end)
        // `next` is a `&` or the end: it closes a piece.
        if next > pieceStart {
          guard queryCount < maxQueryItems else { return nil }
          let keyEnd = equals >= 0 ? equals : next
          var key = ByteSlice(start: base + pieceStart, count: keyEnd &- pieceStart)
          var value = ByteSlice(start: base + next, count: 0)
          if equals >= 0 {
            value = ByteSlice(start: base + equals + 1, count: next &- equals &- 1)
          }
          if needsDecoding {
            guard let decodedKey = decode(key, plusAsSpace: true, into: scratch, at: &used),
              let decodedValue = decode(value, plusAsSpace: true, into: scratch, at: &used)
            else { return nil }
            key = decodedKey
            value = decodedValue
          }
          query[queryCount] = QueryPiece(key: key, value: value)
          queryCount &+= 1
        }
        if next == end { break }
        pieceStart = next &+ 1
        equals = -1
        needsDecoding = false
        position = next &+ 1
      }
    }
    return URLView(
      scheme: scheme, domain: domain,
      segments: UnsafeBufferPointer(rebasing: segments[0..<segmentCount]),
      query: UnsafeBufferPointer(rebasing: query[0..<queryCount]),
      keys: keys.map { UnsafePointer($0) })
  }

  /// The bytes of `word` that may be in a scheme (a letter, a digit, `+`, `-` or `.`), as
  /// their high bits; exact in every byte, unlike ``matches(_:_:)``.
  @inline(__always)
  private static func schemeBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let low = word & ~highBits  // each byte below 0x80, so sums stay within their byte
    /// The bytes of `low` from `first` to `last`.
    func within(_ value: UInt64, _ first: UInt64, _ last: UInt64) -> UInt64 {
      (value &+ ones &* (0x80 &- first)) & ~(value &+ ones &* (0x7F &- last)) & highBits
    }
    /// The bytes of `low` equal to `byte`.
    func equal(_ byte: UInt64) -> UInt64 {
      let x = low ^ ones &* byte
      return ~((x &+ ones &* 0x7F) | x) & highBits
    }
    let letters = within(low | ones &* 0x20, 0x61, 0x7A)
    let digits = within(low, 0x30, 0x39)
    let marks = equal(0x2B) | equal(0x2D) | equal(0x2E)
    return (letters | digits | marks) & ~word
  }

  /// Whether a byte may follow a scheme's first letter: a letter, a digit, `+`, `-` or `.`
  /// (one bit per ASCII byte).
  @inline(__always)
  private static func isSchemeByte(_ byte: UInt8) -> Bool {
    let low: UInt64 = 1 << 0x2B | 1 << 0x2D | 1 << 0x2E | 0x3FF << 0x30
    let high: UInt64 = 0x3FF_FFFF << (0x41 - 64) | 0x3FF_FFFF << (0x61 - 64)
    return byte < 0x80 && (byte < 64 ? low : high) >> UInt64(byte & 63) & 1 != 0
  }

  /// Reads a host from `start`: where it ends (at a `/`, `?` or `#`, or at `count`) and
  /// whether it has a dot; nil when it holds user information, a port, an IPv6 address, an
  /// escape or a byte that is not ASCII (`@`, `:`, `[`, `%`, 0x80 and up), which the full
  /// reader handles. Eight bytes at a time, as ``firstOf(_:_:_:_:_:_:_:_:)``.
  @inline(__always)
  private static func readHost(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int)
    -> (end: Int, hasDot: Bool)?
  {
    var offset = start
    var hasDot = false
    if count < 8 {
      while offset < count {
        let byte = base[offset]
        if byte == 0x2F || byte == 0x3F || byte == 0x23 { break }
        if byte == 0x40 || byte == 0x3A || byte == 0x5B || byte == 0x25 || byte >= 0x80 {
          return nil
        }
        if byte == 0x2E { hasDot = true }
        offset &+= 1
      }
      return (offset, hasDot)
    }
    while offset < count {
      let whole = offset &+ 8 <= count
      let word = whole ? word(base, offset) : lastWord(base, offset, count)
      let ends = matches(word, 0x2F) | matches(word, 0x3F) | matches(word, 0x23)
      // The bytes before the first end (a false match only ever follows a true one).
      let before = ends == 0 ? UInt64.max : (ends & (0 &- ends)) &- 1
      let bad =
        matches(word, 0x40) | matches(word, 0x3A) | matches(word, 0x5B) | matches(word, 0x25) | word
        & highBits
      if bad & before != 0 { return nil }
      if matches(word, 0x2E) & before != 0 { hasDot = true }
      if ends != 0 { return (offset &+ ends.trailingZeroBitCount &>> 3, hasDot) }
      offset = whole ? offset &+ 8 : count
    }
    return (count, hasDot)
  }

  /// The first offset in `from..<end` whose byte is one of the targets or is not ASCII, or
  /// `end`. Eight bytes at a time: a zero byte in `word ^ target` is a match, and the lowest
  /// such byte (the first in memory) is always a true one.
  @inline(__always)
  private static func firstOf(
    _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8,
    _ d: UInt8, _ e: UInt8? = nil
  ) -> Int {
    @inline(__always) func found(_ word: UInt64) -> UInt64 {
      var found =
        matches(word, a) | matches(word, b) | matches(word, c) | matches(word, d) | word
        & highBits
      if let e { found |= matches(word, e) }
      return found
    }
    var offset = from
    while offset &+ 8 <= end {
      let bits = found(word(base, offset))
      if bits != 0 { return offset &+ bits.trailingZeroBitCount &>> 3 }
      offset &+= 8
    }
    guard offset < end else { return end }
    if end >= 8 {
      let bits = found(lastWord(base, offset, end))
      return bits != 0 ? offset &+ bits.trailingZeroBitCount &>> 3 : end
    }
    while offset < end {
      let byte = base[offset]
      if byte == a || byte == b || byte == c || byte == d || byte == e || byte >= 0x80 {
        return offset
      }
      offset &+= 1
    }
    return end
  }

  /// The high bit of every byte of a word.
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The bytes of `word` equal to `byte`, as their high bits: the lowest is always a true
  /// match; a false one only ever follows a true one (a borrow from it).
  @inline(__always)
  private static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let x = word ^ (ones &* UInt64(byte))
    return (x &- ones) & ~x & highBits
  }

  /// The eight bytes at `offset`, the first in the lowest byte.
  @inline(__always)
  private static func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
  }

  /// The fewer than eight bytes from `offset` to `end` (at least 8) as a word: the one ending
  /// at `end`, with the bytes before `offset` shifted out. The zero bytes shifted in match no
  /// target and are ASCII.
  @inline(__always)
  private static func lastWord(_ base: UnsafePointer<UInt8>, _ offset: Int, _ end: Int)
    -> UInt64
  {
    word(base, end &- 8) &>> UInt64(truncatingIfNeeded: (8 &- (end &- offset)) &<< 3)
  }

  /// `localhost` in any ASCII case.
  @inline(__always)
  private static func isLocalhost(_ host: ByteSlice) -> Bool {
    guard host.count == 9 else { return false }
    let expected: StaticString = "localhost"
    let bytes = host.bytes
    return expected.withUTF8Buffer { word in
      for offset in 0..<9 where bytes[offset] | 0x20 != word[offset] { return false }
      return true
    }
  }

  /// Whether a segment is `.` or `..`, which the full reader resolves.
  @inline(__always)
  private static func isDotSegment(_ piece: ByteSlice) -> Bool {
    let bytes = piece.bytes
    if piece.count == 1 { return bytes[0] == 0x2E }
    if piece.count == 2 { return bytes[0] == 0x2E && bytes[1] == 0x2E }
    return false
  }

  /// Percent-decodes `piece` into `scratch` at `used`; nil for a bad escape or a decoded byte
  /// that is not ASCII (the full reader then checks UTF-8).
  private static func decode(
    _ piece: ByteSlice, plusAsSpace: Bool, into scratch: UnsafeMutableBufferPointer<UInt8>,
    at used: inout Int
  ) -> ByteSlice? {
    let start = used
    let bytes = piece.bytes
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x25 {
        guard bytes.count - index >= 3, let high = bytes[index + 1].hexValue,
          let low = bytes[index + 2].hexValue
        else { return nil }
        let decoded = high << 4 | low
        guard decoded < 0x80 else { return nil }
        scratch[used] = decoded
        index += 3
      } else {
        scratch[used] = plusAsSpace && byte == 0x2B ? 0x20 : byte
        index += 1
      }
      used += 1
    }
    return ByteSlice(start: UnsafePointer(scratch.baseAddress! + start), count: used - start)
  }
}

extension RouteURL {
  /// Calls `body` with a view of this URL (its parts copied into one buffer).
  func withView<R>(_ body: (URLView) -> R) -> R {
    var storage: [UInt8] = []
    var ranges: [(Int, Int)] = []
    func add(_ text: String) {
      ranges.append((storage.count, text.utf8.count))
      storage += text.utf8
    }
    add(scheme ?? "")
    add(domain ?? "")
    for segment in segments { add(segment) }
    for item in query {
      add(item.key)
      add(item.value)
    }
    storage.append(0)
    return storage.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      func slice(_ index: Int) -> ByteSlice {
        ByteSlice(start: base + ranges[index].0, count: ranges[index].1)
      }
      let segmentSlices = (0..<segments.count).map { slice(2 + $0) }
      let pieces = (0..<query.count).map {
        QueryPiece(
          key: slice(2 + segments.count + 2 * $0), value: slice(3 + segments.count + 2 * $0))
      }
      return segmentSlices.withUnsafeBufferPointer { segmentBuffer in
        pieces.withUnsafeBufferPointer { queryBuffer in
          body(
            URLView(
              scheme: scheme == nil ? nil : slice(0), domain: domain == nil ? nil : slice(1),
              segments: segmentBuffer, query: queryBuffer))
        }
      }
    }
  }
}
