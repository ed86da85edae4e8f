/// The type of a typed placeholder such as `<int:id>`.
public enum CaptureType: String, Sendable, Hashable, CaseIterable {
  /// One segment as a string.
  case string
  /// An optional `-` then decimal digits, fitting a 64-bit signed integer.
  case int
  /// A finite decimal floating-point number.
  case float
  /// 8-4-4-4-12 hex digits, captured in uppercase.
  case uuid
  /// One or more remaining segments joined with `/`.
  case path

  /// The value of `text` as this type, or nil when it does not fit; `path` takes any text.
  public func value(of text: String) -> ParamValue? {
    if self == .string || self == .path { return .string(text) }
    var text = text
    return text.withUTF8 { value(of: $0) }
  }

  /// The value of UTF-8 `bytes` as this type, or nil when they do not fit.
  func value(of bytes: UnsafeBufferPointer<UInt8>) -> ParamValue? {
    switch self {
    case .string, .path: return .string(String(decoding: bytes, as: UTF8.self))
    case .int: return intValue(bytes).map(ParamValue.int)
    case .float: return floatValue(bytes).map(ParamValue.float)
    case .uuid:
      guard bytesAreUUID(bytes) else { return nil }
      return .string(String(decoding: bytes, as: UTF8.self).uppercased())
    }
  }
}

/// What one pattern segment matches.
public enum SegmentKind: Sendable, Hashable {
  /// Exactly this decoded text.
  case literal(String)
  /// One segment of the given type (not `path`).
  case capture(CaptureType)
  /// `<a|b|c:name>`: one segment that is exactly one of the decoded alternatives.
  case oneOf([String])
  /// `:name(REGEX)`: one segment whose decoded text the regular expression matches as a whole.
  case regex(RouteRegex)
  /// `<path:name>`: one or more segments.
  case path
  /// `*`: zero or more segments.
  case rest

  /// Whether the segment takes any number of URL segments (`*` or `<path:>`).
  public var isWildcard: Bool { self == .path || self == .rest }
}

/// One segment of a compiled pattern: what it matches and the name it captures under.
public struct PatternSegment: Sendable, Hashable {
  /// What the segment matches.
  public var kind: SegmentKind
  /// The parameter name, or nil for a literal; `*` for a trailing `*`.
  public var name: String?

  /// Makes a pattern segment.
  public init(kind: SegmentKind, name: String? = nil) {
    self.kind = kind
    self.name = name
  }
}

/// A query constraint of a pattern: the key must appear once, with a literal value or a capture.
public struct QueryConstraint: Sendable, Hashable {
  /// The decoded query key.
  public var key: String
  /// What the value must be.
  public var value: Value

  /// The required value of a constrained key.
  public enum Value: Sendable, Hashable {
    /// Exactly this decoded text.
    case literal(String)
    /// Any value of the type, captured under the name.
    case capture(CaptureType, name: String)
    /// One of the decoded alternatives, captured under the name.
    case oneOf([String], name: String)
    /// A value the regular expression matches as a whole, captured under the name.
    case regex(RouteRegex, name: String)
    /// `!key`: the key must not appear in the URL at all.
    case absent

    /// The name the value is captured under, if any.
    public var name: String? {
      switch self {
      case .literal, .absent: return nil
      case .capture(_, let name), .oneOf(_, let name), .regex(_, let name): return name
      }
    }
  }

  /// Makes a query constraint.
  public init(key: String, value: Value) {
    self.key = key
    self.value = value
  }
}

// MARK: - Typed values, read from bytes

/// Whether `bytes` follow the float grammar, and if so its integer digits and whether it has
/// an exponent (what decides if it can be too large for a Double); nil when they do not.
@inline(__always)
func floatShape(_ bytes: UnsafeBufferPointer<UInt8>) -> (intDigits: Int, hasExponent: Bool)? {
  var index = 0
  if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
  var intDigits = 0
  while index < bytes.count, bytes[index].isASCIIDigit {
    index += 1
    intDigits += 1
  }
  var fracDigits = 0
  if index < bytes.count, bytes[index] == 0x2E {
    index += 1
    while index < bytes.count, bytes[index].isASCIIDigit {
      index += 1
      fracDigits += 1
    }
  }
  guard intDigits > 0 || fracDigits > 0 else { return nil }
  var hasExponent = false
  if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
    hasExponent = true
    index += 1
    if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
    var expDigits = 0
    while index < bytes.count, bytes[index].isASCIIDigit {
      index += 1
      expDigits += 1
    }
    guard expDigits > 0 else { return nil }
  }
  guard index == bytes.count else { return nil }
  return (intDigits, hasExponent)
}

// MARK: - Typed checks on bytes

extension CaptureType {
  /// Whether `text` is a value of this type, exactly as ``value(of:)-(String)`` decides,
  /// without making the value.
  func accepts(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { accepts($0) }
  }

  /// Whether `bytes` are a value of this type, exactly as ``value(of:)-(String)`` decides,
  /// without making a string (except for rare floats whose finiteness needs a full parse).
  @inline(__always)
  func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    switch self {
    case .string, .path: return true
    case .int: return intValue(bytes) != nil
    case .float: return bytesAreFloat(bytes)
    case .uuid: return bytesAreUUID(bytes)
    }
  }
}

/// The value of a decimal `int` segment (an optional `-` then digits, in range), read in place.
@inline(__always)
func intValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
  var index = 0
  let negative = !bytes.isEmpty && bytes[0] == 0x2D
  if negative { index = 1 }
  guard index < bytes.count else { return nil }
  // Accumulate downwards so Int64.min fits.
  var value: Int64 = 0
  while index < bytes.count {
    let byte = bytes[index]
    guard byte.isASCIIDigit else { return nil }
    let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
    let (next, overflow2) = times10.subtractingReportingOverflow(Int64(byte &- 0x30))
    if overflow1 || overflow2 { return nil }
    value = next
    index += 1
  }
  if negative { return value }
  return value == Int64.min ? nil : -value
}

/// Whether `bytes` are a `float` value: the grammar, and finite as a Double.
@inline(__always)
func bytesAreFloat(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let shape = floatShape(bytes) else { return false }
  // Fewer than 300 integer digits and no exponent: always finite.
  if !shape.hasExponent && shape.intDigits < 300 { return true }
  return floatValue(bytes) != nil
}

/// `[+-] (digits [. [digits]] | . digits) [(e|E) [+-] digits]`, finite as a Double.
func floatValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
  guard floatShape(bytes) != nil, let value = Double(String(decoding: bytes, as: UTF8.self)),
    value.isFinite
  else { return nil }
  return value
}

/// 8-4-4-4-12 hex digits in any case.
@inline(__always)
func bytesAreUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard bytes.count == 36 else { return false }
  for offset in 0..<36 {
    let byte = bytes[offset]
    if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
      guard byte == 0x2D else { return false }
    } else {
      guard byte.hexValue != nil else { return false }
    }
  }
  return true
}
