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
  /// The segments' keys in the index, one per segment, once prepared
  /// (``RouterIndex/prepare(_:_:)``).
  var keys: UnsafePointer<RouterIndex.SegmentKey>? = nil
  /// The scheme's place in the index's scheme list once prepared (-1: none there).
  var schemePosition: Int32 = -1
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
    String(unsafeUninitializedCapacity: count) { buffer in
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

  /// The scratch memory ``scan(_:scratch:)`` needs: small enough (1 KiB) that Swift takes it
  /// from the stack.
  static let scratchBytes =
    maxSegments * MemoryLayout<ByteSlice>.stride + maxQueryItems
    * MemoryLayout<QueryPiece>.stride + maxBytes

  /// Calls `body` with the view of `input`, or returns nil when the fast path does not apply.
  @inline(__always)
  static func scan<R>(_ input: UnsafeBufferPointer<UInt8>, _ body: (URLView) -> R) -> R? {
    withUnsafeTemporaryAllocation(
      byteCount: scratchBytes, alignment: MemoryLayout<ByteSlice>.alignment
    ) { raw in
      scan(input, scratch: raw).map(body)
    }
  }

  /// The view of `input`, with its parts in `scratch` (``scratchBytes`` bytes, aligned for
  /// ``ByteSlice``); nil when the fast path does not apply.
  @inline(__always)
  static func scan(_ input: UnsafeBufferPointer<UInt8>, scratch raw: UnsafeMutableRawBufferPointer)
    -> URLView?
  {
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
    return scan(base, input.count, scratch, segments, query)
  }

  @inline(__always)
  private static func scan(
    _ base: UnsafePointer<UInt8>, _ count: Int, _ scratch: UnsafeMutableBufferPointer<UInt8>,
    _ segments: UnsafeMutableBufferPointer<ByteSlice>,
    _ query: UnsafeMutableBufferPointer<QueryPiece>
  ) -> URLView? {
    // The fragment is dropped; the rest must be ASCII here. Eight bytes at a time.
    let end = fragmentStart(base, count)
    guard end >= 0 else { return nil }
    var cursor = 0
    var index = 0
    var scheme: ByteSlice?
    if end > 0, base[0].isASCIILetter {
      var schemeEnd = 1
      while schemeEnd < end {
        let byte = base[schemeEnd]
        guard
          byte.isASCIILetter || byte.isASCIIDigit || byte == 0x2B || byte == 0x2D || byte == 0x2E
        else { break }
        schemeEnd += 1
      }
      if schemeEnd < end, base[schemeEnd] == 0x3A {
        scheme = ByteSlice(start: base, count: schemeEnd)
        index = schemeEnd + 1
      }
    }
    var segmentCount = 0
    var domain: ByteSlice?
    var used = 0  // scratch bytes used by decoding
    if scheme != nil, end - index >= 2, base[index] == 0x2F, base[index + 1] == 0x2F {
      let start = index + 2
      var authorityEnd = start
      var hasDot = false
      while authorityEnd < end {
        let byte = base[authorityEnd]
        if byte == 0x2F || byte == 0x3F { break }
        // User information, ports, IPv6 and escapes in the host: the full reader.
        if byte == 0x40 || byte == 0x5B || byte == 0x3A || byte == 0x25 { return nil }
        if byte == 0x2E { hasDot = true }
        authorityEnd += 1
      }
      let host = ByteSlice(start: base + start, count: authorityEnd - start)
      if host.count > 0 {
        if hasDot || isLocalhost(host) {
          domain = host
        } else {
          segments[0] = host
          segmentCount = 1
        }
      }
      index = authorityEnd
    }

    // Path: split on `/` up to the first `?`, skip empty pieces, decode pieces with `%`.
    var segmentStart = index
    cursor = index
    var hasEscape = false
    var pathEnd = end
    while true {
      let next = firstOf(base, cursor, end, 0x2F, 0x3F, 0x25, 0x2F)
      if next < end, base[next] == 0x25 {
        hasEscape = true
        cursor = next + 1
        continue
      }
      // `next` is a `/`, the `?` or the end: it closes a piece.
      if next > segmentStart {
        guard segmentCount < maxSegments else { return nil }
        var piece = ByteSlice(start: base + segmentStart, count: next - segmentStart)
        if hasEscape {
          guard let decoded = decode(piece, plusAsSpace: false, into: scratch, at: &used) else {
            return nil
          }
          piece = decoded
        }
        if isDotSegment(piece) { return nil }
        segments[segmentCount] = piece
        segmentCount += 1
      }
      if next == end || base[next] == 0x3F {
        pathEnd = next
        break
      }
      segmentStart = next + 1
      hasEscape = false
      cursor = next + 1
    }

    // Query: split on `&`, then on the first `=`; `+` is a space; skip empty pieces.
    var queryCount = 0
    if pathEnd < end {
      var pieceStart = pathEnd + 1
      var position = pieceStart
      var equals = -1
      var needsDecoding = false
      while true {
        let next = firstOf(base, position, end, 0x26, 0x3D, 0x25, 0x2B)
        if next < end, base[next] != 0x26 {
          if base[next] != 0x3D {
            needsDecoding = true
          } else if equals < 0 {
            equals = next
          }
          position = next + 1
          continue
        }
        // `next` is a `&` or the end: it closes a piece.
        if next > pieceStart {
          guard queryCount < maxQueryItems else { return nil }
          let keyEnd = equals >= 0 ? equals : next
          var key = ByteSlice(start: base + pieceStart, count: keyEnd - pieceStart)
          var value = ByteSlice(start: base + next, count: 0)
          if equals >= 0 {
            value = ByteSlice(start: base + equals + 1, count: next - equals - 1)
          }
          if needsDecoding {
            guard let decodedKey = decode(key, plusAsSpace: true, into: scratch, at: &used),
              let decodedValue = decode(value, plusAsSpace: true, into: scratch, at: &used)
            else { return nil }
            key = decodedKey
            value = decodedValue
          }
          query[queryCount] = QueryPiece(key: key, value: value)
          queryCount += 1
        }
        if next == end { break }
        pieceStart = next + 1
        equals = -1
        needsDecoding = false
        position = next + 1
      }
    }
    return URLView(
      scheme: scheme, domain: domain,
      segments: UnsafeBufferPointer(rebasing: segments[0..<segmentCount]),
      query: UnsafeBufferPointer(rebasing: query[0..<queryCount]))
  }

  /// Where the fragment starts (the length when there is none), or -1 when a byte before it is
  /// not ASCII.
  @inline(__always)
  private static func fragmentStart(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var offset = 0
    while offset + 8 <= count {
      let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
      let hashes = word ^ (ones &* 0x23)
      // A zero byte in `hashes` is a `#`; a high bit in `word` is not ASCII.
      if (hashes &- ones) & ~hashes & highs != 0 || word & highs != 0 { break }
      offset += 8
    }
    while offset < count {
      let byte = base[offset]
      if byte == 0x23 { return offset }
      if byte >= 0x80 { return -1 }
      offset += 1
    }
    return count
  }

  /// The first offset in `from..<end` whose byte is one of the four targets, or `end`.
  /// Eight bytes at a time: a zero byte in `word ^ target` is a match, and the lowest such
  /// byte (the first in memory) is always a true one.
  @inline(__always)
  private static func firstOf(
    _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8,
    _ d: UInt8
  ) -> Int {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
    var offset = from
    while offset + 8 <= end {
      let word = UInt64(
        littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
      let found =
        zeros(word ^ (ones &* UInt64(a))) | zeros(word ^ (ones &* UInt64(b)))
        | zeros(word ^ (ones &* UInt64(c))) | zeros(word ^ (ones &* UInt64(d)))
      if found != 0 { return offset + found.trailingZeroBitCount / 8 }
      offset += 8
    }
    while offset < end {
      let byte = base[offset]
      if byte == a || byte == b || byte == c || byte == d { return offset }
      offset += 1
    }
    return end
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
