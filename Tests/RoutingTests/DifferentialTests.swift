import Testing

@testable import Routing

// MARK: - Random numbers

/// SplitMix64: a tiny, fixed-seed generator, so every run sees the same tables and URLs.
private struct DifferentialRandom {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A number in `0..<count`.
  mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

  /// True `percent` times in a hundred.
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  mutating func pick<Element>(_ items: [Element]) -> Element { items[below(items.count)] }
}

// MARK: - Generated route tables

/// A route as the generator means it: the pattern text and what it should compile to.
private struct GeneratedRoute {
  var text: String
  var priority: Int
  var scheme: String?
  var domain: String?
  var segments: [PatternSegment]
  var groups: [[PatternSegment]]
  var constraints: [QueryConstraint]
}

/// A piece of text as written in a URL or pattern, and as decoded.
private struct Token {
  var raw: String
  var decoded: String

  init(_ raw: String, _ decoded: String) {
    self.raw = raw
    self.decoded = decoded
  }

  init(_ both: String) { self.init(both, both) }
}

/// The small alphabets the generator draws from, so that routes overlap a lot.
private enum Alphabet {
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
}

/// Percent-encodes some or all of `text` for a URL path or query, at random.
private func encode(_ text: String, query: Bool, _ random: inout DifferentialRandom) -> String {
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
private func randomCase(_ text: String, _ random: inout DifferentialRandom) -> String {
  String(text.map { random.chance(30) ? Character($0.uppercased()) : $0 })
}

/// The parts of a generated route before they are written out.
private struct RouteParts {
  var scheme: String?
  var domain: Token?
  var plain: [(String, PatternSegment)] = []
  var groups: [[(String, PatternSegment)]] = []
  var names: Set<String> = []
}

private struct RouteGenerator {
  var random: DifferentialRandom

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
    if parts.scheme != nil, random.chance(20) {
      let written = random.pick(Alphabet.domains)
      parts.domain = Token(written, written.lowercased())
    }
    // Plain segments, then optional groups; `*` and `<path:>` only at the very end.
    let plainCount = random.below(4)
    let groupCount = random.chance(65) ? 0 : 1 + random.below(2)
    for index in 0..<plainCount {
      let last = index == plainCount - 1 && groupCount == 0
      parts.plain.append(segment(canEnd: last, names: &parts.names))
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

    // Write the text.
    let scheme = parts.scheme
    let domain = parts.domain
    var text = ""
    if let scheme { text += randomCase(scheme, &random) + "://" }
    var pieces = parts.plain.map(\.0)
    if let domain {
      pieces.insert(domain.raw, at: 0)
    }
    if scheme == nil || domain == nil {
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
      groups: parts.groups.map { $0.map(\.1) }, constraints: constraints.map(\.1))
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
    let roll = random.below(canEnd ? 12 : 10)
    switch roll {
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
    case 10:
      let name = self.name(&names)
      return ("<path:\(name)>", PatternSegment(kind: .path, name: name))
    default:
      return ("*", PatternSegment(kind: .rest, name: "*"))
    }
  }

  mutating func constraint(key: Token, names: inout Set<String>) -> (String, QueryConstraint) {
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

// MARK: - Generated URLs

/// A URL as the generator means it: the text and how it should be read.
private struct GeneratedURL {
  var text: String
  var expected: RouteURL
}

private struct URLGenerator {
  var random: DifferentialRandom

  /// A value for a segment of the given kind: usually one that fits, sometimes any.
  mutating func value(for kind: SegmentKind) -> String {
    if random.chance(12) { return random.pick(Alphabet.allValues) }
    switch kind {
    case .literal(let text):
      return text
    case .capture(.int):
      return random.pick(Alphabet.ints)
    case .capture(.float):
      return random.pick(random.chance(50) ? Alphabet.floats : Alphabet.ints)
    case .capture(.uuid):
      return random.pick(Alphabet.uuids)
    default:
      return random.pick(Alphabet.allValues)
    }
  }

  mutating func url(aimingAt route: GeneratedRoute?) -> GeneratedURL {
    // Decoded path segments, before dot segments are resolved.
    var values: [String] = []
    if let route {
      var segments = route.segments
      for group in route.groups where random.chance(50) { segments += group }
      for segment in segments {
        switch segment.kind {
        case .path:
          for _ in 0..<(random.chance(10) ? 0 : 1 + random.below(3)) {
            values.append(random.pick(Alphabet.allValues))
          }
        case .rest:
          for _ in 0..<random.below(4) { values.append(random.pick(Alphabet.allValues)) }
        default:
          values.append(value(for: segment.kind))
        }
      }
      if random.chance(8) { values.append(random.pick(Alphabet.allValues)) }
      if random.chance(8), !values.isEmpty { values.remove(at: random.below(values.count)) }
    } else {
      for _ in 0..<random.below(4) { values.append(random.pick(Alphabet.allValues)) }
    }
    var pieces = values.map { Token(encode($0, query: false, &random), $0) }
    // Dot segments that cancel out, or not.
    if random.chance(20) {
      let at = random.below(pieces.count + 1)
      switch random.below(3) {
      case 0:
        pieces.insert(Token(random.pick([".", "%2E", "%2e"]), "."), at: at)
      case 1:
        let junk = Token(random.pick(["junk", "a", "1"]))
        let dots = Token(random.pick(["..", "%2E%2E", ".%2e"]), "..")
        pieces.insert(contentsOf: [junk, dots], at: at)
      default:
        pieces.insert(Token("..", ".."), at: at)
      }
    }

    // Scheme, authority and path.
    var scheme: String?
    if let route, let routeScheme = route.scheme, random.chance(85) {
      scheme = routeScheme
    } else if random.chance(60) {
      scheme = random.pick(Alphabet.schemes)
    }
    var text = ""
    var host: Token?
    var domain: String?
    if let scheme {
      text += randomCase(scheme, &random) + ":"
      let routeDomain = route?.domain
      let form = random.below(10)
      if form < 6 {
        text += "//"
        // Authority: the route's domain, another domain, the first segment, or empty.
        if let routeDomain, random.chance(80) {
          host = Token(randomCase(routeDomain, &random), routeDomain)
        } else if random.chance(15) {
          let written = random.pick(Alphabet.urlDomains)
          host = Token(written, written)
        } else if !pieces.isEmpty, random.chance(85) {
          host = pieces.removeFirst()
        }
        if random.chance(10) { text += random.pick(["u@", "u:p@"]) }
        text += host?.raw ?? ""
        if random.chance(10) { text += ":8080" }
        if let current = host {
          if current.raw.contains(".") || current.decoded.lowercased() == "localhost" {
            domain = current.decoded.lowercased()
            host = nil
          }
        }
        text += pieces.map { "/" + $0.raw }.joined()
      } else if form < 8 {
        text += (form == 6 ? "/" : "///") + pieces.map(\.raw).joined(separator: "/")
      } else {
        text += pieces.map(\.raw).joined(separator: "/")
      }
    } else {
      let lead = random.pick(["/", "/", "", "//"])
      text += lead + pieces.map(\.raw).joined(separator: random.chance(10) ? "//" : "/")
    }
    if random.chance(10) { text += "/" }

    // Dot segments resolve after decoding, with the host (when it is a segment) first.
    var resolved: [String] = []
    for segment in (host.map { [$0.decoded] } ?? []) + pieces.map(\.decoded) {
      if segment == "." { continue }
      if segment == ".." {
        if !resolved.isEmpty { resolved.removeLast() }
        continue
      }
      resolved.append(segment)
    }

    // Query: the route's constraints (fitting or not, sometimes twice), plus other keys.
    var items: [(Token, Token?)] = []
    for constraint in route?.constraints ?? [] {
      var value: String
      switch constraint.value {
      case .literal(let literal):
        value = random.chance(85) ? literal : random.pick(Alphabet.queryLiterals).decoded
      case .capture(.string, _):
        value = random.pick(Alphabet.allValues)
      case .capture(let type, _):
        value = self.value(for: .capture(type))
      }
      let copies = random.chance(10) ? 0 : (random.chance(10) ? 2 : 1)
      for _ in 0..<copies {
        items.append((Token(encode(constraint.key, query: true, &random), constraint.key), nil))
        items[items.count - 1].1 = Token(encode(value, query: true, &random), value)
        if copies == 2 { value = random.pick(Alphabet.allValues) }
      }
    }
    for _ in 0..<random.pick([0, 0, 1, 1, 2, 3]) {
      let key = random.pick(Alphabet.extraQueryKeys)
      let keyToken = Token(encode(key, query: true, &random), key)
      if random.chance(10) {
        items.insert((keyToken, nil), at: random.below(items.count + 1))
      } else {
        let value = random.pick(Alphabet.allValues + [""])
        let valueToken = Token(encode(value, query: true, &random), value)
        items.insert((keyToken, valueToken), at: random.below(items.count + 1))
      }
    }
    var query: [RouteURL.QueryItem] = []
    if !items.isEmpty || random.chance(5) {
      var parts: [String] = []
      for (key, value) in items {
        parts.append(key.raw + (value.map { "=" + $0.raw } ?? ""))
        query.append(RouteURL.QueryItem(key: key.decoded, value: value?.decoded ?? ""))
        if random.chance(5) { parts.append("") }
      }
      text += "?" + parts.joined(separator: "&")
    }
    if random.chance(10) { text += random.pick(["#", "#frag", "#x/y?k=1&%zz"]) }

    let expected = RouteURL(
      scheme: scheme, domain: domain, segments: resolved, query: query)
    return GeneratedURL(text: text, expected: expected)
  }
}

// MARK: - The differential test

/// Which rule of section 4 put the winner before the runner-up.
private func decidingRule(_ a: LinearMatcher.Match, _ b: LinearMatcher.Match) -> Int {
  if a.priority != b.priority { return 1 }
  if a.namesScheme != b.namesScheme { return 2 }
  if a.namesDomain != b.namesDomain { return 3 }
  if a.kinds != b.kinds || a.endsWithRest != b.endsWithRest { return 4 }
  if a.constraintCount != b.constraintCount { return 5 }
  return 6
}

private func describe(_ table: [GeneratedRoute]) -> String {
  table.enumerated().map { index, route in
    "  routes[\(index)] priority \(route.priority): \(route.text.debugDescription)"
  }.joined(separator: "\n")
}

private func describe(_ match: RouteMatch?) -> String {
  guard let match else { return "no match" }
  return
    "route \(match.route) expansion \(match.expansion) params "
    + LinearMatcher.describe(match.params)
}

/// Counts and the first few failures of one differential run.
private struct Report {
  var tables = 0
  var conflicting = 0
  var urls = 0
  var matched = 0
  var rules: [Int: Int] = [:]
  var failures: [String] = []
  var failureCount = 0

  mutating func fail(_ message: String) {
    failureCount += 1
    if failures.count < 8 { failures.append(message) }
  }
}

@Suite struct DifferentialTests {
  /// Independent shards, run in parallel; each has its own seeds.
  static let shards = 4
  static let tablesPerShard = 500
  static let urlsPerTable = 20

  @Test(arguments: 0..<shards)
  func routerAgreesWithLinearOracle(shard: Int) {
    let seed = 0x5EED_0000 + UInt64(shard) * 2
    var routes = RouteGenerator(random: DifferentialRandom(seed: seed))
    var urls = URLGenerator(random: DifferentialRandom(seed: seed + 1))
    var report = Report()
    for tableNumber in 0..<Self.tablesPerShard {
      let table = routes.table()
      check(table, number: tableNumber, &urls, &report)
    }
    let summary =
      "shard \(shard): \(report.tables) tables (\(report.conflicting) refused as conflicting), "
      + "\(report.urls) URLs (\(report.matched) matched), deciding rules "
      + (1...6).map { "\($0): \(report.rules[$0] ?? 0)" }.joined(separator: ", ")
    print("Differential " + summary)
    #expect(
      report.failureCount == 0,
      Comment(
        rawValue: "\(report.failureCount) disagreements; \(summary); first ones:\n"
          + report.failures.joined(separator: "\n\n")))
    // The generator must really exercise the router: most tables usable, many URLs matching,
    // and every ranking rule deciding some winners.
    #expect(report.tables == Self.tablesPerShard)
    #expect(report.conflicting < report.tables / 4)
    #expect(report.matched > report.urls / 4)
    for rule in 1...6 {
      #expect((report.rules[rule] ?? 0) >= 3, "rule \(rule) decided too few rankings: \(summary)")
    }
  }

  private func check(
    _ table: [GeneratedRoute], number: Int, _ urls: inout URLGenerator, _ report: inout Report
  ) {
    report.tables += 1
    var header: String { "table #\(number):\n" + describe(table) }

    // Every generated pattern follows the grammar and compiles to what the generator meant.
    var compiled: [Router.Route] = []
    for (index, route) in table.enumerated() {
      let pattern: RoutePattern
      do {
        pattern = try RoutePattern(route.text)
      } catch {
        report.fail("\(header)\nroutes[\(index)] refused: \(error)")
        return
      }
      let expectedGroups = route.groups
      if pattern.scheme != route.scheme || pattern.domain != route.domain
        || pattern.segments != route.segments || pattern.groups != expectedGroups
        || pattern.constraints != route.constraints
      {
        report.fail(
          "\(header)\nroutes[\(index)] compiled to scheme \(String(describing: pattern.scheme)) "
            + "domain \(String(describing: pattern.domain)) segments \(pattern.segments) "
            + "groups \(pattern.groups) constraints \(pattern.constraints)")
        return
      }
      if LinearMatcher.expansions(of: pattern) != pattern.expansions {
        report.fail("\(header)\nroutes[\(index)]: expansions are not in the documented order")
      }
      compiled.append(Router.Route(pattern: pattern, priority: route.priority))
    }

    // Conflicts (section 1): the Router refuses exactly the tables the oracle finds ambiguous.
    let oracle = LinearMatcher(compiled)
    let expectedConflict = oracle.firstConflict()
    let router: Router
    do {
      router = try Router(compiled)
    } catch {
      report.conflicting += 1
      if expectedConflict?.route != error.route || expectedConflict?.other != error.other {
        report.fail(
          "\(header)\nRouter refused the table: routes[\(error.route)] vs routes[\(error.other)]"
            + "; oracle: \(String(describing: expectedConflict))")
      }
      return
    }
    if let expectedConflict {
      report.fail(
        "\(header)\nRouter accepted the table; oracle: routes[\(expectedConflict.route)] "
          + "conflicts with routes[\(expectedConflict.other)]")
      return
    }

    for _ in 0..<Self.urlsPerTable {
      let target = urls.random.chance(85) ? urls.random.pick(table) : nil
      let generated = urls.url(aimingAt: target)
      report.urls += 1
      let url: RouteURL
      do {
        url = try RouteURL(generated.text)
      } catch {
        report.fail("\(header)\nurl \(generated.text.debugDescription) refused: \(error)")
        continue
      }
      if url != generated.expected {
        report.fail(
          "\(header)\nurl \(generated.text.debugDescription) read as \(url), "
            + "expected \(generated.expected)")
        continue
      }

      let expected = oracle.matches(url)
      let got = router.matches(url)
      let best = router.match(url)
      if let winner = expected.first {
        report.matched += 1
        if expected.count > 1 {
          report.rules[decidingRule(winner, expected[1]), default: 0] += 1
        }
      }
      let expectedWinner = expected.first.map {
        RouteMatch(route: $0.route, expansion: $0.expansion, params: $0.params)
      }
      // `matches()` lists each route once, with its best-ranked expansion.
      var seenRoutes: Set<Int> = []
      let expectedOrder = expected.filter { seenRoutes.insert($0.route).inserted }.map {
        [$0.route, $0.expansion]
      }
      let gotOrder = got.map { [$0.route, $0.expansion] }
      if best != expectedWinner || got.first != best || gotOrder != expectedOrder {
        report.fail(
          "\(header)\nurl \(generated.text.debugDescription)\n"
            + "expected (oracle, best first):\n    "
            + expected.map(\.description).joined(separator: "\n    ")
            + "\ngot match(): \(describe(best))\ngot matches() order: \(gotOrder)")
      }
    }
  }
}

// MARK: - The oracle against hand-checked cases

/// Builds the oracle for patterns with priorities.
private func oracle(_ routes: [(String, Int)]) throws -> LinearMatcher {
  LinearMatcher(try routes.map { Router.Route(pattern: try RoutePattern($0.0), priority: $0.1) })
}

/// The oracle's ranking of `url` as route indices, best first (priorities default to 0).
private func ranking(_ patterns: [String], priorities: [Int] = [], _ url: String) throws -> [Int] {
  let routes = patterns.enumerated().map { index, pattern in
    (pattern, index < priorities.count ? priorities[index] : 0)
  }
  return try oracle(routes).matches(try RouteURL(url)).map(\.route)
}

/// The oracle's parameters for the winner of `url` among `patterns`.
private func parameters(_ patterns: [String], _ url: String) throws -> Parameters? {
  try oracle(patterns.map { ($0, 0) }).best(try RouteURL(url))?.params
}

/// The oracle must get these right by hand, so that it can fail too.
@Suite struct LinearMatcherTests {
  static let kindLadder = [
    "/a/:x", "/a/<int:x>", "/a/<float:x>", "/a/1", "/a/<uuid:x>", "/a/<path:x>", "/a/*",
  ]

  @Test func rule4RanksSegmentKindsLiteralIntFloatUUIDStringPathRest() throws {
    #expect(try ranking(Self.kindLadder, "/a/1") == [3, 1, 2, 0, 5, 6])
    #expect(try ranking(Self.kindLadder, "/a/2.5") == [2, 0, 5, 6])
    #expect(
      try ranking(Self.kindLadder, "/a/123e4567-E89B-12d3-a456-426614174000") == [4, 0, 5, 6])
    #expect(try ranking(Self.kindLadder, "/a/b/c") == [5, 6])
    #expect(try ranking(Self.kindLadder, "/a") == [6])
    #expect(try ranking(Self.kindLadder, "/a/9223372036854775808") == [2, 0, 5, 6])
  }

  @Test func rule4FirstDifferenceFromTheLeftDecides() throws {
    #expect(try ranking(["/:x/b", "/a/:y"], "/a/b") == [1, 0])
    #expect(try ranking(["/a/:y", "/:x/b"], "/a/b") == [0, 1])
    #expect(try ranking(["/:x/<int:y>", "/a/*"], "/a/5") == [1, 0])
  }

  @Test func rule4PrefersNoTrailingRest() throws {
    #expect(try ranking(["/a/*", "/a"], "/a") == [1, 0])
    #expect(try ranking(["/a/*", "/a"], "/a/b") == [0])
    #expect(try ranking(["/a(/*)"], "/a") == [0, 0])
    #expect(try oracle([("/a(/*)", 0)]).best(try RouteURL("/a"))?.expansion == 0)
  }

  @Test func rules1To3PriorityThenSchemeThenDomain() throws {
    let patterns = ["/a/1", "/a/:x", "myapp://a/1", "myapp://example.com/a/:x"]
    #expect(try ranking(patterns, priorities: [0, 1, 0, 0], "myapp://a/1") == [1, 2, 0])
    #expect(try ranking(patterns, "myapp://EXAMPLE.com/a/1") == [3, 2, 0, 1])
    #expect(try ranking(patterns, "other://example.com/a/1") == [0, 1])
    #expect(try ranking(patterns, "/a/1") == [0, 1])
    #expect(try ranking(["myapp://localhost/a", "/a"], "MYAPP://LocalHost:80/a") == [0, 1])
  }

  @Test func rules5And6ConstraintsThenTableOrder() throws {
    #expect(try ranking(["/a?k=1", "/a?k=1&q=:q", "/a"], "/a?k=1&q=2") == [1, 0, 2])
    #expect(try ranking(["/a?k=1", "/a?k=1&q=:q", "/a"], "/a?k=1&k=1&q=2") == [2])
    #expect(try ranking(["/a/:x?k=:k", "/a/:y?q=:q"], "/a/b?k=1&q=2") == [0, 1])
    #expect(try ranking(["/a?k=<int:k>", "/a?k=on"], "/a?k=on") == [1])
  }

  @Test func section5ParametersPrecedenceAndTypes() throws {
    #expect(
      try parameters(["/user/view/:userID"], "tests://user/view/joeldev?userID=evil")
        == ["userID": .string("joeldev")])
    #expect(
      try parameters(["/u/:id?k=<int:k>&f=<float:f>"], "/u/7?id=q&k=5&f=.5&z=1&z=2&e&id2=a+b")
        == [
          "id": .string("7"), "k": .int(5), "f": .float(0.5), "z": .strings(["1", "2"]),
          "e": .string(""), "id2": .string("a b"),
        ])
    #expect(try parameters(["/f/*"], "/f/a%2Fb/c") == ["*": .strings(["a/b", "c"])])
    #expect(try parameters(["/p/<path:p>"], "/p/a%2Fb/c") == ["p": .string("a/b/c")])
    #expect(
      try parameters(["/u/<uuid:u>"], "/u/123e4567-e89b-12d3-a456-426614174000")
        == ["u": .string("123E4567-E89B-12D3-A456-426614174000")])
    #expect(try parameters(["/a?k=:k"], "/a?k=%2B+x") == ["k": .string("+ x")])
  }

  @Test func optionalGroupsExpandInWrittenOrder() throws {
    let matcher = try oracle([("/required/:r(/optional/:o)(/more/:m)", 0)])
    let cases = [
      ("/required/x", 0), ("/required/x/optional/y", 1), ("/required/x/more/z", 2),
      ("/required/x/optional/y/more/z", 3),
    ]
    for (url, expansion) in cases {
      #expect(try matcher.best(RouteURL(url))?.expansion == expansion, "\(url)")
    }
    #expect(try matcher.best(RouteURL("/required/x/more/z/optional/y")) == nil)
  }

  @Test func typedValuesFollowTheGrammar() {
    let ints: [(String, Int64?)] = [
      ("0", 0), ("-0", 0), ("007", 7), ("9223372036854775807", .max),
      ("-9223372036854775808", .min), ("9223372036854775808", nil), ("+1", nil), ("", nil),
      ("-", nil), ("1.0", nil), (" 1", nil), ("\u{661}", nil),
    ]
    for (text, value) in ints {
      #expect(LinearMatcher.intValue(text) == value, "\(text.debugDescription)")
    }
    let floats: [(String, Double?)] = [
      ("1", 1), ("-2.5", -2.5), ("8.0", 8), (".5", 0.5), ("1e3", 1000), ("1.", 1),
      ("+.5E-1", 0.05), ("1e-400", 0), ("nan", nil), ("inf", nil), ("1e400", nil),
      ("0x1p3", nil), (".", nil), ("e3", nil), ("1e", nil), ("1e+", nil), ("", nil),
      ("1.2.3", nil), ("--1", nil),
    ]
    for (text, value) in floats {
      #expect(LinearMatcher.floatValue(text) == value, "\(text.debugDescription)")
    }
    let uuids: [(String, String?)] = [
      ("123e4567-E89B-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"),
      ("123e4567-e89b-12d3-a456-42661417400", nil), ("123e4567-e89b-12d3-a456-42661417400g", nil),
      ("123e4567e89b-12d3-a456-4266141740000", nil),
    ]
    for (text, value) in uuids {
      #expect(LinearMatcher.uuidValue(text) == value, "\(text.debugDescription)")
    }
  }

  @Test func section1Conflicts() throws {
    func conflict(_ routes: [(String, Int)]) throws -> [Int]? {
      try oracle(routes).firstConflict().map { [$0.route, $0.other] }
    }
    #expect(try conflict([("/x(/:a)(/:b)", 0)]) == [0, 0])
    #expect(try conflict([("/b", 0), ("/a/:x", 0), ("/a/<string:y>", 0)]) == [2, 1])
    #expect(try conflict([("/a/:x", 0), ("/a/:y", 1)]) == nil)
    #expect(try conflict([("/a?k=:x&q=1", 0), ("/a?q=1&k=<y>", 0)]) == [1, 0])
    #expect(try conflict([("/a?k=1", 0), ("/a?k=2", 0)]) == nil)
    #expect(try conflict([("/a?k=:x", 0), ("/a?k=<int:y>", 0)]) == nil)
    #expect(try conflict([("myapp://a", 0), ("/a", 0), ("myapp://example.com/a", 0)]) == nil)
    #expect(try conflict([("/a(/b)", 0), ("/a/b", 0)]) == [1, 0])
  }
}

