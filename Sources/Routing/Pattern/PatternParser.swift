/// Parses pattern text on its UTF-8 bytes.
struct PatternParser {
  struct Parts {
    var scheme: String?
    var domain: String?
    var segments: [PatternSegment] = []
    var groups: [[PatternSegment]] = []
    var constraints: [QueryConstraint] = []
    var fragment: FragmentPattern?
  }

  let text: String
  let bytes: [UInt8]
  var names: Set<String> = []
  /// Where each `(REGEX)` of a `:name(REGEX)` is, parentheses included, by its `(`: inside
  /// one, `/`, `?`, `#`, `&`, `(` and `)` do not split the pattern.
  var regexEnds: [Int: Int] = [:]

  init(_ text: String) {
    self.text = text
    bytes = Array(text.utf8)
  }

  func fail(_ message: String, at offset: Int) -> PatternError {
    let prefix = bytes[0..<min(offset, bytes.count)]
    let column = String(decoding: prefix, as: UTF8.self).count + 1
    return PatternError(pattern: text, message: message, column: column)
  }

  /// The first offset from `start` below `end` whose byte is one of `stops`, outside any
  /// REGEX; `end` when there is none.
  func find(_ stops: [UInt8], from start: Int, to end: Int) -> Int {
    var index = start
    while index < end {
      if !regexEnds.isEmpty, let close = regexEnds[index] {
        index = close
        continue
      }
      if stops.contains(bytes[index]) { return index }
      index += 1
    }
    return end
  }

  /// Finds every `(REGEX)`: a `(` right after the name of a `:name` that starts a segment, a
  /// query value or the fragment, and not followed by `/` (which starts an optional group).
  /// Its end is found by balancing parentheses; `\(`, `\)` and those inside `[...]` do not
  /// count, and `/` or `#` may not appear unescaped.
  mutating func findRegexes() throws(PatternError) {
    let starts: [UInt8] = [0x2F, 0x28, 0x3D, 0x23]
    var index = 0
    while index < bytes.count {
      defer { index += 1 }
      guard bytes[index] == 0x3A, index == 0 || starts.contains(bytes[index - 1]) else {
        continue
      }
      var open = index + 1
      while open < bytes.count,
        bytes[open].isASCIILetter || bytes[open].isASCIIDigit || bytes[open] == 0x5F
      {
        open += 1
      }
      guard open > index + 1, open < bytes.count, bytes[open] == 0x28,
        open + 1 >= bytes.count || bytes[open + 1] != 0x2F
      else { continue }
      var depth = 0
      var inClass = 0
      var cursor = open
      while cursor < bytes.count {
        let byte = bytes[cursor]
        if byte == 0x5C {
          cursor += 2
          continue
        }
        if byte == 0x2F || byte == 0x23 {
          throw fail(
            "'\(Character(Unicode.Scalar(byte)))' must be escaped in a regular expression",
            at: cursor)
        }
        if byte == 0x5B {
          inClass += 1
        } else if byte == 0x5D, inClass > 0 {
          inClass -= 1
        } else if inClass == 0, byte == 0x28 {
          depth += 1
        } else if inClass == 0, byte == 0x29 {
          depth -= 1
          if depth == 0 { break }
        }
        cursor += 1
      }
      guard cursor < bytes.count else {
        throw fail("unclosed '(' of a regular expression", at: open)
      }
      regexEnds[open] = cursor + 1
      index = cursor
    }
  }

