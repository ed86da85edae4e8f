/// A compiled route pattern, such as `myapp://orders/<int:id>(/edit)`.
public struct RoutePattern: Sendable, Hashable {
  /// The most optional groups one pattern may have (a pattern behaves as 2^n routes).
  public static let maxOptionalGroups = 8

  /// The pattern exactly as written.
  public let text: String
  /// The scheme in lowercase, or nil for a global pattern.
  public let scheme: String?
  /// The domain the pattern requires, in lowercase, or nil.
  public let domain: String?
  /// The segments every expansion has.
  public let segments: [PatternSegment]
  /// The optional groups, in written order.
  public let groups: [[PatternSegment]]
  /// The query constraints, in written order.
  public let constraints: [QueryConstraint]

  /// The longest pattern compiled, in bytes.
  public static let maxBytes = 4096

  /// Compiles a pattern, or says what is wrong and where.
  public init(_ text: String) throws(PatternError) {
    guard text.utf8.count <= Self.maxBytes else {
      throw PatternError(
        pattern: String(text.prefix(64)) + "…", message: "longer than \(Self.maxBytes) bytes",
        column: 1)
    }
    var parser = PatternParser(text)
    let parts = try parser.parse()
    self.text = text
    scheme = parts.scheme
    domain = parts.domain
    segments = parts.segments
    groups = parts.groups
    constraints = parts.constraints
  }

  /// The segment lists this pattern stands for: one per choice of optional groups, in written
  /// order (all groups absent first).
  public var expansions: [[PatternSegment]] {
    (0..<expansionCount).map(expansion)
  }

}

/// A pattern that does not follow the grammar: what is wrong, and the column (1-based, in
/// characters) where it is.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The pattern as written.
  public var pattern: String
  /// What is wrong, e.g. `'*' must be the last segment`.
  public var message: String
  /// The 1-based column, in characters, of the offending part.
  public var column: Int

  /// The message followed by where, e.g. `'*' must be the last segment (column 4 of "/a/*/b")`.
  public var description: String {
    "\(message) (column \(column) of \(JSON.quote(pattern)))"
  }
}

/// Parses pattern text on its UTF-8 bytes.
private struct PatternParser {
  struct Parts {
    var scheme: String?
    var domain: String?
    var segments: [PatternSegment] = []
    var groups: [[PatternSegment]] = []
    var constraints: [QueryConstraint] = []
  }

  let text: String
  let bytes: [UInt8]
  var names: Set<String> = []

  init(_ text: String) {
    self.text = text
    bytes = Array(text.utf8)
  }

  func fail(_ message: String, at offset: Int) -> PatternError {
    let prefix = bytes[0..<min(offset, bytes.count)]
    let column = String(decoding: prefix, as: UTF8.self).count + 1
    return PatternError(pattern: text, message: message, column: column)
  }

