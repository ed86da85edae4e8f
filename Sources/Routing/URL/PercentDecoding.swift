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

/// Percent-decodes `bytes` (and turns `+` into a space when `plusAsSpace`), then checks UTF-8.
///
/// Decodes only when a `%` (or a `+` that must become a space) is present; otherwise the bytes
/// are validated as they stand.
package func percentDecode(
  _ bytes: ArraySlice<UInt8>, plusAsSpace: Bool = false
) throws(DecodeFailure) -> String {
  try bytes.withUnsafeBufferPointer { bytes throws(DecodeFailure) in
    try percentDecode(bytes, plusAsSpace: plusAsSpace)
  }
}

/// ``percentDecode(_:plusAsSpace:)-(ArraySlice<UInt8>,_)`` on bytes in place.
package func percentDecode(
  _ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool = false
) throws(DecodeFailure) -> String {
  // One pass: whether anything must be decoded, and whether the bytes are all ASCII.
  var needsWork = false
  var ascii = true
  for byte in bytes {
    if byte == 0x25 || (plusAsSpace && byte == 0x2B) { needsWork = true }
    if byte >= 0x80 { ascii = false }
  }
  if !needsWork {
    if ascii {
      return String(unsafeUninitializedCapacity: bytes.count) {
        _ = $0.initialize(from: bytes).1
        return bytes.count
      }
    }
    guard let text = validUTF8(bytes) else { throw .invalidUTF8 }
    return text
  }
  var out: [UInt8] = []
  out.reserveCapacity(bytes.count)
  var index = bytes.startIndex
  while index < bytes.endIndex {
    let byte = bytes[index]
    if byte == 0x25 {
      guard bytes.endIndex - index >= 3,
        let high = bytes[index + 1].hexValue, let low = bytes[index + 2].hexValue
      else { throw .invalidEscape }
      out.append(high << 4 | low)
      index += 3
    } else if plusAsSpace && byte == 0x2B {
      out.append(0x20)
      index += 1
    } else {
      out.append(byte)
      index += 1
    }
  }
  guard let text = out.withUnsafeBufferPointer(validUTF8) else { throw .invalidUTF8 }
  return text
}

/// The text of `bytes` when they are UTF-8, else nil. Decoding repairs bad bytes, so they are
/// UTF-8 exactly when decoding gives them back unchanged (the standard library's validating
/// initializer is generic and several times slower).
func validUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
  let text = String(decoding: bytes, as: UTF8.self)
  return text.utf8.elementsEqual(bytes) ? text : nil
}
