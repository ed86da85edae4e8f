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
    switch self {
    case .string, .path: return .string(text)
    case .int: return parseInt(text).map(ParamValue.int)
    case .float: return parseFloat(text).map(ParamValue.float)
    case .uuid: return parseUUID(text).map(ParamValue.string)
    }
  }
}

/// What one pattern segment matches.
public enum SegmentKind: Sendable, Hashable {
  /// Exactly this decoded text.
  case literal(String)
  /// One segment of the given type (not `path`).
  case capture(CaptureType)
  /// `<path:name>`: one or more remaining segments.
  case path
  /// `*`: zero or more remaining segments.
  case rest
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
  }

  /// Makes a query constraint.
  public init(key: String, value: Value) {
    self.key = key
    self.value = value
  }
}

// MARK: - Typed values

/// `-?[0-9]+` fitting Int64.
func parseInt(_ text: String) -> Int64? {
  let utf8 = text.utf8
  guard let first = utf8.first else { return nil }
  var digits = utf8[...]
  if first == 0x2D { digits = digits.dropFirst() }
  guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
  return Int64(text)
}

/// `[+-] (digits [. [digits]] | . digits) [(e|E) [+-] digits]`, finite as a Double.
func parseFloat(_ text: String) -> Double? {
  let grammatical = Array(text.utf8).withUnsafeBufferPointer { floatShape($0) != nil }
  guard grammatical, let value = Double(text), value.isFinite else { return nil }
  return value
}

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

/// 8-4-4-4-12 hex digits in any case, returned in uppercase.
func parseUUID(_ text: String) -> String? {
  let bytes = Array(text.utf8)
  guard bytes.count == 36 else { return nil }
  for (offset, byte) in bytes.enumerated() {
    if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
      guard byte == 0x2D else { return nil }
    } else {
      guard byte.hexValue != nil else { return nil }
    }
  }
  return text.uppercased()
}

// MARK: - Typed checks on bytes

extension CaptureType {
  /// Whether `text` is a value of this type, exactly as ``value(of:)`` decides, without making
  /// the value.
  func accepts(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { accepts($0) }
  }

  /// Whether `bytes` are a value of this type, exactly as ``value(of:)`` decides, without
  /// making a string (except for rare floats whose finiteness needs a full parse).
  @inline(__always)
  func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    switch self {
    case .string, .path: return true
    case .int: return bytesAreInt(bytes)
    case .float: return bytesAreFloat(bytes)
    case .uuid: return bytesAreUUID(bytes)
    }
  }
}

/// `-?[0-9]+` fitting Int64, as ``parseInt(_:)``.
@inline(__always)
func bytesAreInt(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { intValue(bytes) != nil }

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

@inline(__always)
func bytesAreFloat(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
  guard let shape = floatShape(bytes) else { return false }
  // Fewer than 300 integer digits and no exponent: always finite.
  if !shape.hasExponent && shape.intDigits < 300 { return true }
  return parseFloat(String(decoding: bytes, as: UTF8.self)) != nil
}

/// 8-4-4-4-12 hex digits, as ``parseUUID(_:)``.
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