  mutating func parse() throws(PatternError) -> Parts {
    var parts = Parts()
    if let hash = bytes.firstIndex(of: 0x23) {
      throw fail("'#' is not allowed in a pattern", at: hash)
    }
    var index = 0
    if let first = bytes.first, first.isASCIILetter {
      var cursor = 1
      while cursor < bytes.count,
        bytes[cursor].isASCIILetter || bytes[cursor].isASCIIDigit
          || bytes[cursor] == 0x2B || bytes[cursor] == 0x2D || bytes[cursor] == 0x2E
      {
        cursor += 1
      }
      if bytes.count - cursor >= 3, bytes[cursor] == 0x3A, bytes[cursor + 1] == 0x2F,
        bytes[cursor + 2] == 0x2F
      {
        parts.scheme = String(decoding: bytes[0..<cursor], as: UTF8.self).lowercased()
        index = cursor + 3
      }
    }
    let pathEnd = bytes[index...].firstIndex(of: 0x3F) ?? bytes.count
    var segmentOffsets: [Int] = []
    var groupOffsets: [Int] = []
    while index < pathEnd {
      switch bytes[index] {
      case 0x2F:
        index += 1
      case 0x28:
        let open = index
        index += 1
        guard index < pathEnd, bytes[index] == 0x2F else {
          if index >= pathEnd { throw fail("unclosed '('", at: open) }
          throw fail("an optional group must start with '/'", at: open)
        }
        var group: [PatternSegment] = []
        var closed = false
        while index < pathEnd {
          let byte = bytes[index]
          if byte == 0x2F {
            index += 1
          } else if byte == 0x29 {
            index += 1
            closed = true
            break
          } else if byte == 0x28 {
            throw fail("optional groups cannot be nested", at: index)
          } else {
            let start = index
            while index < pathEnd, bytes[index] != 0x2F, bytes[index] != 0x28,
              bytes[index] != 0x29
            {
              index += 1
            }
            group.append(try segment(start..<index))
          }
        }
        guard closed else { throw fail("unclosed '('", at: open) }
        guard !group.isEmpty else { throw fail("empty optional group", at: open) }
        guard parts.groups.count < RoutePattern.maxOptionalGroups else {
          throw fail(
            "more than \(RoutePattern.maxOptionalGroups) optional groups", at: open)
        }
        parts.groups.append(group)
        groupOffsets.append(open)
      case 0x29:
        throw fail("unmatched ')'", at: index)
      default:
        let start = index
        while index < pathEnd, bytes[index] != 0x2F, bytes[index] != 0x28, bytes[index] != 0x29 {
          index += 1
        }
        if !parts.groups.isEmpty {
          throw fail("a plain segment cannot follow an optional group", at: start)
        }
        parts.segments.append(try segment(start..<index))
        segmentOffsets.append(start)
      }
    }
    try checkTrailing(parts, segmentOffsets: segmentOffsets, groupOffsets: groupOffsets)
    if parts.scheme != nil, case .literal(let first)? = parts.segments.first?.kind,
      first.contains(".") || first.lowercased() == "localhost"
    {
      parts.domain = first.lowercased()
      parts.segments.removeFirst()
    }
    if pathEnd < bytes.count {
      parts.constraints = try query(from: pathEnd + 1)
    }
    return parts
  }

  /// `*` and `<path:>` may only end an expansion.
  func checkTrailing(_ parts: Parts, segmentOffsets: [Int], groupOffsets: [Int])
    throws(PatternError)
  {
    func message(_ kind: SegmentKind) -> String {
      kind == .rest ? "'*' must be the last segment" : "a path capture must be the last segment"
    }
    for (index, segment) in parts.segments.enumerated()
    where segment.kind == .rest || segment.kind == .path {
      if index != parts.segments.count - 1 || !parts.groups.isEmpty {
        throw fail(message(segment.kind), at: segmentOffsets[index])
      }
    }
    for (groupIndex, group) in parts.groups.enumerated() {
      for (index, segment) in group.enumerated()
      where segment.kind == .rest || segment.kind == .path {
        if index != group.count - 1 || groupIndex != parts.groups.count - 1 {
          throw fail(message(segment.kind), at: groupOffsets[groupIndex])
        }
      }
    }
  }

  mutating func segment(_ range: Range<Int>) throws(PatternError) -> PatternSegment {
    let piece = bytes[range]
    let start = range.lowerBound
    if piece.count == 1, piece.first == 0x2A {
      return PatternSegment(kind: .rest, name: "*")
    }
    if piece.first == 0x3A {
      let name = try self.name(piece.dropFirst(), at: start + 1)
      return PatternSegment(kind: .capture(.string), name: name)
    }
    if piece.first == 0x3C {
      let (type, name) = try placeholder(range)
      return PatternSegment(kind: type == .path ? .path : .capture(type), name: name)
    }
    if let bad = piece.firstIndex(where: { $0 == 0x3C || $0 == 0x3E }) {
      throw fail("'\(Character(Unicode.Scalar(piece[bad])))' is not allowed in a literal", at: bad)
    }
    let literal: String
    do {
      literal = try percentDecode(piece)
    } catch {
      throw fail(
        error == .invalidEscape ? "invalid percent escape" : "invalid UTF-8 after decoding",
        at: start)
    }
    if literal == "." || literal == ".." {
      throw fail("'.' and '..' segments are not allowed", at: start)
    }
    return PatternSegment(kind: .literal(literal))
  }

