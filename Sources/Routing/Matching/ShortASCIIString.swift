/// Short ASCII strings made directly in the standard library's inline ("small") form, for the
/// parameter values and query keys of a match: `String(unsafeUninitializedCapacity:)` spends
/// about a hundred instructions on a call, a closure and a UTF-8 check that ASCII bytes do not
/// need, and a full match makes several.
///
/// On 64-bit little-endian platforms a string of up to 15 UTF-8 bytes is two words: the
/// bytes in order, and a last byte of `0xE0 | count` when they are all ASCII. The standard
/// library's inlinable code depends on that form, but it is not public API: elsewhere this
/// makes nothing, and `ShortASCIIStringTests` checks the form against strings made the
/// ordinary way, bit for bit, so a toolchain that changed it fails the tests.
enum ShortASCIIString {
  /// The longest string the inline form holds.
  static let maxCount = 15

  /// Whether this platform's strings have the inline form this type writes (the same
  /// condition guards ``make(_:_:)``'s body, so that no other platform compiles the cast).
  #if (arch(x86_64) || arch(arm64)) && _endian(little)
    static let isSupported = true
  #else
    static let isSupported = false
  #endif

  /// The string of `count` bytes at `start`, or nil when they are more than ``maxCount`` or
  /// not all ASCII, or on a platform without the form (``isSupported``).
  @inline(__always)
  static func make(_ start: UnsafePointer<UInt8>?, _ count: Int) -> String? {
    #if (arch(x86_64) || arch(arm64)) && _endian(little)
      guard count <= maxCount else { return nil }
      // The first eight bytes as a segment key's word, the rest from the eight that end the
      // string: no byte past the last is read.
      let head = UnsafeBufferPointer(start: start, count: min(count, 8))
      var words = (RouterIndex.SegmentKey.word(head), UInt64(0))
      if count > 8 {
        let tail = UnsafeRawPointer(start!).loadUnaligned(
          fromByteOffset: count - 8, as: UInt64.self)
        words.1 = UInt64(littleEndian: tail) >> UInt64(8 * (16 - count))
      }
      guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
      words.1 |= (0xE0 | UInt64(count)) << 56
      return unsafeBitCast(words, to: String.self)
    #else
      return nil
    #endif
  }
}
