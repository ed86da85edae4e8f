import JSON
import Routing

/// A flag's value: the app's state beyond navigation (`app.json`'s `flags`).
package enum FlagValue: Sendable, Hashable, CustomStringConvertible {
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number.
  case int(Int64)
  /// Text.
  case string(String)

  /// How the value reads on a screen: `true`/`false`, decimal, or the text itself.
  package var description: String {
    switch self {
    case .bool(let value): return value ? "true" : "false"
    case .int(let value): return String(value)
    case .string(let value): return value
    }
  }

  /// The value as JSON.
  package var json: JSON {
    switch self {
    case .bool(let value): return .bool(value)
    case .int(let value): return .number(String(value))
    case .string(let value): return .string(value)
    }
  }

  /// `boolean`, `integer` or `string`, for messages.
  package var typeName: String {
    switch self {
    case .bool: return "boolean"
    case .int: return "integer"
    case .string: return "string"
    }
  }

  /// `a boolean`, `an integer` or `a string`, for messages.
  package var typePhrase: String { typeName == "integer" ? "an integer" : "a \(typeName)" }

  /// Whether `other` is of the same type.
  package func hasSameType(as other: FlagValue) -> Bool { typeName == other.typeName }

  /// Reads a boolean, an integer or a string; nil for anything else.
  init?(json: JSON) {
    switch json {
    case .bool(let value): self = .bool(value)
    case .string(let value): self = .string(value)
    case .number(let text):
      guard json.intValue != nil, let value = Int64(text) else { return nil }
      self = .int(value)
    default: return nil
    }
  }
}

/// The flags of a running app: their values, in the order the app declares them.
package struct Flags: Sendable, Hashable {
  /// The names, in declaration order.
  package private(set) var names: [String] = []
  /// The values by name.
  package private(set) var values: [String: FlagValue] = [:]

  /// No flags.
  package init() {}

  /// Flags with these names and values, in this order.
  package init(_ pairs: [(String, FlagValue)]) {
    for (name, value) in pairs { self[name] = value }
  }

  /// The value of a flag; setting a new name adds it at the end.
  package subscript(name: String) -> FlagValue? {
    get { values[name] }
    set {
      if values[name] == nil, newValue != nil { names.append(name) }
      if newValue == nil { names.removeAll { $0 == name } }
      values[name] = newValue
    }
  }

  /// `{"NAME":value,...}` in declaration order.
  package var json: JSON {
    .object(names.map { JSONMember($0, values[$0]!.json) })
  }
}
