/// The value of one match parameter (ROUTING.md section 5).
public enum ParamValue: Sendable, Hashable {
  /// A string capture or a query value.
  case string(String)
  /// An `int` capture.
  case int(Int64)
  /// A `float` capture.
  case float(Double)
  /// A `*` capture or a repeated query key.
  case strings([String])

  /// The value as text, the way a redirect template writes it (section 6); nil for an array.
  public var text: String? {
    switch self {
    case .string(let value): return value
    case .int(let value): return String(value)
    case .float(let value): return formatPositional(value)
    case .strings: return nil
    }
  }

  /// The value as JSON: a string, a number or an array of strings.
  public var json: JSON {
    switch self {
    case .string(let value): return .string(value)
    case .int(let value): return .number(String(value))
    case .float(let value): return .number(formatPositional(value))
    case .strings(let values): return .array(values.map(JSON.string))
    }
  }
}

/// Match parameters by name.
public typealias Parameters = [String: ParamValue]

extension Dictionary where Key == String, Value == ParamValue {
  /// The parameters as a JSON object with keys in sorted order, so output is stable.
  public var json: JSON {
    .object(keys.sorted().map { JSONMember($0, self[$0]!.json) })
  }
}

/// Writes a finite double with the fewest significant digits that read back as the same value,
/// positionally (no exponent), with `0` before a leading `.` and no trailing `.0`; `-0` is `0`.
public func formatPositional(_ value: Double) -> String {
  if value == 0 { return "0" }
  // `description` already gives the shortest round-trip digits; only the layout changes here.
  var text = value.description
  var negative = false
  if text.hasPrefix("-") {
    negative = true
    text.removeFirst()
  }
  var exponent = 0
  if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
    exponent = Int(text[text.index(after: e)...]) ?? 0
    text = String(text[..<e])
  }
  var integerPart = text
  var fraction = ""
  if let dot = text.firstIndex(of: ".") {
    integerPart = String(text[..<dot])
    fraction = String(text[text.index(after: dot)...])
  }
  // All digits, and where the decimal point sits among them.
  var digits = integerPart + fraction
  var point = integerPart.count + exponent
  while digits.count > 1, digits.first == "0" {
    digits.removeFirst()
    point -= 1
  }
  while digits.count > 1, digits.last == "0" { digits.removeLast() }
  var result: String
  if point <= 0 {
    result = "0." + String(repeating: "0", count: -point) + digits
  } else if point >= digits.count {
    result = digits + String(repeating: "0", count: point - digits.count)
  } else {
    let split = digits.index(digits.startIndex, offsetBy: point)
    result = digits[..<split] + "." + digits[split...]
  }
  if negative { result = "-" + result }
  return result
}

/// A string compared and hashed by its UTF-8 bytes: ROUTING.md compares decoded text exactly,
/// while Swift's `==` treats canonically equivalent strings (`é` and `e` + U+0301) as equal.
struct ExactText: Hashable, Sendable {
  let text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: ExactText, rhs: ExactText) -> Bool {
    lhs.text.utf8.elementsEqual(rhs.text.utf8)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(text.utf8.count)
    for byte in text.utf8 { hasher.combine(byte) }
  }
}

extension String {
  /// Exact (byte-for-byte) equality, as ROUTING.md compares decoded text.
  func isExactly(_ other: String) -> Bool { utf8.elementsEqual(other.utf8) }
}

extension Optional where Wrapped == String {
  /// Exact equality of optional text.
  func isExactly(_ other: String?) -> Bool {
    switch (self, other) {
    case (nil, nil): return true
    case (let a?, let b?): return a.isExactly(b)
    default: return false
    }
  }
}