  mutating func parse() throws(PatternError) -> Parts {
    var parts = Parts()
    try findRegexes()
    let fragmentStart = find([0x23], from: 0, to: bytes.count)
    let secondHash = find([0x23], from: fragmentStart + 1, to: bytes.count)
    if secondHash < bytes.count { throw fail("a pattern may have only one '#'", at: secondHash) }
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
    // `//domain/...` names a domain without a scheme.
    let namesAuthority =
      parts.scheme != nil
      || (bytes.count >= 2 && bytes[0] == 0x2F && bytes[1] == 0x2F)
    let pathEnd = find([0x3F], from: index, to: fragmentStart)
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
            index = find([0x2F, 0x28, 0x29], from: index, to: pathEnd)
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
        index = find([0x2F, 0x28, 0x29], from: index, to: pathEnd)
        if !parts.groups.isEmpty {
          throw fail("a plain segment cannot follow an optional group", at: start)
        }
        parts.segments.append(try segment(start..<index))
        segmentOffsets.append(start)
      }
    }
    var domainStart = -1
    if namesAuthority, case .literal(let first)? = parts.segments.first?.kind,
      first.contains(".") || first.lowercased() == "localhost"
    {
      try checkDomain(first, at: segmentOffsets[0])
      parts.domain = first.lowercased()
      parts.segments.removeFirst()
      domainStart = segmentOffsets.removeFirst()
    }
    // `*.` only starts a domain; outside a REGEX it may stand nowhere else.
    var star = find([0x2A], from: 0, to: bytes.count)
    while star < bytes.count {
      if star + 1 < bytes.count, bytes[star + 1] == 0x2E, star != domainStart {
        throw fail("'*.' may only start a domain, right after '//'", at: star)
      }
      star = find([0x2A], from: star + 1, to: bytes.count)
    }
    if pathEnd < fragmentStart {
      var keys: Set<String> = []
      parts.constraints = try query(from: pathEnd + 1, to: fragmentStart, keys: &keys)
    }
    var fragmentOffsets: [Int] = []
    if fragmentStart < bytes.count {
      let start = fragmentStart + 1
      if find([0x3D], from: start, to: bytes.count) < bytes.count {
        var keys: Set<String> = []
        parts.fragment = .query(try query(from: start, to: bytes.count, keys: &keys))
      } else {
        var list: [PatternSegment] = []
        index = start
        while index < bytes.count {
          if bytes[index] == 0x2F {
            index += 1
            continue
          }
          if bytes[index] == 0x28 || bytes[index] == 0x29 {
            throw fail("a fragment cannot have optional groups", at: index)
          }
          let segmentStart = index
          index = find([0x2F, 0x28, 0x29], from: index, to: bytes.count)
          list.append(try segment(segmentStart..<index, inFragment: true))
          fragmentOffsets.append(segmentStart)
        }
        parts.fragment = .segments(list)
      }
    }
    try checkWildcards(
      parts, segmentOffsets: segmentOffsets, groupOffsets: groupOffsets,
      fragmentOffsets: fragmentOffsets)
    return parts
  }

  /// `*.` may only start a domain, and must have something after it.
  func checkDomain(_ domain: String, at offset: Int) throws(PatternError) {
    let utf8 = Array(domain.utf8)
    for index in utf8.indices.dropLast() where utf8[index] == 0x2A && utf8[index + 1] == 0x2E {
      if index != 0 { throw fail("'*.' may only start a domain", at: offset + index) }
      if utf8.count == 2 { throw fail("'*.' must be followed by a domain", at: offset) }
    }
  }

  /// One `*` or `<path:>` per pattern; in the path it may stand anywhere only without optional
  /// groups, and in a group it must end the last group.
  func checkWildcards(
    _ parts: Parts, segmentOffsets: [Int], groupOffsets: [Int], fragmentOffsets: [Int]
  ) throws(PatternError) {
    var found = false
    func one(_ offset: Int) throws(PatternError) {
      if found { throw fail("only one '*' or path capture may stand in a pattern", at: offset) }
      found = true
    }
    for (index, segment) in parts.segments.enumerated() where segment.kind.isWildcard {
      try one(segmentOffsets[index])
      if !parts.groups.isEmpty {
        throw fail(
          "a pattern with a wildcard before its optional groups cannot have them",
          at: segmentOffsets[index])
      }
    }
    for (groupIndex, group) in parts.groups.enumerated() {
      for (index, segment) in group.enumerated() where segment.kind.isWildcard {
        try one(groupOffsets[groupIndex])
        if index != group.count - 1 || groupIndex != parts.groups.count - 1 {
          throw fail(
            segment.kind == .rest
              ? "'*' in an optional group must end the last group"
              : "a path capture in an optional group must end the last group",
            at: groupOffsets[groupIndex])
        }
      }
    }
    if case .segments(let list)? = parts.fragment {
      for (index, segment) in list.enumerated() where segment.kind.isWildcard {
        try one(fragmentOffsets[index])
      }
    }
  }

  /// One path or fragment segment spanning `range`.
  mutating func segment(_ range: Range<Int>, inFragment: Bool = false) throws(PatternError)
    -> PatternSegment
  {
    let piece = bytes[range]
    let start = range.lowerBound
    if piece.count == 1, piece.first == 0x2A {
      return PatternSegment(kind: .rest, name: "*")
    }
    if piece.first == 0x3A {
      let (name, regex) = try nameAndRegex(range)
      return PatternSegment(kind: regex.map(SegmentKind.regex) ?? .capture(.string), name: name)
    }
    if piece.first == 0x3C {
      let (kind, name) = try placeholder(range, plusAsSpace: false)
      return PatternSegment(kind: kind, name: name)
    }
    let literal = try literalText(piece, at: start, plusAsSpace: false, what: "literal")
    if !inFragment, literal == "." || literal == ".." {
      throw fail("'.' and '..' segments are not allowed", at: start)
    }
    return PatternSegment(kind: .literal(literal))
  }

  /// A literal segment or alternative, percent-decoded.
  func literalText(
    _ piece: ArraySlice<UInt8>, at start: Int, plusAsSpace: Bool, what: String
  ) throws(PatternError) -> String {
    if let bad = piece.firstIndex(where: { $0 == 0x3C || $0 == 0x3E }) {
      throw fail("'\(Character(Unicode.Scalar(piece[bad])))' is not allowed in a \(what)", at: bad)
    }
    do {
      return try percentDecode(piece, plusAsSpace: plusAsSpace)
    } catch {
      throw fail(
        error == .invalidEscape ? "invalid percent escape" : "invalid UTF-8 after decoding",
        at: start)
    }
  }

  /// `:name` or `:name(REGEX)` spanning all of `range`.
  mutating func nameAndRegex(_ range: Range<Int>) throws(PatternError) -> (String, RouteRegex?) {
    var nameEnd = range.lowerBound + 1
    while nameEnd < range.upperBound, regexEnds.isEmpty || regexEnds[nameEnd] == nil {
      nameEnd += 1
    }
    let name = try self.name(bytes[(range.lowerBound + 1)..<nameEnd], at: range.lowerBound + 1)
    guard nameEnd < range.upperBound, let close = regexEnds[nameEnd] else { return (name, nil) }
    guard close == range.upperBound else {
      throw fail("unexpected text after a regular expression", at: close)
    }
    let start = nameEnd + 1
    let source = String(decoding: bytes[start..<(close - 1)], as: UTF8.self)
    do {
      return (name, try RouteRegex(source))
    } catch {
      throw fail("\(error.message) in regular expression", at: start + error.offset)
    }
  }

  /// `<name>`, `<type:name>` or `<a|b:name>` spanning all of `range`.
  mutating func placeholder(_ range: Range<Int>, plusAsSpace: Bool) throws(PatternError)
    -> (SegmentKind, String)
  {
    let start = range.lowerBound
    guard range.count >= 2, bytes[range.upperBound - 1] == 0x3E else {
      throw fail("'<' without a closing '>' at the end of the segment", at: start)
    }
    let inner = bytes[(start + 1)..<(range.upperBound - 1)]
    if let bad = inner.firstIndex(where: { $0 == 0x3C || $0 == 0x3E }) {
      throw fail("unexpected '\(Character(Unicode.Scalar(bytes[bad])))' in a placeholder", at: bad)
    }
    guard let colon = inner.firstIndex(of: 0x3A) else {
      return (.capture(.string), try name(inner, at: start + 1))
    }
    let head = inner[..<colon]
    if head.contains(0x7C) {
      var alternatives: [String] = []
      var pieceStart = head.startIndex
      for cursor in head.startIndex...head.endIndex
      where cursor == head.endIndex || bytes[cursor] == 0x7C {
        let piece = bytes[pieceStart..<cursor]
        guard !piece.isEmpty else { throw fail("empty alternative", at: pieceStart) }
        if piece.first == 0x3A || (piece.count == 1 && piece.first == 0x2A) {
          throw fail("an alternative cannot start with ':' or be '*'", at: pieceStart)
        }
        let forbidden: Set<UInt8> = [0x2F, 0x3F, 0x23, 0x28, 0x29, 0x26, 0x3D]
        if let bad = piece.firstIndex(where: forbidden.contains) {
          throw fail(
            "'\(Character(Unicode.Scalar(bytes[bad])))' is not allowed in an alternative",
            at: bad)
        }
        alternatives.append(
          try literalText(piece, at: pieceStart, plusAsSpace: plusAsSpace, what: "alternative"))
        pieceStart = cursor + 1
      }
      return (.oneOf(alternatives), try name(inner[(colon + 1)...], at: colon + 1))
    }
    let typeText = String(decoding: head, as: UTF8.self)
    guard let type = CaptureType(rawValue: typeText) else {
      throw fail(
        "unknown type '\(typeText)' (string, int, float, uuid or path, or alternatives "
          + "joined by '|')", at: start + 1)
    }
    let name = try name(inner[(colon + 1)...], at: colon + 1)
    return (type == .path ? .path : .capture(type), name)
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

  /// The `&`-separated constraints from `start` to `end` (the query or a query-like fragment).
  mutating func query(from start: Int, to end: Int, keys: inout Set<String>)
    throws(PatternError) -> [QueryConstraint]
  {
    var constraints: [QueryConstraint] = []
    var pieceStart = start
    while pieceStart <= end {
      let pieceEnd = find([0x26], from: pieceStart, to: end)
      let equals = find([0x3D], from: pieceStart, to: pieceEnd)
      if equals == pieceEnd, pieceStart < pieceEnd, bytes[pieceStart] == 0x21 {
        // `!key`: the key must be absent.
        let key = try queryLiteral(
          bytes[(pieceStart + 1)..<pieceEnd], at: pieceStart + 1, what: "query key")
        guard keys.insert(key).inserted else {
          throw fail("query key '\(key)' is constrained twice", at: pieceStart)
        }
        constraints.append(QueryConstraint(key: key, value: .absent))
        pieceStart = pieceEnd + 1
        continue
      }
      guard equals < pieceEnd else {
        throw fail("a query constraint must be key=value or !key", at: pieceStart)
      }
      let key = try queryLiteral(bytes[pieceStart..<equals], at: pieceStart, what: "query key")
      guard keys.insert(key).inserted else {
        throw fail("query key '\(key)' is constrained twice", at: pieceStart)
      }
      let valueRange = (equals + 1)..<pieceEnd
      let value: QueryConstraint.Value
      if bytes[valueRange].first == 0x3A {
        let (name, regex) = try nameAndRegex(valueRange)
        value = regex.map { .regex($0, name: name) } ?? .capture(.string, name: name)
      } else if bytes[valueRange].first == 0x3C {
        let (kind, name) = try placeholder(valueRange, plusAsSpace: true)
        switch kind {
        case .capture(let type): value = .capture(type, name: name)
        case .oneOf(let alternatives): value = .oneOf(alternatives, name: name)
        default: throw fail("a query value cannot be a path capture", at: equals + 1)
        }
      } else {
        value = .literal(
          try queryLiteral(bytes[valueRange], at: equals + 1, what: "query value"))
      }
      constraints.append(QueryConstraint(key: key, value: value))
      pieceStart = pieceEnd + 1
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
