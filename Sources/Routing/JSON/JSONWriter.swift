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
  func write(to out: inout [UInt8]) {
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

  /// Whether a UTF-8 byte may need escaping: it is a control, `"`, `\`, or the lead byte 0xE2
  /// shared by U+2028 and U+2029.
  private static func needsEscape(_ byte: UInt8) -> Bool {
    byte < ASCII.space || byte == ASCII.quote || byte == ASCII.backslash
      || byte == ASCII.delete || byte == 0xE2
  }

  /// Appends `"s"` to `out`, escaped, copying runs that need no escaping in one go.
  static func appendQuoted(_ s: String, to out: inout [UInt8]) {
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
        case 0xE2:
          // U+2028 is E2 80 A8 and U+2029 is E2 80 A9; other E2 sequences are written raw.
          guard cursor + 2 < utf8.count, utf8[cursor + 1] == 0x80,
            utf8[cursor + 2] == 0xA8 || utf8[cursor + 2] == 0xA9
          else {
            cursor += 1
            continue
          }
          appendEscape(ASCII.lowerU)
          out.append(contentsOf: utf8[cursor + 2] == 0xA8 ? "2028".utf8 : "2029".utf8)
          width = 3
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
