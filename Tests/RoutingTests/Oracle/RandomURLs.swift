import TestSupport
import Testing

@testable import Routing

// URLs aimed at the random route tables of RandomTables.swift, for the differential test.

// MARK: - Generated URLs

/// A URL as the generator means it: the text and how it should be read.
struct GeneratedURL {
  var text: String
  /// How it reads, without its fragment.
  var expected: RouteURL
  /// Its fragment, read, when it has one; nil when it has none or it does not decode.
  var fragment: RouteURL.Fragment?
  /// Whether it has a fragment that does not decode.
  var fragmentInvalid = false
}

struct URLGenerator {
  var random: SeededGenerator

  /// A value for a segment of the given kind: usually one that fits, sometimes any.
  mutating func value(for kind: SegmentKind) -> String {
    if random.chance(12) { return random.pick(Alphabet.allValues) }
    switch kind {
    case .literal(let text):
      return random.chance(10) ? randomCase(text, &random) : text
    case .oneOf(let alternatives):
      let text = random.pick(alternatives)
      return random.chance(20) ? randomCase(text, &random) : text
    case .regex:
      return random.pick(Alphabet.regexValues)
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

  /// Values for a list of pattern segments: one each, and some for a wildcard.
  mutating func segmentValues(for segments: [PatternSegment]) -> [String] {
    var values: [String] = []
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
    return values
  }

  /// A value for a query constraint: usually one that fits.
  mutating func value(for constraint: QueryConstraint) -> String {
    switch constraint.value {
    case .literal(let literal):
      return random.chance(85) ? literal : random.pick(Alphabet.queryLiterals).decoded
    case .capture(.string, _), .absent:
      return random.pick(Alphabet.allValues)
    case .capture(let type, _):
      return self.value(for: .capture(type))
    case .oneOf(let alternatives, _):
      return self.value(for: .oneOf(alternatives))
    case .regex(let regex, _):
      return self.value(for: .regex(regex))
    }
  }

  mutating func url(aimingAt route: GeneratedRoute?) -> GeneratedURL {
    // Decoded path segments, before dot segments are resolved.
    var values: [String] = []
    if let route {
      var segments = route.segments
      for group in route.groups where random.chance(50) { segments += group }
      values = segmentValues(for: segments)
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
        if let routeDomain, routeDomain.hasPrefix("*."), random.chance(80) {
          let written =
            random.chance(15)
            ? String(routeDomain.dropFirst(2))
            : random.pick(Alphabet.subdomains) + routeDomain.dropFirst(2)
          host = Token(randomCase(written, &random), written)
        } else if let routeDomain, random.chance(80) {
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
      var value = self.value(for: constraint)
      var copies = random.chance(10) ? 0 : (random.chance(10) ? 2 : 1)
      if constraint.value == .absent, random.chance(70) { copies = 0 }
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
    // Fragment: one aimed at the route's fragment pattern, or another one, or none.
    var fragmentText: String?
    switch route?.fragment {
    case .segments(let list)? where random.chance(85):
      fragmentText = segmentValues(for: list).map { encode($0, query: false, &random) }
        .joined(separator: random.chance(10) ? "//" : "/")
      if random.chance(10) { fragmentText = "/" + fragmentText! }
    case .query(let constraints)? where random.chance(85):
      var pieces: [String] = []
      for constraint in constraints {
        if constraint.value == .absent, random.chance(70) { continue }
        let value = self.value(for: constraint)
        pieces.append(
          encode(constraint.key, query: true, &random) + "=" + encode(value, query: true, &random))
      }
      if random.chance(20) { pieces.insert("p=1", at: random.below(pieces.count + 1)) }
      fragmentText = pieces.joined(separator: "&")
    default:
      if random.chance(15) { fragmentText = random.pick(Alphabet.fragments) }
    }
    var fragment: RouteURL.Fragment?
    var fragmentInvalid = false
    if let fragmentText {
      text += "#" + fragmentText
      let segments = fragmentText.split(separator: "/").map {
        decodeForTest(String($0), plus: false)
      }
      let items = fragmentText.split(separator: "&").map { piece -> RouteURL.QueryItem? in
        let (key, value) =
          piece.firstIndex(of: "=").map { (piece[..<$0], piece[piece.index(after: $0)...]) }
          ?? (piece[...], "")
        guard let key = decodeForTest(String(key), plus: true),
          let value = decodeForTest(String(value), plus: true)
        else { return nil }
        return RouteURL.QueryItem(key: key, value: value)
      }
      if segments.contains(nil) || items.contains(nil) {
        fragmentInvalid = true
      } else {
        fragment = RouteURL.Fragment(segments: segments.map { $0! }, items: items.map { $0! })
      }
    }

    let expected = RouteURL(
      scheme: scheme, domain: domain, segments: resolved, query: query)
    return GeneratedURL(
      text: text, expected: expected, fragment: fragment, fragmentInvalid: fragmentInvalid)
  }
}
