/// A parsed REGEX: what a `:name(REGEX)` placeholder's value must be, as a tree.
indirect enum RegexNode {
  case scalar(Unicode.Scalar)
  case any
  case set(RegexSet)
  case start
  case end
  case sequence([RegexNode])
  case alternation([RegexNode])
  case repetition(RegexNode, min: Int, max: Int?)
}

/// A class: `[...]` or a class escape such as `\d`, as scalar ranges and class escapes.
struct RegexSet: Sendable {
  var ranges: [ClosedRange<UInt32>] = []
  var escapes: [(kind: UInt8, negated: Bool)] = []
  var negated = false
}

/// Why a REGEX is refused, and where: `offset` is the UTF-8 offset in the REGEX of the
/// construct refused.
struct RegexRefusal: Error {
  var message: String
  var offset: Int
}

/// Reads the REGEX syntax of section 9 of the routing contract (see docs/routing.md), scalar by
/// scalar, refusing everything else with the offset of the construct.
struct RegexParser {
  /// The largest count in `{m}`, `{m,}` or `{m,n}`.
  static let maxCount = 1000
  /// The most groups one inside another.
  static let maxDepth = 100

  private let scalars: [Unicode.Scalar]
  /// The UTF-8 offset of each scalar, and of the end.
  private let offsets: [Int]
  private var index = 0
  private var depth = 0
  /// Whether the REGEX starts with `(?i)`.
  private(set) var folds = false

  init(_ source: String) {
    scalars = Array(source.unicodeScalars)
    var offsets = [0]
    for scalar in scalars { offsets.append(offsets[offsets.count - 1] + UTF8.width(scalar)) }
    self.offsets = offsets
  }

  private func fail(_ message: String, at position: Int) -> RegexRefusal {
    RegexRefusal(message: message, offset: offsets[min(position, offsets.count - 1)])
  }

  private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private func peek(_ offset: Int) -> Unicode.Scalar? {
    index + offset < scalars.count ? scalars[index + offset] : nil
  }

  /// The whole REGEX as a tree.
  mutating func parse() throws(RegexRefusal) -> RegexNode {
    if scalars.starts(with: "(?i)".unicodeScalars) {
      folds = true
      index = 4
    }
    let node = try alternation()
    if index < scalars.count { throw fail("unmatched ')'", at: index) }
    return node
  }

