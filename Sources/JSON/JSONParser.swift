// MARK: - Parsing

extension JSON {
  /// Parses one JSON document from UTF-8 bytes, strictly following RFC 8259.
  ///
  /// Object keys must be unique (compared as Swift strings) and arrays and objects may nest at
  /// most `maxDepth` levels deep. A byte order mark is not accepted. Parsing itself never
  /// recurses, but code walking the result does (the writer, `==`), so keep `maxDepth` modest.
  /// - Throws: `JSONParseError` with the line and column of the first offending character.
  public static func parse(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError) -> JSON {
    var parser = Parser(bytes: bytes, maxDepth: max(maxDepth, 0))
    return try parser.parseDocument()
  }

  /// Parses one JSON document as `parse(_:maxDepth:)` does, and keeps where each value is
  /// written, so that an error about a member can name its line and column.
  public static func parseLocated(_ bytes: [UInt8], maxDepth: Int = 64) throws(JSONParseError)
    -> JSONLocated
  {
    var parser = Parser(bytes: bytes, maxDepth: max(maxDepth, 0))
    parser.offsets = []
    let value = try parser.parseDocument()
    return JSONLocated(value: value, offsets: parser.offsets ?? [], bytes: bytes)
  }

  /// Parses one JSON document from text; see `parse(_:maxDepth:)` for `[UInt8]`.
  ///
  /// - Throws: `JSONParseError` with the line and column of the first offending character.
  public static func parse(_ text: String, maxDepth: Int = 64) throws(JSONParseError) -> JSON {
    try parse(Array(text.utf8), maxDepth: maxDepth)
  }
}

/// ASCII bytes the JSON parser and writers look for.
package enum ASCII {
  package static let tab: UInt8 = 0x09
  package static let newline: UInt8 = 0x0A
  package static let carriageReturn: UInt8 = 0x0D
  package static let space: UInt8 = 0x20
  package static let quote: UInt8 = 0x22
  package static let plus: UInt8 = 0x2B
  package static let comma: UInt8 = 0x2C
  package static let minus: UInt8 = 0x2D
  package static let period: UInt8 = 0x2E
  package static let slash: UInt8 = 0x2F
  package static let zero: UInt8 = 0x30
  package static let nine: UInt8 = 0x39
  package static let colon: UInt8 = 0x3A
  package static let upperE: UInt8 = 0x45
  package static let openBracket: UInt8 = 0x5B
  package static let backslash: UInt8 = 0x5C
  package static let closeBracket: UInt8 = 0x5D
  package static let lowerE: UInt8 = 0x65
  package static let lowerU: UInt8 = 0x75
  package static let openBrace: UInt8 = 0x7B
  package static let closeBrace: UInt8 = 0x7D
  package static let delete: UInt8 = 0x7F
}

/// An array or object the parser has opened and not yet closed.
private struct Frame {
  /// Objects with fewer members than this check for duplicate keys by a linear scan.
  static let linearKeyScanLimit = 16

  var isObject: Bool
  var elements: [JSON] = []
  var members: [JSONMember] = []
  /// The key of the object member whose value is being parsed.
  var pendingKey = ""
  /// Where that key is written.
  var pendingKeyOffset = 0
  /// Every key of a large object, filled once it reaches `linearKeyScanLimit` members.
  var keySet: Set<String> = []

  /// Records `key` for this object, returning false if the object already has it.
  mutating func insertKey(_ key: String) -> Bool {
    if keySet.isEmpty {
      if members.count < Frame.linearKeyScanLimit {
        return !members.contains { $0.key == key }
      }
      keySet.reserveCapacity(members.count * 2)
      for member in members {
        keySet.insert(member.key)
      }
    }
    return keySet.insert(key).inserted
  }
}

/// A single-use, iterative JSON parser over UTF-8 bytes.
private struct Parser {
  let bytes: [UInt8]
  let maxDepth: Int
  var index = 0
  /// Reused buffer for decoding strings that contain escapes.
  var scratch: [UInt8] = []
  /// When kept: where each value starts (an object member's: where its key starts), in the
  /// order values start.
  var offsets: [Int]?

