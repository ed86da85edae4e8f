/// The `.sig` file that comes with a route table: one Ed25519 signature of the whole file.
package enum DetachedSignature {
  /// The `.sig` file text for `signature`: its base64 and a newline.
  package static func encode(_ signature: [UInt8]) -> String {
    Base64.encode(signature) + "\n"
  }

  /// The 64 signature bytes of a `.sig` file.
  ///
  /// Accepts exactly 64 raw bytes (as `openssl pkeyutl -sign -rawin` writes) or base64 text of
  /// 64 bytes, with whitespace around it or line breaks in it (as `openssl base64` wraps).
  /// Anything else is an error saying what the file held.
  package static func decode(_ file: [UInt8]) throws(SigningError) -> [UInt8] {
    if file.count == signatureLength { return file }
    let expected = "a signature must be \(signatureLength) bytes or their base64"
    let text = file.filter { !isWhitespace($0) }
    if file.isEmpty {
      throw SigningError("\(expected); got an empty file")
    }
    if text.isEmpty {
      throw SigningError("\(expected); got only whitespace")
    }
    guard text.allSatisfy({ (0x21...0x7E).contains($0) }) else {
      throw SigningError("\(expected); got \(file.count) bytes")
    }
    let signature: [UInt8]
    do {
      signature = try Base64.decode(text)
    } catch {
      throw SigningError(
        "\(expected); got \(file.count) bytes of text that is not base64 (\(error))")
    }
    guard signature.count == signatureLength else {
      throw SigningError("\(expected); got base64 of \(signature.count) bytes")
    }
    return signature
  }

  /// Space, tab, carriage return and line feed.
  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
  }
}

/// Standard padded base64 (RFC 4648 section 4), decoded strictly.
enum Base64 {
  /// Why text is not base64.
  struct Invalid: Error, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "'!' at offset 3".
    let description: String
  }

  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Each byte's 6-bit value, or 0xFF for bytes outside the alphabet.
  private static let values: [UInt8] = {
    var values = [UInt8](repeating: 0xFF, count: 256)
    for (value, symbol) in alphabet.enumerated() { values[Int(symbol)] = UInt8(value) }
    return values
  }()

  /// `bytes` as padded base64 on one line.
  static func encode(_ bytes: [UInt8]) -> String {
    var text: [UInt8] = []
    text.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var group = UInt32(bytes[index]) << 16
      if count > 1 { group |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { group |= UInt32(bytes[index + 2]) }
      for position in 0..<4 {
        if position <= count {
          text.append(alphabet[Int((group >> UInt32(18 - 6 * position)) & 0x3F)])
        } else {
          text.append(UInt8(ascii: "="))
        }
      }
      index += count
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of padded base64 `text` (no whitespace). Refuses a length that is not a multiple
  /// of 4, bytes outside the alphabet, misplaced "=", and nonzero bits in the last symbol
  /// before the padding, so every byte string has exactly one accepted spelling.
  static func decode(_ text: [UInt8]) throws(Invalid) -> [UInt8] {
    guard text.count % 4 == 0 else {
      throw Invalid(description: "its length \(text.count) is not a multiple of 4")
    }
    let equals = UInt8(ascii: "=")
    var padding = 0
    if text.last == equals { padding = text.dropLast().last == equals ? 2 : 1 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 4 * 3)
    var group: UInt32 = 0
    for (offset, symbol) in text.enumerated() {
      let value: UInt8
      if offset >= text.count - padding {
        value = 0
      } else {
        value = values[Int(symbol)]
        guard value != 0xFF else {
          let shown = symbol == equals ? "a misplaced '='" : "'\(Unicode.Scalar(symbol))'"
          throw Invalid(description: "\(shown) at offset \(offset)")
        }
      }
      group = group << 6 | UInt32(value)
      if offset % 4 == 3 {
        bytes.append(UInt8(truncatingIfNeeded: group >> 16))
        bytes.append(UInt8(truncatingIfNeeded: group >> 8))
        bytes.append(UInt8(truncatingIfNeeded: group))
        group = 0
      }
    }
    guard padding == 0 || bytes.suffix(padding).allSatisfy({ $0 == 0 }) else {
      throw Invalid(description: "the bits before the '=' padding are not zero")
    }
    bytes.removeLast(padding)
    return bytes
  }
}
