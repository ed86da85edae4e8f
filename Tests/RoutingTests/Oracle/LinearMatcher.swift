@testable import Routing

/// A deliberately simple reference matcher, written straight from docs/routing.md
/// to check ``Router`` against.
///
/// It takes the URL as ``RouteURL`` has read it and each pattern as ``RoutePattern`` has compiled
/// it, and does everything else itself, the slow and obvious way: for every route, for every
/// expansion of its optional groups, it walks the URL segment by segment; it collects every
/// match with an explicit per-segment kind vector, ranks them with the six rules of section 4,
/// and builds parameters as section 5 says. Typed values (int, float, uuid) are checked with its
/// own code written from the grammar in section 2.
struct LinearMatcher {
  /// What a pattern segment is, for ranking (section 4, rule 4): earlier cases are more specific.
  enum Kind: Int, Comparable, CustomStringConvertible {
    case literal = 0
    case values = 1
    case int = 2
    case float = 3
    case uuid = 4
    case regex = 5
    case string = 6
    case path = 7
    case rest = 8

    static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }

    var description: String {
      switch self {
      case .literal: return "literal"
      case .values: return "values"
      case .regex: return "regex"
      case .int: return "int"
      case .float: return "float"
      case .uuid: return "uuid"
      case .string: return "string"
      case .path: return "path"
      case .rest: return "*"
      }
    }
  }

  /// One route that matches a URL, with everything the ranking needs.
  struct Match: CustomStringConvertible {
    /// The index of the route in the table.
    var route: Int
    /// The index of the expansion (bit `i` of the index set means group `i` is present).
    var expansion: Int
    /// Section 5 parameters.
    var params: Parameters
    /// Rule 1.
    var priority: Int
    /// Rule 2: the pattern names the URL's scheme.
    var namesScheme: Bool
    /// Rule 3: the pattern names the URL's domain.
    var namesDomain: Bool
    /// Rule 3: for a `*.` domain, the length of its suffix; 0 for an exact domain.
    var suffixLength: Int
    /// Rule 3a: the pattern has a fragment pattern (and so matched the URL's fragment).
    var matchesFragment: Bool
    /// Rule 4 after the path: the fragment's kinds and whether it ends with `*`.
    var fragmentKinds: [Kind]
    var fragmentEndsWithRest: Bool
    /// Rule 4: for each URL segment, the kind of pattern segment that matched it.
    var kinds: [Kind]
    /// Rule 4, tie-break: the expansion ends with `*`.
    var endsWithRest: Bool
    /// Rule 5.
    var constraintCount: Int

    var description: String {
      let kindList = kinds.map(\.description).joined(separator: ",")
      return
        "route \(route) expansion \(expansion) [priority \(priority), scheme \(namesScheme), "
        + "domain \(namesDomain) suffix \(suffixLength), fragment \(matchesFragment), "
        + "kinds [\(kindList)], ends with * \(endsWithRest), fragment kinds \(fragmentKinds), "
        + "constraints \(constraintCount)] params \(LinearMatcher.describe(params))"
    }
  }

  /// The routes, in table order.
  let routes: [Router.Route]
  /// Each route's expansions, worked out once.
  private let routeExpansions: [[[PatternSegment]]]

  init(_ routes: [Router.Route]) {
    self.routes = routes
    routeExpansions = routes.map { LinearMatcher.expansions(of: $0.pattern) }
  }

  // MARK: - Section 2: expansions

  /// The segment lists a pattern stands for: bit `i` of the index says whether optional group
  /// `i` is present; groups keep their written order after the plain segments.
  static func expansions(of pattern: RoutePattern) -> [[PatternSegment]] {
    var result: [[PatternSegment]] = []
    let count = 1 << pattern.groups.count
    for mask in 0..<count {
      var segments = pattern.segments
      for groupIndex in 0..<pattern.groups.count {
        if (mask >> groupIndex) & 1 == 1 {
          segments.append(contentsOf: pattern.groups[groupIndex])
        }
      }
      result.append(segments)
    }
    return result
  }

  // MARK: - Sections 3 and 4: matching and ranking

  /// Every route expansion that matches `url`, best first.
  func matches(_ url: RouteURL) -> [Match] {
    var found: [Match] = []
    for routeIndex in routes.indices {
      for (expansionIndex, segments) in routeExpansions[routeIndex].enumerated() {
        if let match = self.match(
          route: routeIndex, expansion: expansionIndex, segments: segments, url)
        {
          found.append(match)
        }
      }
    }
    // A plain insertion sort keeps the ranking easy to follow.
    var ranked: [Match] = []
    for candidate in found {
      var position = ranked.count
      while position > 0, LinearMatcher.ranksBefore(candidate, ranked[position - 1]) {
        position -= 1
      }
      ranked.insert(candidate, at: position)
    }
    return ranked
  }

  /// The winning match, if any.
  func best(_ url: RouteURL) -> Match? {
    matches(url).first
  }

  /// The six rules of section 4: whether `a` wins over `b`.
  static func ranksBefore(_ a: Match, _ b: Match) -> Bool {
    // 1. Higher priority.
    if a.priority != b.priority { return a.priority > b.priority }
    // 2. Names the URL's scheme before global.
    if a.namesScheme != b.namesScheme { return a.namesScheme }
    // 3. Names the URL's domain before naming none; exact, then `*.` by longer suffix.
    if a.namesDomain != b.namesDomain { return a.namesDomain }
    if a.suffixLength != b.suffixLength {
      if a.suffixLength == 0 || b.suffixLength == 0 { return a.suffixLength == 0 }
      return a.suffixLength > b.suffixLength
    }
    // 3a. Matches the fragment before ignoring it.
    if a.matchesFragment != b.matchesFragment { return a.matchesFragment }
    // 4. Per-segment kinds from the left; then no trailing `*` first; then the same for the
    // fragment.
    precondition(a.kinds.count == b.kinds.count, "both kind vectors cover the same URL")
    for (kindA, kindB) in zip(a.kinds, b.kinds) where kindA != kindB {
      return kindA < kindB
    }
    if a.endsWithRest != b.endsWithRest { return !a.endsWithRest }
    for (kindA, kindB) in zip(a.fragmentKinds, b.fragmentKinds) where kindA != kindB {
      return kindA < kindB
    }
    if a.fragmentEndsWithRest != b.fragmentEndsWithRest { return !a.fragmentEndsWithRest }
    // 5. More query constraints.
    if a.constraintCount != b.constraintCount { return a.constraintCount > b.constraintCount }
    // 6. Listed first (then, for completeness, the earlier expansion).
    if a.route != b.route { return a.route < b.route }
    return a.expansion < b.expansion
  }

  /// Tests one expansion of one route against the URL; nil when it does not match.
  private func match(
    route routeIndex: Int, expansion: Int, segments: [PatternSegment], _ url: RouteURL
  ) -> Match? {
    let route = routes[routeIndex]
    let pattern = route.pattern

    // Scheme: a pattern with a scheme needs a URL of that scheme; a global one takes any URL.
    if let scheme = pattern.scheme {
      guard let urlScheme = url.scheme, urlScheme.lowercased() == scheme.lowercased() else {
        return nil
      }
    }
    // Domain: a pattern that names one needs it; one that names none ignores the URL's. A
    // `*.` domain takes any host ending with the rest of it after a non-empty label.
    var suffixLength = 0
    if let domain = pattern.domain {
      guard let urlDomain = url.domain?.lowercased() else { return nil }
      if domain.hasPrefix("*.") {
        let suffix = String(domain.dropFirst())
        suffixLength = suffix.utf8.count
        guard urlDomain.utf8.count > suffix.utf8.count, urlDomain.hasSuffixBytes(suffix) else {
          return nil
        }
        let before = urlDomain.utf8.dropLast(suffix.utf8.count)
        guard before.split(separator: UInt8(ascii: ".")).contains(where: { !$0.isEmpty }) else {
          return nil
        }
      } else {
        guard LinearMatcher.sameText(urlDomain, domain.lowercased()) else { return nil }
      }
    }
    let folded = !pattern.caseSensitive

    // Path, segment by segment.
    guard
      let (kinds, pathCaptures) = LinearMatcher.walk(segments, url.segments, folded: folded)
    else { return nil }

    // Query constraints: `!key` absent; otherwise the key exactly once, with a value that fits.
    guard let constraintCaptures = LinearMatcher.check(pattern.constraints, url.query, folded)
    else { return nil }

    // Fragment: only a URL with one; path-like or query-like.
    var fragmentKinds: [Kind] = []
    var fragmentCaptures: [(String, ParamValue)] = []
    var fragmentEndsWithRest = false
    if let fragmentPattern = pattern.fragment {
      guard let fragment = url.fragment else { return nil }
      switch fragmentPattern {
      case .segments(let list):
        guard let (kinds, captures) = LinearMatcher.walk(list, fragment.segments, folded: folded)
        else { return nil }
        (fragmentKinds, fragmentCaptures) = (kinds, captures)
        fragmentEndsWithRest = list.last?.kind == .rest
      case .query(let constraints):
        guard let captures = LinearMatcher.check(constraints, fragment.items, folded) else {
          return nil
        }
        fragmentCaptures = captures
      }
    }

    // Section 5: query, then query-constraint captures, then path (and fragment) captures.
    var params: Parameters = [:]
    var queryKeys: [String] = []
    var queryValues: [String: [String]] = [:]
    for item in url.query {
      if queryValues[item.key] == nil { queryKeys.append(item.key) }
      queryValues[item.key, default: []].append(item.value)
    }
    for key in queryKeys {
      let values = queryValues[key]!
      params[key] = values.count == 1 ? .string(values[0]) : .strings(values)
    }
    for (name, value) in constraintCaptures { params[name] = value }
    for (name, value) in pathCaptures + fragmentCaptures { params[name] = value }

    return Match(
      route: routeIndex, expansion: expansion, params: params, priority: route.priority,
      namesScheme: pattern.scheme != nil, namesDomain: pattern.domain != nil,
      suffixLength: suffixLength, matchesFragment: pattern.fragment != nil,
      fragmentKinds: fragmentKinds, fragmentEndsWithRest: fragmentEndsWithRest, kinds: kinds,
      endsWithRest: segments.last?.kind == .rest, constraintCount: pattern.constraints.count)
  }

  /// Matches URL segments against pattern segments with at most one wildcard anywhere: the
  /// segments before it from the left, those after it from the right. The kind of each URL
  /// segment, and the captures; nil when they do not match.
  static func walk(_ pattern: [PatternSegment], _ urlSegments: [String], folded: Bool)
    -> ([Kind], [(String, ParamValue)])?
  {
    let wildcard = pattern.firstIndex { $0.kind == .path || $0.kind == .rest }
    let before = wildcard ?? pattern.count
    let after = wildcard.map { pattern.count - $0 - 1 } ?? 0
    guard urlSegments.count >= before + after else { return nil }
    let middle = urlSegments.count - before - after
    if wildcard == nil, middle != 0 { return nil }
    var kinds: [Kind] = []
    var captures: [(String, ParamValue)] = []
    func single(_ segment: PatternSegment, _ text: String) -> Bool {
      guard let (kind, value) = LinearMatcher.single(segment.kind, text, folded: folded) else {
        return false
      }
      kinds.append(kind)
      if let name = segment.name { captures.append((name, value)) }
      return true
    }
    for index in 0..<before where !single(pattern[index], urlSegments[index]) { return nil }
    if let wildcard {
      let taken = Array(urlSegments[before..<(before + middle)])
      if pattern[wildcard].kind == .path {
        guard !taken.isEmpty else { return nil }
        kinds += Array(repeating: Kind.path, count: taken.count)
        captures.append((pattern[wildcard].name ?? "?", .string(taken.joined(separator: "/"))))
      } else {
        kinds += Array(repeating: Kind.rest, count: taken.count)
        captures.append(("*", .strings(taken)))
      }
      for offset in 0..<after
      where !single(pattern[wildcard + 1 + offset], urlSegments[before + middle + offset]) {
        return nil
      }
    }
    return (kinds, captures)
  }

  /// The kind and value of one URL segment (or query value) for a single-segment kind, or nil.
  static func single(_ kind: SegmentKind, _ text: String, folded: Bool) -> (Kind, ParamValue)? {
    switch kind {
    case .literal(let literal):
      return LinearMatcher.sameText(text, literal, folded: folded)
        ? (.literal, .string(text)) : nil
    case .capture(let type):
      return LinearMatcher.typedValue(text, type)
    case .oneOf(let alternatives):
      return alternatives.contains { LinearMatcher.sameText(text, $0, folded: folded) }
        ? (.values, .string(text)) : nil
    case .regex(let regex):
      guard let compiled = try? Regex(regex.source).matchingSemantics(.unicodeScalar),
        (try? compiled.wholeMatch(in: text)) != nil
      else { return nil }
      return (.regex, .string(text))
    case .path, .rest:
      return nil
    }
  }

  /// Checks constraints against items; the captures, or nil when one is not met.
  static func check(
    _ constraints: [QueryConstraint], _ items: [RouteURL.QueryItem], _ folded: Bool
  ) -> [(String, ParamValue)]? {
    var captures: [(String, ParamValue)] = []
    for constraint in constraints {
      let values = items.filter { LinearMatcher.sameText($0.key, constraint.key) }.map(\.value)
      let kind: SegmentKind
      switch constraint.value {
      case .absent:
        guard values.isEmpty else { return nil }
        continue
      case .literal(let text): kind = .literal(text)
      case .capture(let type, _): kind = .capture(type)
      case .oneOf(let alternatives, _): kind = .oneOf(alternatives)
      case .regex(let regex, _): kind = .regex(regex)
      }
      guard values.count == 1, let (_, value) = single(kind, values[0], folded: folded) else {
        return nil
      }
      if let name = constraint.value.name { captures.append((name, value)) }
    }
    return captures
  }

  /// Decoded text compares exactly, scalar by scalar; `folded`, after lowercasing both.
  static func sameText(_ a: String, _ b: String, folded: Bool) -> Bool {
    folded ? sameText(a.lowercased(), b.lowercased()) : sameText(a, b)
  }

  /// Decoded text compares exactly, scalar by scalar (case-sensitive; no normalization).
  static func sameText(_ a: String, _ b: String) -> Bool {
    a.unicodeScalars.elementsEqual(b.unicodeScalars)
  }

  /// The kind and value of `text` as a capture of `type`, or nil when it does not fit.
  static func typedValue(_ text: String, _ type: CaptureType) -> (Kind, ParamValue)? {
    switch type {
    case .string:
      return (.string, .string(text))
    case .int:
      return intValue(text).map { (.int, .int($0)) }
    case .float:
      return floatValue(text).map { (.float, .float($0)) }
    case .uuid:
      return uuidValue(text).map { (.uuid, .string($0)) }
    case .path:
      return (.path, .string(text))
    }
  }

  // MARK: - Section 2: typed values

  /// `<int:>`: an optional `-` then ASCII decimal digits, fitting a 64-bit signed integer.
  static func intValue(_ text: String) -> Int64? {
    var scalars = Array(text.unicodeScalars)
    var negative = false
    if scalars.first == "-" {
      negative = true
      scalars.removeFirst()
    }
    guard !scalars.isEmpty, scalars.allSatisfy(isDigit) else { return nil }
    // Accumulate on the negative side, which has room for Int64.min.
    var value: Int64 = 0
    for scalar in scalars {
      let digit = Int64(scalar.value - 48)
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (next, overflow2) = shifted.subtractingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      value = next
    }
    if negative { return value }
    let (positive, overflow) = Int64(0).subtractingReportingOverflow(value)
    return overflow ? nil : positive
  }

  /// `<float:>`: `["+"|"-"] (digits ["." [digits]] | "." digits) [("e"|"E") ["+"|"-"] digits]`
  /// whose value as a 64-bit double is finite.
  static func floatValue(_ text: String) -> Double? {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    func skipDigits() -> Int {
      var count = 0
      while index < scalars.count, isDigit(scalars[index]) {
        index += 1
        count += 1
      }
      return count
    }
    if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
    let integerDigits = skipDigits()
    var fractionDigits = 0
    if index < scalars.count, scalars[index] == "." {
      index += 1
      fractionDigits = skipDigits()
    }
    // `digits ["." [digits]]` or `"." digits`: at least one digit on either side.
    guard integerDigits + fractionDigits > 0 else { return nil }
    if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
      index += 1
      if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
      guard skipDigits() > 0 else { return nil }
    }
    guard index == scalars.count else { return nil }
    // The text now follows the grammar; its value is what any decimal reader gives.
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  /// `<uuid:>`: 8-4-4-4-12 hex digits in any case, as the uppercase string.
  static func uuidValue(_ text: String) -> String? {
    let scalars = Array(text.unicodeScalars)
    guard scalars.count == 36 else { return nil }
    var upper = ""
    for (offset, scalar) in scalars.enumerated() {
      if [8, 13, 18, 23].contains(offset) {
        guard scalar == "-" else { return nil }
        upper.unicodeScalars.append(scalar)
      } else if isDigit(scalar) || ("A"..."F").contains(scalar) {
        upper.unicodeScalars.append(scalar)
      } else if ("a"..."f").contains(scalar) {
        upper.unicodeScalars.append(Unicode.Scalar(scalar.value - 32)!)
      } else {
        return nil
      }
    }
    return upper
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    ("0"..."9").contains(scalar)
  }

  // MARK: - Section 1: conflicts

  /// The first pair of routes that can never be told apart, in the order a table is read: the
  /// later route and the earlier one (the same index for two expansions of one pattern).
  func firstConflict() -> (route: Int, other: Int)? {
    var seen: [String: Int] = [:]
    for (routeIndex, route) in routes.enumerated() {
      let pattern = route.pattern
      // Literal values count; capture names do not (their types do).
      // Literal text counts exactly, or lowercased (and marked so) in a case-insensitive
      // route; value sets as sets; regular expressions by their text.
      let folded = !pattern.caseSensitive
      func text(_ value: String) -> String {
        folded ? "any case " + LinearMatcher.exact(value.lowercased()) : LinearMatcher.exact(value)
      }
      func describe(_ kind: SegmentKind) -> String {
        switch kind {
        case .literal(let value): return "literal \(text(value))"
        case .capture(let type): return type.rawValue
        case .oneOf(let alternatives):
          return "values " + Set(alternatives.map(text)).sorted().joined(separator: ",")
        case .regex(let regex): return "regex \(LinearMatcher.exact(regex.source))"
        case .path: return "path"
        case .rest: return "*"
        }
      }
      func describe(_ constraints: [QueryConstraint]) -> [String] {
        constraints.map { constraint -> String in
          let key = LinearMatcher.exact(constraint.key)
          switch constraint.value {
          case .absent: return "\(key) absent"
          case .literal(let value): return "\(key)=\(describe(.literal(value)))"
          case .capture(let type, _): return "\(key)=\(describe(.capture(type)))"
          case .oneOf(let alternatives, _): return "\(key)=\(describe(.oneOf(alternatives)))"
          case .regex(let regex, _): return "\(key)=\(describe(.regex(regex)))"
          }
        }.sorted()
      }
      let constraints = describe(pattern.constraints)
      var fragment = ["no fragment"]
      switch pattern.fragment {
      case nil: break
      case .segments(let list)?: fragment = ["fragment segments"] + list.map { describe($0.kind) }
      case .query(let list)?: fragment = ["fragment query"] + describe(list)
      }
      for segments in routeExpansions[routeIndex] {
        // Placeholder names do not count; literal text does.
        let kinds = segments.map { describe($0.kind) }
        let shape = [
          "scheme \(pattern.scheme ?? "-")", "domain \(pattern.domain ?? "-")",
          "priority \(route.priority)",
        ]
        let key = (shape + kinds + ["?"] + constraints + fragment).joined(separator: "\u{1}")
        if let other = seen[key] { return (routeIndex, other) }
        seen[key] = routeIndex
      }
    }
    return nil
  }

  /// Text as its scalar values, so that only exactly equal text gives equal keys.
  static func exact(_ text: String) -> String {
    text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
  }

  // MARK: - Describing

  /// Parameters as stable text for failure messages.
  static func describe(_ params: Parameters) -> String {
    let items = params.keys.sorted().map { key -> String in
      let value: String
      switch params[key]! {
      case .string(let text): value = text.debugDescription
      case .int(let number): value = "int \(number)"
      case .float(let number): value = "float \(number)"
      case .strings(let list):
        value = "[" + list.map(\.debugDescription).joined(separator: ", ") + "]"
      }
      return "\(key.debugDescription): \(value)"
    }
    return "{" + items.joined(separator: ", ") + "}"
  }
}

extension String {
  /// Whether the UTF-8 of this string ends with that of `suffix`.
  func hasSuffixBytes(_ suffix: String) -> Bool {
    utf8.reversed().starts(with: suffix.utf8.reversed())
  }
}
