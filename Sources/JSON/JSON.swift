// JSON for route tables: a strict RFC 8259 parser that keeps member order and the text of
// numbers and reports errors by line and column, plus a fast compact writer.
//
// The parser is iterative (an explicit stack, no recursion), so input shape cannot overflow the
// call stack, and it runs in time linear in the input size. The writer recurses once per
// nesting level of the value being written.

/// A JSON value that keeps object member order and the text of numbers as written.
///
/// Equality is structural: numbers compare by their text (`1.0` is not equal to `1`), objects
/// compare member by member in order, and strings and keys compare as Swift strings.
public enum JSON: Sendable, Equatable {
  /// The literal `null`.
  case null
  /// The literal `true` or `false`.
  case bool(Bool)
  /// A number, kept as the literal text written in the document, e.g. `"3"` or `"-2.5e3"`.
  ///
  /// The writer prints this text unchanged, so a hand-made value should follow the JSON number
  /// grammar.
  case number(String)
  /// A string, with its escapes decoded.
  case string(String)
  /// An array of values in order.
  case array([JSON])
  /// An object's members in document order. The parser refuses duplicate keys.
  case object([JSONMember])
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Equatable {
  /// The member's key, with its escapes decoded.
  public var key: String
  /// The member's value.
  public var value: JSON

  /// Creates a member with the given key and value.
  public init(_ key: String, _ value: JSON) {
    self.key = key
    self.value = value
  }
}

/// A syntax error found by `JSON.parse`, located at the first offending character.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based line; a line ends at `\n`, `\r\n` or a lone `\r`.
  public var line: Int
  /// The 1-based column, counting Unicode scalars (so bytes, for ASCII) from the line's start.
  public var column: Int
  /// What went wrong, naming what was expected, e.g. `expected ',' or '}'`.
  public var message: String

  /// Creates an error at the given 1-based position.
  public init(line: Int, column: Int, message: String) {
    self.line = line
    self.column = column
    self.message = message
  }

  /// The error as text, e.g. `line 3, column 5: expected ',' or '}'`.
  public var description: String {
    "line \(line), column \(column): \(message)"
  }
}

// MARK: - Inspecting

extension JSON {
  /// The value of the object member named `key`; nil if there is none or this is not an object.
  public subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }

  /// The object's keys in document order; empty if this is not an object.
  public var keys: [String] {
    guard case .object(let members) = self else { return [] }
    return members.map(\.key)
  }

  /// Human-readable type name for error messages: "null", "a boolean", "a number", "a string",
  /// "an array", "an object".
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The number as Int when its text is an integer literal that fits Int (no '.', no exponent),
  /// else nil.
  public var intValue: Int? {
    guard case .number(let text) = self else { return nil }
    // Only JSON's integer grammar: -?(0|[1-9][0-9]*). `Int(_:)` alone would also take "+1".
    let digits = text.utf8.first == ASCII.minus ? text.utf8.dropFirst() : text.utf8[...]
    guard let first = digits.first, digits.allSatisfy({ $0 >= ASCII.zero && $0 <= ASCII.nine }),
      first != ASCII.zero || digits.count == 1
    else { return nil }
    return Int(text)
  }
}
