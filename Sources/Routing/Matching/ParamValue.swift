import JSON

/// The value of one match parameter.
public enum ParamValue: Sendable, Hashable {
  /// A string capture or a query value.
  case string(String)
  /// An `int` capture.
  case int(Int64)
  /// A `float` capture.
  case float(Double)
  /// A `*` capture or a repeated query key.
  case strings([String])

  /// The value as text, the way a redirect template writes it; nil for an array.
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

/// Match parameters by name: a small ordered list, so building one for a match is one
/// allocation and no hashing. Keys compare as Swift strings (canonically equivalent keys are
/// one key); equality and hashing ignore order, as for a dictionary.
public struct Parameters: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence,
  CustomStringConvertible
{
  /// One parameter.
  public typealias Element = (key: String, value: ParamValue)

  /// One stored parameter.
  fileprivate struct Entry: Sendable {
    var key: String
    var value: ParamValue
  }

  private var entries: ContiguousArray<Entry>

  /// No parameters.
  public init() {
    entries = []
  }

  /// Parameters from a literal; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, ParamValue)...) {
    self.init()
    for (key, value) in elements { self[key] = value }
  }

  /// No parameters, with room for `capacity` without regrowing.
  init(capacity: Int) {
    entries = []
    // Reserving nothing would still allocate.
    if capacity > 0 { entries.reserveCapacity(capacity) }
  }

  /// The value for `key`, if any; setting nil removes it.
  public subscript(key: String) -> ParamValue? {
    get { position(of: key).map { entries[$0].value } }
    set {
      if let position = position(of: key) {
        if let newValue {
          entries[position].value = newValue
        } else {
          entries.remove(at: position)
        }
      } else if let newValue {
        entries.append(Entry(key: key, value: newValue))
      }
    }
  }

  /// Adds a key the caller knows is not present yet.
  mutating func append(_ key: String, _ value: ParamValue) {
    entries.append(Entry(key: key, value: value))
  }

  /// The keys, in the order they were first set.
  public var keys: [String] { entries.map { $0.key } }
  /// The number of parameters.
  public var count: Int { entries.count }
  /// Whether there are none.
  public var isEmpty: Bool { entries.isEmpty }

  private func position(of key: String) -> Int? {
    entries.firstIndex { $0.key == key }
  }

  /// The parameters in the order they were first set.
  public func makeIterator() -> Iterator {
    Iterator(entries: entries)
  }

  /// Walks parameters in the order they were first set.
  public struct Iterator: IteratorProtocol, Sendable {
    private let entries: ContiguousArray<Entry>
    private var position = 0

    fileprivate init(entries: ContiguousArray<Entry>) { self.entries = entries }

    /// The next parameter, or nil after the last.
    public mutating func next() -> Element? {
      guard position < entries.count else { return nil }
      defer { position += 1 }
      return (entries[position].key, entries[position].value)
    }
  }

  /// Same keys with the same values, in any order.
  public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
    lhs.count == rhs.count && lhs.entries.allSatisfy { rhs[$0.key] == $0.value }
  }

  /// Hashes without regard to order.
  public func hash(into hasher: inout Hasher) {
    var sum = 0
    for entry in entries {
      var one = Hasher()
      one.combine(entry.key)
      one.combine(entry.value)
      sum &+= one.finalize()
    }
    hasher.combine(count)
    hasher.combine(sum)
  }

  /// The parameters as a dictionary literal, in order.
  public var description: String {
    if entries.isEmpty { return "[:]" }
    return "[" + entries.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ")
      + "]"
  }

  /// The parameters as a JSON object with keys in sorted order, so output is stable.
  public var json: JSON {
    .object(keys.sorted().map { JSONMember($0, self[$0]!.json) })
  }

  /// Appends the serialisation of ``json`` to `out` without building it.
  package func writeJSON(to out: inout [UInt8]) {
    out.append(ASCII.openBrace)
    for (offset, entry) in entries.sorted(by: { $0.key < $1.key }).enumerated() {
      if offset > 0 { out.append(ASCII.comma) }
      JSON.appendQuoted(entry.key, to: &out)
      out.append(ASCII.colon)
      switch entry.value {
      case .string(let value): JSON.appendQuoted(value, to: &out)
      case .int(let value): out += String(value).utf8
      case .float(let value): out += formatPositional(value).utf8
      case .strings(let values):
        out.append(ASCII.openBracket)
        for (index, value) in values.enumerated() {
          if index > 0 { out.append(ASCII.comma) }
          JSON.appendQuoted(value, to: &out)
        }
        out.append(ASCII.closeBracket)
      }
    }
    out.append(ASCII.closeBrace)
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

extension String {
  /// Exact (byte-for-byte) equality, as routes compare decoded text.
  package func isExactly(_ other: String) -> Bool {
    var mine = self
    var theirs = other
    return mine.withUTF8 { mine in theirs.withUTF8 { mine.elementsEqual($0) } }
  }
}

extension Optional where Wrapped == String {
  /// Exact equality of optional text.
  package func isExactly(_ other: String?) -> Bool {
    switch (self, other) {
    case (nil, nil): return true
    case (let a?, let b?): return a.isExactly(b)
    default: return false
    }
  }
}
