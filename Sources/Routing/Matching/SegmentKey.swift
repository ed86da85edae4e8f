/// How segments become keys of the index: the key a lookup searches a node's literal
/// children by, made once per URL segment by the reader or ``RouterIndex/prepare(_:_:)``.
extension RouterIndex {
  /// A URL segment as the hash table needs it: its hash, and its key word and edge kind as an
  /// ``Entry`` holds them (for a long segment, the word is its 32-bit hash).
  struct SegmentKey {
    /// The segment's hash, from which its node's path hash is made (``step(_:_:)``).
    var hash: UInt64
    /// The word an ``Entry`` of this edge holds (for a long segment, its 32-bit hash).
    var word: UInt64
    /// The edge kind: the length up to 8, else ``Edge/longLiteral``.
    var kind: UInt32

    /// A key made of its parts.
    @inline(__always)
    init(hash: UInt64, word: UInt64, kind: UInt32) {
      self.hash = hash
      self.word = word
      self.kind = kind
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
          UInt32(
            littleEndian: raw.loadUnaligned(fromByteOffset: min(count, 8) - 4, as: UInt32.self)))
        return low | high << UInt64((min(count, 8) - 4) * 8)
      }
      let middle = count >> 1
      return UInt64(base[0]) | UInt64(base[middle]) << UInt64(middle * 8) | UInt64(
        base[count - 1]) << UInt64((count - 1) * 8)
    }

    /// The key of a segment's bytes.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
      let count = bytes.count
      if count <= 8 {
        let word = Self.word(bytes)
        self.init(
          hash: word ^ UInt64(count) &* 0x9E37_79B9_7F4A_7C15, word: word, kind: UInt32(count))
      } else {
        self.init(long: bytes)
      }
    }

    /// The key of a segment longer than 8 bytes: out of line, so the common short case stays
    /// small enough to inline.
    @inline(never)
    private init(long bytes: UnsafeBufferPointer<UInt8>) {
      let count = bytes.count
      let base = UnsafeRawPointer(bytes.baseAddress!)
      var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(count)
      var offset = 0
      while offset + 8 <= count {
        hash =
          (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
          &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 29
        offset += 8
      }
      hash =
        (hash ^ Self.word(UnsafeBufferPointer(rebasing: bytes[offset...]))) &* 0xBF58_476D_1CE4_E5B9
      hash ^= hash >> 32
      self.init(
        hash: hash, word: UInt64(UInt32(truncatingIfNeeded: hash)), kind: Edge.longLiteral)
    }
  }
}
