// MARK: - Writing

extension JSON {
  /// Compact serialisation: no spaces, members in order, numbers as their stored text, strings
  /// escaped.
  ///
  /// Strings escape `"` and `\`, use `\b \f \n \r \t` for those controls, `\u00XX` with
  /// lowercase hex for other code points below U+0020 and for U+007F, and `\u2028`/`\u2029` for
  /// the line and paragraph separators; everything else, including `/`, is written as UTF-8.
  public var serialized: String {
    var bytes: [UInt8] = []
    write(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the compact serialisation (see `serialized`) to `out`.
  public func write(to out: inout String) {
    switch self {
    case .string(let text):
      JSON.quote(text, into: &out)
    case .number(let text):
      out += text
    default:
      out += serialized
    }
  }

  /// Appends the compact serialisation (see `serialized`) to `out` as UTF-8 bytes.
  package func write(to out: inout [UInt8]) {
    switch self {
    case .null:
      out.append(contentsOf: "null".utf8)
    case .bool(let flag):
      out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
    case .number(let text):
      out.append(contentsOf: text.utf8)
    case .string(let text):
      JSON.appendQuoted(text, to: &out)
    case .array(let elements):
      out.append(ASCII.openBracket)
      for (offset, element) in elements.enumerated() {
        if offset > 0 {
          out.append(ASCII.comma)
        }
        element.write(to: &out)
      }
      out.append(ASCII.closeBracket)
    case .object(let members):
      out.append(ASCII.openBrace)
      for (offset, member) in members.enumerated() {
        if offset > 0 {
          out.append(ASCII.comma)
        }
        JSON.appendQuoted(member.key, to: &out)
        out.append(ASCII.colon)
        member.value.write(to: &out)
      }
      out.append(ASCII.closeBrace)
    }
  }

  /// A JSON string literal for `s`, with quotes, escaped as described for `serialized`.
  public static func quote(_ s: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(s.utf8.count + 2)
    appendQuoted(s, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends a JSON string literal for `s`, with quotes, to `out`; see `quote(_:)`.
  public static func quote(_ s: String, into out: inout String) {
    if s.utf8.contains(where: needsEscape) {
      out += quote(s)
    } else {
      out += "\""
      out += s
      out += "\""
    }
  }

  /// Whether a UTF-8 byte may need escaping: it is a control, `"`, `\`, or the lead byte of a
  /// C1 control or an invisible format character (0xC2, 0xD8, 0xE2, 0xEF).
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < ASCII.space || byte == ASCII.quote || byte == ASCII.backslash
      || byte == ASCII.delete || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xEF
  }

  /// Appends `"s"` to `out`, escaped, copying runs that need no escaping in one go.
  package static func appendQuoted(_ s: String, to out: inout [UInt8]) {
    out.append(ASCII.quote)
    var text = s
    text.withUTF8 { utf8 in
      var runStart = 0
      var cursor = 0
      while cursor < utf8.count {
        let byte = utf8[cursor]
        guard needsEscape(byte) else {
          cursor += 1
          continue
        }
        /// Flushes the pending raw run, then writes `\` and `letter`.
        func appendEscape(_ letter: UInt8) {
          out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<cursor]))
          out.append(ASCII.backslash)
          out.append(letter)
        }
        var width = 1
        switch byte {
        case ASCII.quote: appendEscape(ASCII.quote)
        case ASCII.backslash: appendEscape(ASCII.backslash)
        case ASCII.newline: appendEscape(UInt8(ascii: "n"))
        case ASCII.carriageReturn: appendEscape(UInt8(ascii: "r"))
        case ASCII.tab: appendEscape(UInt8(ascii: "t"))
        case 0x08: appendEscape(UInt8(ascii: "b"))
        case 0x0C: appendEscape(UInt8(ascii: "f"))
        case 0xC2, 0xD8, 0xE2, 0xEF:
          // C1 controls, bidi controls and other invisible format characters (U+2028 and
          // U+2029 among them) as \uXXXX, so printed JSON cannot recolour or reorder a
          // terminal; other characters with these lead bytes are written raw.
          let length = byte < 0xE0 ? 2 : 3
          guard cursor + length <= utf8.count else {
            cursor += 1
            continue
          }
          var value = UInt32(byte & (length == 2 ? 0x1F : 0x0F))
          for offset in 1..<length { value = value << 6 | UInt32(utf8[cursor + offset] & 0x3F) }
          guard isUnsafeForDisplay(value) else {
            cursor += 1
            continue
          }
          appendEscape(ASCII.lowerU)
          for shift in [12, 8, 4, 0] {
            out.append(lowercaseHexDigit(UInt8(truncatingIfNeeded: value >> UInt32(shift)) & 0x0F))
          }
          width = length
        default:
          // Other controls and DEL as \u00XX in lowercase hex.
          appendEscape(ASCII.lowerU)
          out.append(ASCII.zero)
          out.append(ASCII.zero)
          out.append(lowercaseHexDigit(byte >> 4))
          out.append(lowercaseHexDigit(byte & 0x0F))
        }
        cursor += width
        runStart = cursor
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<cursor]))
    }
    out.append(ASCII.quote)
  }
}

/// The lowercase hex digit for a value below 16.
private func lowercaseHexDigit(_ value: UInt8) -> UInt8 {
  value < 10 ? ASCII.zero + value : UInt8(ascii: "a") + value - 10
}

/// Control characters (C0, DEL, C1) and the format characters that reorder or hide text (bidi
/// controls, zero-width characters, line and paragraph separators): what must never reach a
/// terminal raw. Shared by the JSON writer and the renderer's `inert`.
package func isUnsafeForDisplay(_ value: UInt32) -> Bool {
  if value < 0x20 || (value >= 0x7F && value < 0xA0) { return true }
  switch value {
  case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2069, 0xFEFF, 0xFFF9...0xFFFB:
    return true
  default:
    return false
  }
}
