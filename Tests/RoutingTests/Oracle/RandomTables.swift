import TestSupport
import Testing

@testable import Routing

// Random route tables, for the differential test (RandomURLs.swift makes URLs aimed at them).

// MARK: - Generated route tables

/// A route as the generator means it: the pattern text and what it should compile to.
struct GeneratedRoute {
  var text: String
  var priority: Int
  var scheme: String?
  var domain: String?
  var segments: [PatternSegment]
  var groups: [[PatternSegment]]
  var constraints: [QueryConstraint]
  var caseSensitive = true
  var fragment: FragmentPattern? = nil
}

/// A piece of text as written in a URL or pattern, and as decoded.
struct Token {
  var raw: String
  var decoded: String

  init(_ raw: String, _ decoded: String) {
    self.raw = raw
    self.decoded = decoded
  }

  init(_ both: String) { self.init(both, both) }
}

/// The small alphabets the generator draws from, so that routes overlap a lot.
enum Alphabet {
  static let schemes = ["myapp", "my-app+v1.x"]
  static let domains = ["example.com", "Example.COM", "localhost", "LocalHost"]
  static let urlDomains = ["example.com", "EXAMPLE.com", "localhost", "LOCALHOST", "other.org"]
  static let names = ["id", "x", "k", "q", "name", "v", "w", "t", "n", "m"]
  static let queryKeys = [Token("k"), Token("q"), Token("t"), Token("%6B", "k")]
  static let extraQueryKeys = ["id", "x", "k", "q", "name", "z", "t"]

  /// Pattern literals: plain, percent-encoded, with `+`, non-ASCII, number-like, uuid-like.
  static let literals = [
    Token("a"), Token("b"), Token("%61", "a"), Token("user"), Token("1"), Token("a+b"),
    Token("x%20y", "x y"), Token("%E2%9C%93", "\u{2713}"), Token("caf\u{E9}", "caf\u{E9}"),
    Token("2.5"), Token("00000000-0000-0000-0000-00000000000a"), Token("LocalHost"),
  ]

  /// Literal query values in patterns (`+` is a space there, as in URLs).
  static let queryLiterals = [
    Token("1"), Token("on"), Token("a+b", "a b"), Token("a%20b", "a b"),
    Token("caf%C3%A9", "caf\u{E9}"),
  ]

  static let ints = [
    "1", "42", "-7", "0", "007", "-0", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "+5",
  ]
  static let floats = [
    "2.5", ".5", "1.", "-0", "1e3", "1E-2", "+.5e+1", "8.0", "1e400", "1e-400", "nan", "inf",
    "0x1p3", "1e", ".", "1.2.3", "-.5",
  ]
  static let uuids = [
    "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89b-12D3-a456-426614174000",
    "00000000-0000-0000-0000-00000000000a", "00000000-0000-0000-0000-00000000000A",
    "123e4567-e89b-12d3-a456-42661417400g", "123e4567e89b12d3a456426614174000",
  ]
  static let strings = [
    "a", "b", "user", "x y", "a/b", "\u{2713}", "a+b", "caf\u{E9}", "2.5", "1", "%", "?",
    "a b&c=d",
  ]

  static let allValues = ints + floats + uuids + strings

  /// Alternatives of value sets (no `+`, which is a space in a query).
  static let alternatives = [
    Token("a"), Token("b"), Token("%61", "a"), Token("user"), Token("User"), Token("1"),
    Token("x%20y", "x y"), Token("caf\u{E9}"), Token("A"),
  ]
  /// Regular expressions, and values some of them match.
  static let regexes = ["[a-z]+", "\\d{1,3}", "u.*", "(?i)user", "[0-9a-f]{2}", "a|b|1", "caf."]
  static let regexValues = ["abc", "12", "user", "USER", "u", "0f", "a", "b", "1", "caf\u{E9}"]
  /// Domains of patterns that take any host under them.
  static let wildcardDomains = ["*.example.com", "*.Example.COM", "*.b.example.com"]
  /// Hosts in front of a wildcard domain's suffix (`""` leaves an empty label).
  static let subdomains = ["sub.", "a.b.", "", ".", "x."]
  /// Keys of query-like fragments.
  static let fragmentKeys = [Token("k"), Token("p"), Token("%70", "p")]
  /// Fragments of URLs aimed at no fragment pattern.
  static let fragments = ["", "frag", "x/y", "k=1&p=2", "a/b/c", "p=a&p=b", "/", "x/y?k=1&%zz"]
}