// MARK: - Regressions found by the differential test

/// Router bugs found by comparing with the oracle, kept as regression tests.
@Suite struct RouterRegressionTests {
  /// ROUTING.md 3: "Literal segments compare case-sensitively, after decoding"; 2: a literal
  /// query constraint "requires that query key with that exact (decoded) value"; "Keys compare
  /// case-sensitively". `caf%C3%A9` (U+00E9) and `cafe%CC%81` (e + U+0301) decode to different
  /// text; the Router once compared Swift strings, which treat canonically equivalent text as
  /// equal, and matched them.
  @Test func canonicallyEquivalentTextIsNotTheSameLiteral() throws {
    let cases: [(pattern: String, url: String)] = [
      ("/caf%C3%A9", "/cafe%CC%81"),
      ("/a?k=caf%C3%A9", "/a?k=cafe%CC%81"),
      ("/a?caf%C3%A9=1", "/a?cafe%CC%81=1"),
    ]
    for (pattern, url) in cases {
      let routes = [Router.Route(pattern: try RoutePattern(pattern))]
      let router = try Router(routes)
      #expect(LinearMatcher(routes).best(try RouteURL(url)) == nil)
      #expect(router.match(try RouteURL(url)) == nil, "\(pattern) must not match \(url)")
    }
    // Two routes that URLs can tell apart are not a conflict (section 1).
    let both = [
      Router.Route(pattern: try RoutePattern("/caf%C3%A9")),
      Router.Route(pattern: try RoutePattern("/cafe%CC%81")),
    ]
    #expect(LinearMatcher(both).firstConflict() == nil)
    #expect(throws: Never.self) { try Router(both) }
  }
}
