/// A property list value (Info.plist, `.entitlements`), read from XML or binary (`bplist00`).
package enum PropertyList: Sendable, Hashable {
  /// `<string>`.
  case string(String)
  /// `<integer>`.
  case integer(Int64)
  /// `<real>`.
  case real(Double)
  /// `<true/>` or `<false/>`.
  case bool(Bool)
  /// `<date>`: seconds since 2001-01-01 in a binary list, the text as written in XML.
  case date(String)
  /// `<data>`: the bytes (base64 in XML).
  case data([UInt8])
  /// `<array>`.
  case array([PropertyList])
  /// `<dict>`.
  case dictionary([String: PropertyList])

  /// `a string`, `an array`, ... for messages.
  package var kindDescription: String {
    switch self {
    case .string: return "a string"
    case .integer: return "an integer"
    case .real: return "a real"
    case .bool: return "a boolean"
    case .date: return "a date"
    case .data: return "data"
    case .array: return "an array"
    case .dictionary: return "a dictionary"
    }
  }

  /// Reads a property list: binary when the bytes start with `bplist00`, else XML.
  package static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyList {
    if bytes.starts(with: Array("bplist".utf8)) {
      var reader = BinaryPropertyListReader(bytes)
      return try reader.read()
    }
    var reader = XMLPropertyListReader(bytes)
    return try reader.read()
  }
}

/// A property list that cannot be read: where (`line 3, column 5` or `object 4`) and what.
package struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `WHERE: problem`.
  package var description: String

  /// Makes an error.
  package init(_ description: String) { self.description = description }
}