/// Percent-decodes `text` (with `+` as a space when `plus`), or nil for a bad escape or bytes
/// that are not UTF-8.
func decodeForTest(_ text: String, plus: Bool) -> String? {
  var bytes: [UInt8] = []
  var utf8 = Array(text.utf8)[...]
  while let byte = utf8.popFirst() {
    if byte == UInt8(ascii: "%") {
      guard utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      else { return nil }
      bytes.append(value)
      utf8 = utf8.dropFirst(2)
    } else {
      bytes.append(plus && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
    }
  }
  return String(validating: bytes, as: UTF8.self)
}

/// Percent-encodes some or all of `text` for a URL path or query, at random.
func encode(_ text: String, query: Bool, _ random: inout SeededGenerator) -> String {
  var out = ""
  for scalar in text.unicodeScalars {
    let must =
      "/?#%".unicodeScalars.contains(scalar) || (query && "&=+".unicodeScalars.contains(scalar))
    if query && scalar == " " && random.chance(50) {
      out += "+"
    } else if must || random.chance(scalar.isASCII ? 8 : 50) {
      for byte in String(scalar).utf8 {
        let hex = String(byte, radix: 16, uppercase: random.chance(50))
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    } else {
      out.unicodeScalars.append(scalar)
    }
  }
  return out
}

/// Writes a scheme or domain in a random mix of cases.
func randomCase(_ text: String, _ random: inout SeededGenerator) -> String {
  String(text.map { random.chance(30) ? Character($0.uppercased()) : $0 })
}

/// The parts of a generated route before they are written out.
struct RouteParts {
  var scheme: String?
  var domain: Token?
  var plain: [(String, PatternSegment)] = []
  var groups: [[(String, PatternSegment)]] = []
  var names: Set<String> = []
  var caseSensitive = true
  /// `//domain` without a scheme.
  var schemeless = false
}

struct RouteGenerator {
  var random: SeededGenerator

  /// One to six routes; some reuse an earlier route's path with other query constraints, so
  /// that the later ranking rules get to decide.
  mutating func table() -> [GeneratedRoute] {
    let count = 1 + random.below(6)
    var parts: [RouteParts] = []
    var table: [GeneratedRoute] = []
    for _ in 0..<count {
      var next = !parts.isEmpty && random.chance(25) ? random.pick(parts) : self.parts()
      if next.scheme != nil, random.chance(15) {
        // The same path with or without a domain: rule 3.
        let written = random.pick(Alphabet.domains)
        next.domain = next.domain == nil ? Token(written, written.lowercased()) : nil
      }
      parts.append(next)
      table.append(route(next))
    }
    return table
  }

  mutating func parts() -> RouteParts {
    var parts = RouteParts()
    parts.scheme = random.chance(35) ? nil : random.pick(Alphabet.schemes)
    parts.caseSensitive = !random.chance(15)
    if parts.scheme != nil, random.chance(20) {
      let written = random.pick(
        random.chance(30) ? Alphabet.wildcardDomains : Alphabet.domains)
      parts.domain = Token(written, written.lowercased())
    } else if parts.scheme == nil, random.chance(8) {
      let written = random.pick(Alphabet.domains + Alphabet.wildcardDomains)
      parts.domain = Token(written, written.lowercased())
      parts.schemeless = true
    }
    // Plain segments, then optional groups; `*` and `<path:>` at the very end, or one of them
    // anywhere in a pattern without groups.
    var plainCount = random.below(4)
    let groupCount = random.chance(65) ? 0 : 1 + random.below(2)
    let inner = groupCount == 0 && random.chance(15)
    for index in 0..<plainCount {
      let last = index == plainCount - 1 && groupCount == 0 && !inner
      parts.plain.append(segment(canEnd: last, names: &parts.names))
    }
    if inner {
      let name = self.name(&parts.names)
      let wildcard =
        random.chance(50)
        ? ("*", PatternSegment(kind: .rest, name: "*"))
        : ("<path:\(name)>", PatternSegment(kind: .path, name: name))
      parts.plain.insert(wildcard, at: random.below(plainCount + 1))
      plainCount += 1
    }
    for groupIndex in 0..<groupCount {
      let size = 1 + random.below(2)
      var group: [(String, PatternSegment)] = []
      for index in 0..<size {
        let last = groupIndex == groupCount - 1 && index == size - 1
        group.append(segment(canEnd: last, names: &parts.names, inGroup: true))
      }
      parts.groups.append(group)
    }
    return parts
  }

  /// Adds query constraints and a priority to the parts and writes the pattern out.
  mutating func route(_ parts: RouteParts) -> GeneratedRoute {
    var usedNames = parts.names
    var constraints: [(String, QueryConstraint)] = []
    var usedKeys: Set<String> = []
    for _ in 0..<random.pick([0, 0, 1, 1, 1, 2]) {
      let key = random.pick(Alphabet.queryKeys)
      guard usedKeys.insert(key.decoded).inserted else { continue }
      constraints.append(constraint(key: key, names: &usedNames))
    }

    // A fragment pattern: segments (one wildcard per pattern) or constraints.
    var fragment: (String, FragmentPattern)?
    if random.chance(15) {
      if random.chance(50) {
        let hasWildcard = (parts.plain + parts.groups.flatMap { $0 }).contains {
          $0.1.kind.isWildcard
        }
        var list: [(String, PatternSegment)] = []
        let count = random.below(3)
        for index in 0..<count {
          var piece = segment(canEnd: !hasWildcard && index == count - 1, names: &usedNames)
          if case .literal(let text) = piece.1.kind, text.contains("=") {
            piece = ("eq", .init(kind: .literal("eq")))
          }
          list.append(piece)
        }
        fragment = (list.map(\.0).joined(separator: "/"), .segments(list.map(\.1)))
      } else {
        var list: [(String, QueryConstraint)] = []
        var keys: Set<String> = []
        for _ in 0..<(1 + random.below(2)) {
          let key = random.pick(Alphabet.fragmentKeys)
          guard keys.insert(key.decoded).inserted else { continue }
          list.append(constraint(key: key, names: &usedNames, absent: list.isEmpty ? 0 : 15))
        }
        fragment = (list.map(\.0).joined(separator: "&"), .query(list.map(\.1)))
      }
    }

    // Write the text.
    let scheme = parts.scheme
    let domain = parts.domain
    var text = ""
    if let scheme { text += randomCase(scheme, &random) + "://" }
    if parts.schemeless { text += "//" }
    var pieces = parts.plain.map(\.0)
    if let domain {
      pieces.insert(domain.raw, at: 0)
    }
    if (scheme == nil && !parts.schemeless) || (scheme != nil && domain == nil) {
      if random.chance(60) || (scheme == nil && pieces.isEmpty) { text += "/" }
    }
    for (index, piece) in pieces.enumerated() {
      if index > 0 { text += random.chance(10) ? "//" : "/" }
      text += piece
    }
    if parts.groups.isEmpty, !pieces.isEmpty, random.chance(10) { text += "/" }
    for group in parts.groups {
      text += "(/" + group.map(\.0).joined(separator: "/") + ")"
    }
    if !constraints.isEmpty {
      text += "?" + constraints.map(\.0).joined(separator: "&")
    }
    if let fragment { text += "#" + fragment.0 }

    // What it should compile to: with a scheme, a first literal with `.` (or `localhost`) is a
    // domain.
    var segments = parts.plain.map(\.1)
    var domainName = domain?.decoded
    if scheme != nil, domainName == nil, case .literal(let first)? = segments.first?.kind,
      first.contains(".") || first.lowercased() == "localhost"
    {
      domainName = first.lowercased()
      segments.removeFirst()
    }
    let priority = random.pick([0, 0, 0, 0, 1, 1, 2])
    return GeneratedRoute(
      text: text, priority: priority, scheme: scheme, domain: domainName, segments: segments,
      groups: parts.groups.map { $0.map(\.1) }, constraints: constraints.map(\.1),
      caseSensitive: parts.caseSensitive, fragment: fragment?.1)
  }

  mutating func name(_ used: inout Set<String>) -> String {
    let free = Alphabet.names.filter { !used.contains($0) }
    let chosen = random.pick(free)
    used.insert(chosen)
    return chosen
  }

  mutating func segment(canEnd: Bool, names: inout Set<String>, inGroup: Bool = false)
    -> (String, PatternSegment)
  {
    let roll = random.below(canEnd ? 14 : 12)
    switch roll {
    case 10:
      let name = self.name(&names)
      let alternatives = (0..<(2 + random.below(2))).map { _ in random.pick(Alphabet.alternatives) }
      return (
        "<" + alternatives.map(\.raw).joined(separator: "|") + ":\(name)>",
        PatternSegment(kind: .oneOf(alternatives.map(\.decoded)), name: name)
      )
    case 11:
      let name = self.name(&names)
      let source = random.pick(Alphabet.regexes)
      return (
        ":\(name)(\(source))", PatternSegment(kind: .regex(try! RouteRegex(source)), name: name)
      )
    case 0..<4:
      // No `.` literals in groups: there the "first segment is a domain" rule is unclear.
      let pool =
        inGroup
        ? Alphabet.literals.filter { !$0.decoded.contains(".") && $0.decoded != "LocalHost" }
        : Alphabet.literals
      let literal = random.pick(pool)
      return (literal.raw, PatternSegment(kind: .literal(literal.decoded)))
    case 4..<6:
      let name = self.name(&names)
      let text = random.pick([":\(name)", "<\(name)>", "<string:\(name)>"])
      return (text, PatternSegment(kind: .capture(.string), name: name))
    case 6:
      let name = self.name(&names)
      return ("<int:\(name)>", PatternSegment(kind: .capture(.int), name: name))
    case 7:
      let name = self.name(&names)
      return ("<float:\(name)>", PatternSegment(kind: .capture(.float), name: name))
    case 8, 9:
      let name = self.name(&names)
      return ("<uuid:\(name)>", PatternSegment(kind: .capture(.uuid), name: name))
    case 12:
      let name = self.name(&names)
      return ("<path:\(name)>", PatternSegment(kind: .path, name: name))
    default:
      return ("*", PatternSegment(kind: .rest, name: "*"))
    }
  }

  mutating func constraint(key: Token, names: inout Set<String>, absent: Int = 10)
    -> (String, QueryConstraint)
  {
    if random.chance(absent) {
      return ("!" + key.raw, QueryConstraint(key: key.decoded, value: .absent))
    }
    if random.chance(15) {
      let name = self.name(&names)
      let alternatives = (0..<(2 + random.below(2))).map { _ in random.pick(Alphabet.alternatives) }
      return (
        key.raw + "=<" + alternatives.map(\.raw).joined(separator: "|") + ":\(name)>",
        QueryConstraint(key: key.decoded, value: .oneOf(alternatives.map(\.decoded), name: name))
      )
    }
    if random.chance(10) {
      let name = self.name(&names)
      let source = random.pick(Alphabet.regexes)
      return (
        key.raw + "=:\(name)(\(source))",
        QueryConstraint(key: key.decoded, value: .regex(try! RouteRegex(source), name: name))
      )
    }
    if random.chance(45) {
      let literal = random.pick(Alphabet.queryLiterals)
      return (
        key.raw + "=" + literal.raw,
        QueryConstraint(key: key.decoded, value: .literal(literal.decoded))
      )
    }
    let name = self.name(&names)
    let type = random.pick([CaptureType.string, .string, .int, .float, .uuid])
    var text = "<\(type.rawValue):\(name)>"
    if type == .string { text = random.pick([":\(name)", "<\(name)>", text]) }
    return (
      key.raw + "=" + text, QueryConstraint(key: key.decoded, value: .capture(type, name: name))
    )
  }
}