  private mutating func alternation() throws(RegexRefusal) -> RegexNode {
    var branches = [try sequence()]
    while peek == "|" {
      index += 1
      branches.append(try sequence())
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  private mutating func sequence() throws(RegexRefusal) -> RegexNode {
    var items: [RegexNode] = []
    while let next = peek, next != "|", next != ")" {
      items.append(try quantified(try atom()))
    }
    return items.count == 1 ? items[0] : .sequence(items)
  }

  private mutating func atom() throws(RegexRefusal) -> RegexNode {
    let at = index
    let scalar = scalars[index]
    index += 1
    switch scalar {
    case "(": return try group(at: at)
    case "[": return try bracket(at: at)
    case "\\":
      index = at
      switch try escape() {
      case .scalar(let scalar): return .scalar(folded(scalar))
      case .escape(let kind, let negated): return .set(RegexSet(escapes: [(kind, negated)]))
      }
    case ".": return .any
    case "^": return .start
    case "$": return .end
    case "*", "+", "?": throw fail("'\(scalar)' has nothing to repeat", at: at)
    case "{":
      index = at
      _ = try counts()
      throw fail("'{' has nothing to repeat", at: at)
    default: return .scalar(folded(scalar))
    }
  }

  private func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    folds ? RegexSet.lowercase(scalar) : scalar
  }

  private mutating func quantified(_ node: RegexNode) throws(RegexRefusal) -> RegexNode {
    let at = index
    var bounds: (min: Int, max: Int?)
    switch peek {
    case "*": bounds = (0, nil)
    case "+": bounds = (1, nil)
    case "?": bounds = (0, 1)
    case "{": bounds = try counts()
    default: return node
    }
    if index == at { index += 1 }
    switch node {
    case .start, .end: throw fail("'^' and '$' cannot be repeated", at: at)
    default: break
    }
    if peek == "+" { throw fail("possessive quantifiers are not supported", at: index) }
    if peek == "?" { index += 1 }  // lazy: the same whole values
    if let next = peek, "*+?{".unicodeScalars.contains(next) {
      throw fail("a quantifier cannot follow a quantifier", at: index)
    }
    return .repetition(node, min: bounds.min, max: bounds.max)
  }

  /// `{m}`, `{m,}` or `{m,n}` at `index`, which it passes.
  private mutating func counts() throws(RegexRefusal) -> (min: Int, max: Int?) {
    let open = index
    index += 1
    func number(_ parser: inout RegexParser) throws(RegexRefusal) -> Int? {
      let start = parser.index
      var value = 0
      while let digit = parser.peek, ("0"..."9").contains(digit) {
        value = min(value * 10 + Int(digit.value - 0x30), RegexParser.maxCount + 1)
        parser.index += 1
      }
      guard parser.index > start else { return nil }
      if value > RegexParser.maxCount {
        throw parser.fail("a count above \(RegexParser.maxCount)", at: start)
      }
      return value
    }
    let syntax = "'{' must start a count {m}, {m,} or {m,n} (a literal '{' is written '\\{')"
    guard let low = try number(&self) else { throw fail(syntax, at: open) }
    var high: Int? = low
    if peek == "," {
      index += 1
      high = try number(&self)
    }
    guard peek == "}" else { throw fail(syntax, at: open) }
    index += 1
    if let high, high < low { throw fail("count range out of order", at: open) }
    return (low, high)
  }

  private mutating func group(at open: Int) throws(RegexRefusal) -> RegexNode {
    if peek == "?" {
      let kind = peek(1)
      let what: String
      switch kind {
      case ":": what = ""
      case "=", "!": what = "lookahead is not supported"
      case "<" where peek(2) == "=" || peek(2) == "!": what = "lookbehind is not supported"
      case ">": what = "atomic groups are not supported"
      case "(": what = "conditionals are not supported"
      case "i" where peek(2) == ")": what = "'(?i)' is allowed only at the start"
      default: what = "'(?' is supported only as '(?:' and a leading '(?i)'"
      }
      guard what.isEmpty else { throw fail(what, at: open) }
      index += 2
    }
    depth += 1
    guard depth <= Self.maxDepth else {
      throw fail("groups nested more than \(Self.maxDepth) deep", at: open)
    }
    let inner = try alternation()
    guard peek == ")" else { throw fail("unclosed '('", at: open) }
    index += 1
    depth -= 1
    return inner
  }

  private mutating func bracket(at open: Int) throws(RegexRefusal) -> RegexNode {
    var set = RegexSet()
    if peek == "^" {
      set.negated = true
      index += 1
    }
    if peek == "]" { throw fail("empty class (a literal ']' is written '\\]')", at: index) }
    while peek != "]" {
      guard let scalar = peek else { throw fail("unclosed '['", at: open) }
      if scalar == "[" { throw fail("'[' must be escaped in a class", at: index) }
      if let next = peek(1), next == scalar, "&-~".unicodeScalars.contains(scalar) {
        throw fail("class set operations are not supported", at: index)
      }
      let lowAt = index
      guard let low = try classMember(into: &set) else { continue }
      guard peek == "-", let after = peek(1), after != "]" else {
        set.ranges.append(low.value...low.value)
        continue
      }
      index += 1
      let highAt = index
      guard let high = try classMember(into: &set) else {
        throw fail("a range cannot end with a class escape", at: highAt)
      }
      guard low <= high else { throw fail("range out of order", at: lowAt) }
      set.ranges.append(low.value...high.value)
    }
    index += 1
    return .set(set)
  }

  /// One scalar of a class, or nil when a class escape was added to `set`.
  private mutating func classMember(into set: inout RegexSet) throws(RegexRefusal)
    -> Unicode.Scalar?
  {
    guard peek == "\\" else {
      index += 1
      return scalars[index - 1]
    }
    switch try escape() {
    case .scalar(let scalar): return scalar
    case .escape(let kind, let negated):
      set.escapes.append((kind, negated))
      return nil
    }
  }

  private enum Escape {
    case scalar(Unicode.Scalar)
    /// `d`, `w` or `s`, and whether it was written in uppercase.
    case escape(UInt8, negated: Bool)
  }

  /// The escape at `index` (a `\`), which it passes.
  private mutating func escape() throws(RegexRefusal) -> Escape {
    let at = index
    guard let scalar = peek(1) else { throw fail("'\\' at the end", at: at) }
    index += 2
    switch scalar {
    case "t": return .scalar("\t")
    case "n": return .scalar("\n")
    case "x", "u":
      let width = scalar == "x" ? 2 : 4
      var value: UInt32 = 0
      for _ in 0..<width {
        guard let digit = peek, let nibble = UInt8(ascii: digit).hexValue else {
          throw fail("'\\\(scalar)' needs \(width) hex digits", at: at)
        }
        value = value << 4 | UInt32(nibble)
        index += 1
      }
      guard let result = Unicode.Scalar(value) else {
        throw fail("'\\\(scalar)' names no Unicode scalar", at: at)
      }
      return .scalar(result)
    case "d", "w", "s", "D", "W", "S":
      let lower = RegexSet.lowercase(scalar)
      return .escape(UInt8(lower.value), negated: lower != scalar)
    case "1"..."9", "k", "g": throw fail("backreferences are not supported", at: at)
    default:
      guard scalar.isASCII, !UInt8(scalar.value).isASCIILetter, !("0"..."9").contains(scalar)
      else { throw fail("'\\\(scalar)' is not supported", at: at) }
      return .scalar(scalar)
    }
  }
}

extension UInt8 {
  fileprivate init(ascii scalar: Unicode.Scalar) { self = scalar.isASCII ? UInt8(scalar.value) : 0 }
}