  mutating func parseDocument() throws(JSONParseError) -> JSON {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      throw error("unexpected byte order mark; expected a JSON value", at: 0)
    }
    skipWhitespace()
    if index == bytes.count {
      throw error("empty input", at: index)
    }
    var frames: [Frame] = []
    while true {
      // A value starts at `index`; an opened container asks for its first value.
      guard var value = try startValue(&frames) else { continue }
      // Attach the finished value to its container, closing containers as they end, until
      // another value is expected.
      attaching: while true {
        skipWhitespace()
        guard let top = frames.indices.last else {
          if index < bytes.count {
            throw error("unexpected text after the JSON value", at: index)
          }
          return value
        }
        if frames[top].isObject {
          let key = frames[top].pendingKey
          frames[top].members.append(JSONMember(key, value))
          if consume(ASCII.comma) {
            try readKey(into: &frames[top], afterComma: true)
            break attaching
          }
          guard consume(ASCII.closeBrace) else { throw expected("',' or '}'") }
          value = .object(frames.removeLast().members)
        } else {
          frames[top].elements.append(value)
          if consume(ASCII.comma) {
            skipWhitespace()
            break attaching
          }
          guard consume(ASCII.closeBracket) else { throw expected("',' or ']'") }
          value = .array(frames.removeLast().elements)
        }
      }
    }
  }

  /// Parses the value starting at `index`, or opens a container on `frames` and returns nil.
  mutating func startValue(_ frames: inout [Frame]) throws(JSONParseError) -> JSON? {
    guard index < bytes.count else { throw expected("a JSON value") }
    if offsets != nil {
      offsets!.append(frames.last.map { $0.isObject ? $0.pendingKeyOffset : index } ?? index)
    }
    switch bytes[index] {
    case ASCII.openBracket:
      try checkDepth(frames.count)
      index += 1
      skipWhitespace()
      if consume(ASCII.closeBracket) { return .array([]) }
      frames.append(Frame(isObject: false))
      return nil
    case ASCII.openBrace:
      try checkDepth(frames.count)
      index += 1
      skipWhitespace()
      if consume(ASCII.closeBrace) { return .object([]) }
      var frame = Frame(isObject: true)
      try readKey(into: &frame, afterComma: false)
      frames.append(frame)
      return nil
    case ASCII.quote:
      return .string(try parseString())
    case ASCII.minus, ASCII.zero...ASCII.nine:
      return .number(try parseNumber())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case ASCII.closeBracket where frames.last?.isObject == false:
      // Inside an array a value is only expected here after a ',' (an empty array was handled
      // when it opened).
      throw error(
        "expected a JSON value after ',' (trailing commas are not allowed)", at: index)
    default:
      throw expected("a JSON value")
    }
  }

  mutating func checkDepth(_ depth: Int) throws(JSONParseError) {
    if depth >= maxDepth {
      throw error("nesting deeper than \(maxDepth)", at: index)
    }
  }

  /// Reads `"key":` and the whitespace after it, refusing a key the object already has.
  mutating func readKey(into frame: inout Frame, afterComma: Bool) throws(JSONParseError) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == ASCII.quote else {
      if afterComma && index < bytes.count && bytes[index] == ASCII.closeBrace {
        throw error(
          "expected a string key after ',' (trailing commas are not allowed)", at: index)
      }
      throw expected(afterComma ? "a string key" : "a string key or '}'")
    }
    let keyStart = index
    let key = try parseString()
    guard frame.insertKey(key) else {
      throw error("duplicate key \(JSON.quote(key))", at: keyStart)
    }
    skipWhitespace()
    guard consume(ASCII.colon) else { throw expected("':' after the key") }
    skipWhitespace()
    frame.pendingKey = key
    frame.pendingKeyOffset = keyStart
  }

  mutating func expectLiteral(_ word: String) throws(JSONParseError) {
    for byte in word.utf8 {
      guard index < bytes.count, bytes[index] == byte else { throw expected("'\(word)'") }
      index += 1
    }
  }

  /// Parses the number at `index`, returning its text.
  mutating func parseNumber() throws(JSONParseError) -> String {
    let start = index
    if bytes[index] == ASCII.minus {
      index += 1
    }
    guard isDigit(at: index) else { throw expected("a digit after '-'") }
    if bytes[index] == ASCII.zero {
      index += 1
      if isDigit(at: index) {
        throw error("leading zeros are not allowed in numbers", at: index - 1)
      }
    } else {
      skipDigits()
    }
    if consume(ASCII.period) {
      guard isDigit(at: index) else { throw expected("a digit after '.'") }
      skipDigits()
    }
    if index < bytes.count && (bytes[index] == ASCII.lowerE || bytes[index] == ASCII.upperE) {
      index += 1
      if index < bytes.count && (bytes[index] == ASCII.plus || bytes[index] == ASCII.minus) {
        index += 1
      }
      guard isDigit(at: index) else { throw expected("a digit in the exponent") }
      skipDigits()
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  func isDigit(at offset: Int) -> Bool {
    offset < bytes.count && bytes[offset] >= ASCII.zero && bytes[offset] <= ASCII.nine
  }

  mutating func skipDigits() {
    while isDigit(at: index) {
      index += 1
    }
  }

  /// Parses the string whose opening quote is at `index`.
  mutating func parseString() throws(JSONParseError) -> String {
    let open = index
    index += 1
    var runStart = index
    var hasEscapes = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == ASCII.quote {
        let text: String
        if hasEscapes {
          scratch.append(contentsOf: bytes[runStart..<index])
          text = String(decoding: scratch, as: UTF8.self)
        } else {
          text = String(decoding: bytes[runStart..<index], as: UTF8.self)
        }
        index += 1
        return text
      } else if byte == ASCII.backslash {
        if !hasEscapes {
          hasEscapes = true
          scratch.removeAll(keepingCapacity: true)
        }
        scratch.append(contentsOf: bytes[runStart..<index])
        try parseEscape(stringStart: open)
        runStart = index
      } else if byte < ASCII.space {
        throw error(
          "control character U+\(hex(UInt32(byte), digits: 4)) in string; expected it escaped",
          at: index)
      } else if byte < 0x80 {
        index += 1
      } else {
        try skipUTF8Sequence()
      }
    }
    throw unterminatedString(startingAt: open)
  }

  /// Decodes the escape whose backslash is at `index` into `scratch`.
  mutating func parseEscape(stringStart: Int) throws(JSONParseError) {
    let start = index
    guard index + 1 < bytes.count else { throw unterminatedString(startingAt: stringStart) }
    let letter = bytes[index + 1]
    index += 2
    switch letter {
    case ASCII.quote, ASCII.backslash, ASCII.slash:
      scratch.append(letter)
    case UInt8(ascii: "b"):
      scratch.append(0x08)
    case UInt8(ascii: "f"):
      scratch.append(0x0C)
    case UInt8(ascii: "n"):
      scratch.append(ASCII.newline)
    case UInt8(ascii: "r"):
      scratch.append(ASCII.carriageReturn)
    case UInt8(ascii: "t"):
      scratch.append(ASCII.tab)
    case ASCII.lowerU:
      let unit = try readHex4(escapeStart: start, stringStart: stringStart)
      var scalar = unit
      if (0xD800...0xDBFF).contains(unit) {
        let secondStart = index
        guard index + 1 < bytes.count, bytes[index] == ASCII.backslash,
          bytes[index + 1] == ASCII.lowerU
        else {
          throw error(
            "lone surrogate \\u\(hex(unit, digits: 4)); expected a \\uDC00-\\uDFFF escape after it",
            at: start)
        }
        index += 2
        let low = try readHex4(escapeStart: secondStart, stringStart: stringStart)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw error(
            "lone surrogate \\u\(hex(unit, digits: 4)); expected a \\uDC00-\\uDFFF escape after it",
            at: start)
        }
        scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(unit) {
        throw error(
          "lone surrogate \\u\(hex(unit, digits: 4)); expected a \\uD800-\\uDBFF escape before it",
          at: start)
      }
      appendUTF8(scalar)
    default:
      let shown =
        letter > ASCII.space && letter < ASCII.delete
        ? "'\\\(Character(Unicode.Scalar(letter)))'" : "after '\\'"
      throw error(
        "invalid escape \(shown); expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u",
        at: start)
    }
  }

  /// Reads the four hex digits of a `\u` escape at `index`.
  mutating func readHex4(escapeStart: Int, stringStart: Int) throws(JSONParseError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count else { throw unterminatedString(startingAt: stringStart) }
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case ASCII.zero...ASCII.nine: digit = byte - ASCII.zero
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw error("invalid escape; expected 4 hex digits after '\\u'", at: escapeStart)
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// Appends the UTF-8 encoding of a scalar value (never a surrogate) to `scratch`.
  mutating func appendUTF8(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  /// Steps over the multi-byte UTF-8 sequence at `index`, refusing ill-formed ones (overlong
  /// forms, encoded surrogates, values above U+10FFFF, truncated sequences).
  mutating func skipUTF8Sequence() throws(JSONParseError) {
    let lead = bytes[index]
    var secondRange: ClosedRange<UInt8> = 0x80...0xBF
    let length: Int
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondRange = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondRange = 0x80...0x9F
    case 0xF0:
      length = 4
      secondRange = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondRange = 0x80...0x8F
    default: throw error("invalid UTF-8 in string", at: index)
    }
    guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else {
      throw error("invalid UTF-8 in string", at: index)
    }
    for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
      throw error("invalid UTF-8 in string", at: index)
    }
    index += length
  }

  mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case ASCII.space, ASCII.newline, ASCII.carriageReturn, ASCII.tab: index += 1
      default: return
      }
    }
  }

  /// Steps over `byte` if it is next, reporting whether it was.
  mutating func consume(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  // MARK: Errors

  /// An error saying `what` was expected at `index` (or that the input ended there).
  func expected(_ what: String) -> JSONParseError {
    if index < bytes.count {
      return error("expected \(what)", at: index)
    }
    return error("unexpected end of input; expected \(what)", at: index)
  }

  func unterminatedString(startingAt open: Int) -> JSONParseError {
    let (line, column) = position(of: open)
    return error(
      "unterminated string starting at line \(line), column \(column); expected '\"'",
      at: bytes.count)
  }

  func error(_ message: String, at offset: Int) -> JSONParseError {
    let (line, column) = position(of: offset)
    return JSONParseError(line: line, column: column, message: message)
  }

  /// The 1-based line and column of the byte at `offset`. Only called once, on failure.
  func position(of offset: Int) -> (line: Int, column: Int) {
    JSON.position(of: offset, in: bytes)
  }
}

/// `value` as uppercase hex, zero-padded to `digits`.
private func hex(_ value: UInt32, digits: Int) -> String {
  let text = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, digits - text.count)) + text
}