  /// `<name>` or `<type:name>` spanning all of `range`.
  mutating func placeholder(_ range: Range<Int>) throws(PatternError) -> (CaptureType, String) {
    let start = range.lowerBound
    guard range.count >= 2, bytes[range.upperBound - 1] == 0x3E else {
      throw fail("'<' without a closing '>' at the end of the segment", at: start)
    }
    let inner = bytes[(start + 1)..<(range.upperBound - 1)]
    if let bad = inner.firstIndex(where: { $0 == 0x3C || $0 == 0x3E }) {
      throw fail("unexpected '\(Character(Unicode.Scalar(bytes[bad])))' in a placeholder", at: bad)
    }
    guard let colon = inner.firstIndex(of: 0x3A) else {
      return (.string, try name(inner, at: start + 1))
    }
    let typeText = String(decoding: inner[..<colon], as: UTF8.self)
    guard let type = CaptureType(rawValue: typeText) else {
      throw fail(
        "unknown type '\(typeText)' (string, int, float, uuid or path)", at: start + 1)
    }
    return (type, try name(inner[(colon + 1)...], at: colon + 1))
  }

  /// A placeholder name: an ASCII letter or `_`, then letters, digits or `_`; used once.
  mutating func name(_ piece: ArraySlice<UInt8>, at offset: Int) throws(PatternError) -> String {
    guard let first = piece.first, first.isASCIILetter || first == 0x5F,
      piece.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == 0x5F })
    else {
      let shown = String(decoding: piece, as: UTF8.self)
      throw fail(
        "invalid parameter name '\(shown)' (a letter or '_', then letters, digits or '_')",
        at: offset)
    }
    let name = String(decoding: piece, as: UTF8.self)
    guard names.insert(name).inserted else {
      throw fail("parameter name '\(name)' is used twice", at: offset)
    }
    return name
  }

  mutating func query(from start: Int) throws(PatternError) -> [QueryConstraint] {
    var constraints: [QueryConstraint] = []
    var keys: Set<String> = []
    var pieceStart = start
    var index = start
    while index <= bytes.count {
      guard index == bytes.count || bytes[index] == 0x26 else {
        index += 1
        continue
      }
      let piece = bytes[pieceStart..<index]
      guard let equals = piece.firstIndex(of: 0x3D) else {
        throw fail("a query constraint must be key=value", at: pieceStart)
      }
      let keyBytes = piece[..<equals]
      let valueBytes = piece[(equals + 1)...]
      let key = try queryLiteral(keyBytes, at: pieceStart, what: "query key")
      guard keys.insert(key).inserted else {
        throw fail("query key '\(key)' is constrained twice", at: pieceStart)
      }
      let value: QueryConstraint.Value
      if valueBytes.first == 0x3A {
        value = .capture(.string, name: try name(valueBytes.dropFirst(), at: equals + 2))
      } else if valueBytes.first == 0x3C {
        let (type, name) = try placeholder(valueBytes.startIndex..<valueBytes.endIndex)
        guard type != .path else {
          throw fail("a query value cannot be a path capture", at: equals + 1)
        }
        value = .capture(type, name: name)
      } else {
        value = .literal(try queryLiteral(valueBytes, at: equals + 1, what: "query value"))
      }
      constraints.append(QueryConstraint(key: key, value: value))
      pieceStart = index + 1
      index += 1
    }
    return constraints
  }

  func queryLiteral(_ piece: ArraySlice<UInt8>, at offset: Int, what: String)
    throws(PatternError) -> String
  {
    guard !piece.isEmpty else { throw fail("empty \(what)", at: offset) }
    if piece.first == 0x3A { throw fail("a \(what) cannot start with ':'", at: offset) }
    if piece.count == 1, piece.first == 0x2A { throw fail("a \(what) cannot be '*'", at: offset) }
    let forbidden: Set<UInt8> = [0x2F, 0x3F, 0x23, 0x28, 0x29, 0x3C, 0x3E, 0x3D]
    if let bad = piece.firstIndex(where: forbidden.contains) {
      throw fail(
        "'\(Character(Unicode.Scalar(bytes[bad])))' is not allowed in a \(what)", at: bad)
    }
    do {
      return try percentDecode(piece, plusAsSpace: true)
    } catch {
      throw fail(
        error == .invalidEscape ? "invalid percent escape" : "invalid UTF-8 after decoding",
        at: offset)
    }
  }
}
