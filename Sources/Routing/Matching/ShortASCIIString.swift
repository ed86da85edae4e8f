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

  /// The string of `count` bytes at `start`, or nil when they are more than ``maxCount`` or
  /// not all ASCII, or on a platform where the form is not known.
  @inline(__always)
  static func make(_ start: UnsafePointer<UInt8>?, _ count: Int) -> String? {
    #if (arch(x86_64) || arch(arm64)) && _endian(little)
      guard count <= maxCount else { return nil }
      return inline(start, count)
    #else
      return nil
    #endif
  }

  /// The inline form of the bytes, without checking that it is the platform's.
  @inline(__always)
  private static func inline(_ start: UnsafePointer<UInt8>?, _ count: Int) -> String? {
    var words: (UInt64, UInt64) = (0, 0)
    let raw = UnsafeRawPointer(start)
    // Whole words where they fit, overlapping rather than reading past the last byte.
    if count >= 8 {
      words.0 = raw!.loadUnaligned(as: UInt64.self)
      if count > 8 {
        let tail = raw!.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        words.1 = tail >> UInt64(8 * (16 - count))
      }
    } else if count >= 4 {
      let head = UInt64(raw!.loadUnaligned(as: UInt32.self))
      let tail = UInt64(raw!.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
      words.0 = head | tail << UInt64(8 * (count - 4))
    } else {
      for offset in 0..<count { words.0 |= UInt64(start![offset]) << UInt64(8 * offset) }
    }
    guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
    words.1 |= (0xE0 | UInt64(count)) << 56
    return unsafeBitCast(words, to: String.self)
  }
}
