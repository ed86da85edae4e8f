/// Why a piece of a URL could not be decoded.
package enum DecodeFailure: Error, Sendable {
  /// A `%` not followed by two hex digits.
  case invalidEscape
  /// The decoded bytes are not UTF-8.
  case invalidUTF8
}

extension UInt8 {
  @inline(__always) var hexValue: UInt8? {
    switch self {
    case 0x30...0x39: return self &- 0x30
    case 0x41...0x46: return self &- 0x41 &+ 10
    case 0x61...0x66: return self &- 0x61 &+ 10
    default: return nil
    }
  }

  @inline(__always) var isASCIILetter: Bool {
    (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A
  }

  @inline(__always) var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
}

/// Percent-decodes `bytes` (and turns `+` into a space when `plusAsSpace`) into `out` from
/// `start`, checks that the result is UTF-8, and returns where it ends. `out` has room for
/// `bytes.count` more bytes: decoding never lengthens. `bytes` may be the same memory as
/// `out` from `start` (decoding in place): each byte is read before that place is written.
func percentDecode(
  _ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool,
  into out: UnsafeMutableBufferPointer<UInt8>,
  at start: Int
) throws(DecodeFailure) -> Int {
  var end = start
  var ascii = true
  var index = 0
  while index < bytes.count {
    var byte = bytes[index]
    index += 1
    if byte == 0x25 {
      guard bytes.count - index >= 2, let high = bytes[index].hexValue,
        let low = bytes[index + 1].hexValue
      else { throw .invalidEscape }
      byte = high << 4 | low
      index += 2
    } else if plusAsSpace && byte == 0x2B {
      byte = 0x20
    }
    if byte >= 0x80 { ascii = false }
    out.initializeElement(at: end, to: byte)
    end += 1
  }
  guard ascii || isUTF8(UnsafeBufferPointer(rebasing: out[start..<end])) else {
    throw .invalidUTF8
  }
  return end
}

/// Percent-decodes pattern text as a URL's parts are decoded.
package func percentDecode(_ bytes: ArraySlice<UInt8>, plusAsSpace: Bool = false)
  throws(DecodeFailure) -> String
{
  try bytes.withUnsafeBufferPointer { bytes throws(DecodeFailure) in
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) {
      out throws(DecodeFailure) in
      let end = try percentDecode(bytes, plusAsSpace: plusAsSpace, into: out, at: 0)
      return String(decoding: UnsafeBufferPointer(rebasing: out[..<end]), as: UTF8.self)
    }
  }
}

/// Whether `bytes` are UTF-8. Decoding repairs bad bytes, so they are UTF-8 exactly when
/// decoding gives them back unchanged (the standard library's validating initializer is
/// generic, several times slower, and needs macOS 15).
func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
}
