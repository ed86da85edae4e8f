/// A parsed JSON document that remembers where each of its values is written, so that an error
/// about a member (`routes[3].screen: ...`) can say `LINE:COL` too. Made by
/// ``JSON/parseLocated(_:maxDepth:)``.
public struct JSONLocated: Sendable {
  /// The document.
  public let value: JSON
  /// Where each value starts (an object member's: where its key starts), in document order.
  let offsets: [Int]
  /// The document's bytes, for turning an offset into a line and column.
  let bytes: [UInt8]

  /// The 1-based line and column of the member a path names (`routes[3].screen`,
  /// `applinks.details[0]."?"`, `guards.signed-in`): of the deepest part of the path that
  /// exists, the document's start when no part does.
  public func position(of path: Substring) -> (line: Int, column: Int) {
    var node = value
    var index = 0
    for step in Self.steps(of: path) {
      var children: [(name: String?, value: JSON)] = []
      switch (node, step) {
      case (.object(let members), .key): children = members.map { ($0.key, $0.value) }
      case (.array(let elements), .index): children = elements.map { (nil, $0) }
      default: break
      }
      let target: Int?
      switch step {
      case .key(let key): target = children.firstIndex { $0.name == key }
      case .index(let at): target = at < children.count ? at : nil
      }
      guard let target else { break }
      index += 1 + children[..<target].reduce(0) { $0 + Self.count($1.value) }
      node = children[target].value
    }
    let offset = index < offsets.count ? offsets[index] : 0
    return JSON.position(of: offset, in: bytes)
  }

  /// The message with the place of the member it starts with in front:
  /// `FILE:LINE:COL: routes[3].screen: ...`.
  public func located(_ message: String, file: String) -> String {
    let (line, column) = position(of: Self.leadingPath(message))
    return "\(file):\(line):\(column): \(message)"
  }

  /// A member name as a path writes it: as is when it is letters, digits, `_` and `-`, else
  /// as a JSON string.
  public static func name(_ key: String) -> String {
    let plain =
      !key.isEmpty
      && key.unicodeScalars.allSatisfy {
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
      }
    return plain ? key : JSON.quote(key)
  }

  /// One step of a member path.
  enum Step: Equatable {
    case key(String)
    case index(Int)
  }

  /// The member path a message starts with: up to the first `:` or space outside quotes.
  static func leadingPath(_ message: String) -> Substring {
    var quoted = false
    var escaped = false
    for index in message.indices {
      let character = message[index]
      if escaped {
        escaped = false
      } else if quoted {
        if character == "\\" { escaped = true } else if character == "\"" { quoted = false }
      } else if character == "\"" {
        quoted = true
      } else if character == ":" || character == " " {
        return message[..<index]
      }
    }
    return message[...]
  }

  /// The steps of a path: names (bare or as JSON strings) joined by `.`, and `[N]` indices.
  static func steps(of path: Substring) -> [Step] {
    var steps: [Step] = []
    var rest = path
    while let first = rest.first {
      if first == "." {
        rest = rest.dropFirst()
      } else if first == "[" {
        guard let close = rest.firstIndex(of: "]"),
          let number = Int(rest[rest.index(after: rest.startIndex)..<close])
        else { break }
        steps.append(.index(number))
        rest = rest[rest.index(after: close)...]
      } else if first == "\"" {
        var end = rest.index(after: rest.startIndex)
        var escaped = false
        while end < rest.endIndex, escaped || rest[end] != "\"" {
          escaped = !escaped && rest[end] == "\\"
          end = rest.index(after: end)
        }
        guard end < rest.endIndex else { break }
        let quoted = rest[...end]
        guard case .string(let key)? = try? JSON.parse(String(quoted)) else { break }
        steps.append(.key(key))
        rest = rest[rest.index(after: end)...]
      } else {
        let end = rest.firstIndex { $0 == "." || $0 == "[" } ?? rest.endIndex
        steps.append(.key(String(rest[..<end])))
        rest = rest[end...]
      }
    }
    return steps
  }

  /// How many values a value holds, itself included.
  static func count(_ value: JSON) -> Int {
    switch value {
    case .object(let members): members.reduce(1) { $0 + count($1.value) }
    case .array(let elements): elements.reduce(1) { $0 + count($1) }
    default: 1
    }
  }
}

extension JSON {
  /// The 1-based line and column of the byte at `offset` in `bytes`.
  static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var cursor = 0
    let end = min(offset, bytes.count)
    while cursor < end {
      let byte = bytes[cursor]
      if byte == ASCII.newline || byte == ASCII.carriageReturn {
        if byte == ASCII.carriageReturn && cursor + 1 < end && bytes[cursor + 1] == ASCII.newline {
          cursor += 1
        }
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        // Count each scalar once: skip UTF-8 continuation bytes.
        column += 1
      }
      cursor += 1
    }
    return (line, column)
  }
}
