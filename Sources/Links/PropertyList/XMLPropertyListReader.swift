/// Reads an XML property list (`<plist version="1.0">...</plist>`): the XML declaration,
/// a DOCTYPE, comments and whitespace between elements are skipped; text may use the five
/// named entities and `&#N;`/`&#xN;`. Errors name the line and column.
struct XMLPropertyListReader {
  private let bytes: [UInt8]
  private var index = 0
  private static let maxDepth = 64

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func read() throws(PropertyListError) -> PropertyList {
    skipMisc()
    guard let open = try tag(), open.name == "plist", !open.isClosing else {
      throw error("expected <plist>")
    }
    let value: PropertyList
    if open.isEmpty {
      throw error("<plist> is empty")
    }
    skipMisc()
    value = try element(depth: 0)
    skipMisc()
    guard let close = try tag(), close.name == "plist", close.isClosing else {
      throw error("expected </plist>")
    }
    skipMisc()
    guard index == bytes.count else { throw error("text after </plist>") }
    return value
  }

  // MARK: - Elements

  private mutating func element(depth: Int) throws(PropertyListError) -> PropertyList {
    guard depth < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) deep") }
    let start = index
    guard let open = try tag(), !open.isClosing else {
      index = start
      throw error("expected a value element")
    }
    switch open.name {
    case "true", "false":
      if !open.isEmpty { try closing(open.name) }
      return .bool(open.name == "true")
    case "string", "key", "date", "integer", "real", "data":
      let text = open.isEmpty ? "" : try textThenClosing(open.name)
      switch open.name {
      case "integer":
        let trimmed = text.trimmingASCIIWhitespace
        guard let number = Self.integer(trimmed) else {
          index = start
          throw error("<integer> \(quote(trimmed)) is not an integer")
        }
        return .integer(number)
      case "real":
        guard let number = Double(text.trimmingASCIIWhitespace) else {
          index = start
          throw error("<real> \(quote(text)) is not a number")
        }
        return .real(number)
      case "data":
        guard let data = Base64.decode(text) else {
          index = start
          throw error("<data> is not base64")
        }
        return .data(data)
      case "date": return .date(text.trimmingASCIIWhitespace)
      default: return .string(text)
      }
    case "array":
      var items: [PropertyList] = []
      if open.isEmpty { return .array(items) }
      while true {
        skipMisc()
        if try peekClosing("array") { return .array(items) }
        items.append(try element(depth: depth + 1))
      }
    case "dict":
      var members: [String: PropertyList] = [:]
      if open.isEmpty { return .dictionary(members) }
      while true {
        skipMisc()
        if try peekClosing("dict") { return .dictionary(members) }
        let keyStart = index
        guard let keyTag = try tag(), keyTag.name == "key", !keyTag.isClosing else {
          index = keyStart
          throw error("expected <key> in <dict>")
        }
        let key = keyTag.isEmpty ? "" : try textThenClosing("key")
        if members[key] != nil {
          index = keyStart
          throw error("the key \(quote(key)) is in this <dict> twice")
        }
        skipMisc()
        members[key] = try element(depth: depth + 1)
      }
    default:
      index = start
      throw error("unknown element <\(open.name)>")
    }
  }

  private static func integer(_ text: String) -> Int64? {
    if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int64(text.dropFirst(2), radix: 16) }
    return Int64(text)
  }

  // MARK: - Tags and text

  private struct Tag {
    var name: String
    var isClosing: Bool
    var isEmpty: Bool
  }

  /// Reads `<name ...>`, `</name>` or `<name/>`; nil at the end of the input.
  private mutating func tag() throws(PropertyListError) -> Tag? {
    guard index < bytes.count else { return nil }
    guard bytes[index] == UInt8(ascii: "<") else { throw error("expected a tag") }
    let start = index
    index += 1
    let isClosing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
    if isClosing { index += 1 }
    let nameStart = index
    while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
    let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
    var quoteByte: UInt8?
    while index < bytes.count {
      let byte = bytes[index]
      if let open = quoteByte {
        if byte == open { quoteByte = nil }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quoteByte = byte
      } else if byte == UInt8(ascii: ">") {
        break
      }
      index += 1
    }
    guard index < bytes.count, !name.isEmpty else {
      index = start
      throw error("unfinished tag")
    }
    let isEmpty = bytes[index - 1] == UInt8(ascii: "/")
    index += 1
    return Tag(name: name, isClosing: isClosing, isEmpty: isEmpty && !isClosing)
  }

  private mutating func closing(_ name: String) throws(PropertyListError) {
    let start = index
    guard let close = try tag(), close.isClosing, close.name == name else {
      index = start
      throw error("expected </\(name)>")
    }
  }

  private mutating func peekClosing(_ name: String) throws(PropertyListError) -> Bool {
    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "<"),
      bytes[index + 1] == UInt8(ascii: "/")
    else {
      if index >= bytes.count { throw error("</\(name)> missing") }
      return false
    }
    try closing(name)
    return true
  }

  /// Text up to `</name>`, with entities decoded.
  private mutating func textThenClosing(_ name: String) throws(PropertyListError) -> String {
    var text: [UInt8] = []
    while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
      if bytes[index] == UInt8(ascii: "&") {
        text += try entity()
      } else {
        text.append(bytes[index])
        index += 1
      }
    }
    if index + 9 <= bytes.count, bytes[index..<index + 9].elementsEqual("<![CDATA[".utf8) {
      throw error("CDATA sections are not supported")
    }
    try closing(name)
    return String(decoding: text, as: UTF8.self)
  }

  private mutating func entity() throws(PropertyListError) -> [UInt8] {
    let start = index
    guard let end = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
      throw error("unfinished entity")
    }
    let name = String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    index = end + 1
    switch name {
    case "lt": return Array("<".utf8)
    case "gt": return Array(">".utf8)
    case "amp": return Array("&".utf8)
    case "quot": return Array("\"".utf8)
    case "apos": return Array("'".utf8)
    default:
      var code: UInt32?
      if name.hasPrefix("#x") {
        code = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        code = UInt32(name.dropFirst())
      }
      guard let code, let scalar = Unicode.Scalar(code) else {
        index = start
        throw error("unknown entity &\(name);")
      }
      return Array(String(Character(scalar)).utf8)
    }
  }

  /// Skips whitespace, `<?...?>`, `<!...>` and `<!-- ... -->`.
  private mutating func skipMisc() {
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        index += 1
      } else if starts(with: "<!--") {
        index = find("-->").map { $0 + 3 } ?? bytes.count
      } else if starts(with: "<?") {
        index = find("?>").map { $0 + 2 } ?? bytes.count
      } else if starts(with: "<!") {
        index = find(">").map { $0 + 1 } ?? bytes.count
      } else if index == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
        index = 3
      } else {
        return
      }
    }
  }

  private func starts(with text: String) -> Bool {
    bytes[index...].starts(with: text.utf8)
  }

  private func find(_ text: String) -> Int? {
    let needle = Array(text.utf8)
    var position = index
    while position + needle.count <= bytes.count {
      if bytes[position..<position + needle.count].elementsEqual(needle) { return position }
      position += 1
    }
    return nil
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
  }

  /// An error at the current position: `line L, column C: message`.
  private func error(_ message: String) -> PropertyListError {
    var line = 1
    var column = 1
    for byte in bytes[..<min(index, bytes.count)] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return PropertyListError("line \(line), column \(column): \(message)")
  }

  private func quote(_ text: String) -> String { "\"\(text)\"" }
}

extension String {
  /// The text without leading and trailing ASCII whitespace.
  var trimmingASCIIWhitespace: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    return String(self.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
  }
}

/// Base64 as `<data>` holds it (whitespace ignored).
enum Base64 {
  static func decode(_ text: String) -> [UInt8]? {
    var values: [UInt8] = []
    var padding = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - 65)
      case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - 97 + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - 48 + 52)
      case UInt8(ascii: "+"): values.append(62)
      case UInt8(ascii: "/"): values.append(63)
      case UInt8(ascii: "="): padding += 1
      case 0x20, 0x0A, 0x0D, 0x09: continue
      default: return nil
      }
      if padding > 0, byte != UInt8(ascii: "=") { return nil }
    }
    guard (values.count + padding) % 4 == 0, padding <= 2 else { return nil }
    var result: [UInt8] = []
    var chunk = 0
    var bits = 0
    for value in values {
      chunk = (chunk << 6) | Int(value)
      bits += 6
      if bits >= 8 {
        bits -= 8
        result.append(UInt8((chunk >> bits) & 0xFF))
      }
    }
    return result
  }
}
