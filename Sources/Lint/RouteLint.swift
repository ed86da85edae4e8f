import JSON
import Routing

// Lint of a route table on its own (`appshell routes --lint`): conflicts, parents, and routes
// that can never win. The checks that need the app's screens, actions and guards are in
// Shell's `AppLint`.

/// The table-only lint checks: conflicts and parent problems (which the app refuses a table
/// for), and shadowed routes (which can never win).
package enum RouteLint {
  /// Every table-only finding of an inspected table, in report order: each conflicting pair,
  /// each parent problem, each route that can never win.
  package static func findings(_ inspection: RouteTableInspection) -> [LintFinding] {
    let entries = inspection.table.entries
    func quoted(_ route: Int) -> String {
      "routes[\(route)] \(JSON.quote(entries[route].pattern.text))"
    }
    var findings: [LintFinding] = []
    var partners: [Int: Set<Int>] = [:]
    for conflict in inspection.conflicts {
      let later = conflict.route
      let earlier = conflict.other
      if later == earlier {
        findings.append(
          LintFinding(
            kind: .conflict, routes: [later], patterns: [entries[later].pattern.text],
            message: """
              \(quoted(later)): two expansions of its optional groups cannot be told apart \
              (the same segment kinds and query constraints); the app refuses the table
              """))
        continue
      }
      partners[later, default: []].insert(earlier)
      partners[earlier, default: []].insert(later)
      findings.append(
        LintFinding(
          kind: .conflict, routes: [later, earlier],
          patterns: [entries[later].pattern.text, entries[earlier].pattern.text],
          message: """
            \(quoted(later)) cannot be told apart from \(quoted(earlier)): the same scheme, \
            domain, segment kinds, query constraints and priority; the app refuses the table
            """))
    }
    for problem in inspection.parentProblems {
      let place = "routes[\(problem.route)].parent: "
      var reason = problem.error.description
      if reason.hasPrefix(place) { reason.removeFirst(place.count) }
      findings.append(
        LintFinding(
          kind: .parent, routes: [problem.route], patterns: [entries[problem.route].pattern.text],
          message: """
            \(quoted(problem.route)) has an unusable parent: \(reason); the app refuses the \
            table
            """))
    }
    let routes = inspection.table.router.routes
    let patterns = entries.map(\.pattern.text)
    for shadowing in shadowings(routes, router: inspection.table.router) {
      let others = shadowing.shadowers.map(\.route)
      // A route hidden only by routes it conflicts with is reported as the conflict.
      if Set(others).isSubset(of: partners[shadowing.route] ?? []) { continue }
      findings.append(
        LintFinding(
          kind: .shadowed, routes: [shadowing.route] + others,
          patterns: ([shadowing.route] + others).map { entries[$0].pattern.text },
          message: shadowing.message(patterns)))
    }
    return findings.sorted(by: LintFinding.reportOrder)
  }

  // MARK: - Shadowing

  /// Which ranking rule puts one route before another.
  package typealias RankRule = Routing.RankRule

  /// A route that ranks before another for every URL of some part of it, and the rule that
  /// decides.
  package struct Shadower: Sendable, Hashable {
    /// The route that ranks first.
    package var route: Int
    /// The rule that puts it first.
    package var rule: RankRule
  }

  /// A route that can never win, and the routes that rank before it: between them, they
  /// rank first for every URL it matches.
  package struct Shadowing: Sendable, Hashable {
    /// The route that can never win.
    package var route: Int
    /// The routes that rank before it, by index; one route when a single route does it all.
    package var shadowers: [Shadower]

    /// A sentence saying which routes hide this one and why, given every route's pattern.
    package func message(_ patterns: [String]) -> String {
      func quoted(_ route: Int) -> String { "routes[\(route)] \(JSON.quote(patterns[route]))" }
      let reasons: [RankRule: String] = [
        .priority: "a higher priority", .scheme: "it names the scheme",
        .domain: "it names the domain", .fragment: "it matches the fragment",
        .specificity: "more specific segments",
        .constraints: "more query constraints", .order: "the same rank, listed first",
      ]
      if shadowers.count == 1, let only = shadowers.first {
        return """
          \(quoted(route)) can never win: \(quoted(only.route)) matches every URL it matches \
          and ranks first (\(reasons[only.rule]!))
          """
      }
      let list = shadowers.map { "\(quoted($0.route)) (\(reasons[$0.rule]!))" }
      return """
        \(quoted(route)) can never win: for every URL it matches, one of \
        \(list.joined(separator: ", ")) matches it too and ranks first
        """
    }
  }

  /// Every route that can never win, in table order, found from the patterns alone.
  ///
  /// A route B is reported when each part of it is hidden: each expansion of its optional
  /// groups (a trailing `*` split into "no more segments" and "one or more") must have some
  /// other route A with an expansion that (a) matches every URL that part matches — same
  /// scheme or global, same domain or none, as many segments, each segment at least as
  /// general, every query key A constrains also constrained by B to values A accepts — and
  /// (b) ranks before it on all of those URLs by the ranking rules, which for such a pair
  /// does not depend on the URL. Anything less certain is not reported. `router` (compiled
  /// from `routes`) finds the candidates: a route that matches every URL of a part matches
  /// the part's sample URL.
  package static func shadowings(_ routes: [Router.Route], router: Router) -> [Shadowing] {
    let shapes = routes.map { Shape.all(of: $0.pattern) }
    var result: [Shadowing] = []
    for b in routes.indices {
      var perPart: [[Shadower]] = []
      for part in shapes[b].flatMap(\.parts) {
        guard let url = part.sampleURL(routes[b].pattern), part.matches(url, routes[b].pattern)
        else {
          perPart = []
          break
        }
        var found: [Shadower] = []
        for candidate in router.matches(url).map(\.route) where candidate != b {
          var best: RankRule?
          for shape in shapes[candidate] {
            guard
              let rule = ranksFirst(
                shape, of: routes[candidate], index: candidate, over: part, of: routes[b],
                index: b)
            else { continue }
            best = min(best ?? rule, rule)
          }
          if let best { found.append(Shadower(route: candidate, rule: best)) }
        }
        if found.isEmpty {
          perPart = []
          break
        }
        perPart.append(found.sorted { $0.route < $1.route })
      }
      guard !perPart.isEmpty else { continue }
      // One route for every part when there is one (the first listed), else the first
      // listed for each part.
      let common = perPart.dropFirst().reduce(Set(perPart[0].map(\.route))) {
        $0.intersection($1.map(\.route))
      }
      var shadowers: [Shadower]
      if let first = common.min() {
        // The deciding rule reported is the one for the first part.
        shadowers = [perPart[0].first { $0.route == first }!]
      } else {
        shadowers = []
        for part in perPart where !shadowers.contains(where: { $0.route == part[0].route }) {
          shadowers.append(part[0])
        }
        shadowers.sort { $0.route < $1.route }
      }
      result.append(Shadowing(route: b, shadowers: shadowers))
    }
    return result
  }

  /// Whether route `a` alone ranks before route `b` for every URL `b` matches (each of `b`'s
  /// parts hidden by some expansion of `a`), and by which rule for `b`'s first part; nil when
  /// that is not certain from the patterns. Does not look at other routes.
  package static func shadows(
    _ a: Router.Route, index indexA: Int, _ b: Router.Route, index indexB: Int
  ) -> RankRule? {
    guard indexA != indexB else { return nil }
    let shapesA = Shape.all(of: a.pattern)
    var first: RankRule?
    for part in Shape.all(of: b.pattern).flatMap(\.parts) {
      var best: RankRule?
      for shape in shapesA {
        if let rule = ranksFirst(shape, of: a, index: indexA, over: part, of: b, index: indexB) {
          best = min(best ?? rule, rule)
        }
      }
      guard let best else { return nil }
      if first == nil { first = best }
    }
    return first
  }

  /// The rule by which expansion `shape` of route `a` ranks before `part` of route `b` for
  /// every URL of `part`, when it also matches all of them; nil otherwise.
  static func ranksFirst(
    _ shape: Shape, of a: Router.Route, index indexA: Int, over part: Shape, of b: Router.Route,
    index indexB: Int
  ) -> RankRule? {
    let patternA = a.pattern
    let patternB = b.pattern
    // Not judged: case-insensitive routes, fragments and wildcards inside the path.
    for pattern in [patternA, patternB]
    where !pattern.caseSensitive || pattern.fragment != nil || pattern.hasInnerWildcard {
      return nil
    }
    // Matches every URL of the part: scheme, domain, query, then segments.
    if let scheme = patternA.scheme, !patternB.scheme.isExactly(scheme) { return nil }
    if let domain = patternA.domain, !patternB.domain.isExactly(domain) {
      // A `*.` domain covers the exact domains under it.
      guard patternA.domainIsWildcard, let other = patternB.domain, !patternB.domainIsWildcard,
        domainIsUnder(other, domain)
      else { return nil }
    }
    for constraint in patternA.constraints {
      guard let other = patternB.constraints.first(where: { $0.key.isExactly(constraint.key) }),
        constraint.value.accepts(every: other.value)
      else { return nil }
    }
    guard shape.covers(part) else { return nil }
    // Ranks first on all of them: each rule compares things fixed by the two patterns.
    let rankA = shape.rank(a, route: indexA)
    let rankB = part.rank(b, route: indexB)
    guard let (rule, wins) = rankA.decidingRule(against: rankB), wins else { return nil }
    return rule
  }

  /// One expansion of a pattern, or part of one: the single segments, what may follow them,
  /// and the segment kinds that rank it (ranking rule 4).
  struct Shape: Hashable {
    /// What may follow the single segments.
    enum Tail: Hashable {
      /// Nothing.
      case none
      /// One or more segments (`<path:>`, or `*` given at least one).
      case path
      /// Zero or more segments (`*`).
      case rest
    }

    /// The segments matching exactly one URL segment each (literals and captures).
    var singles: [SegmentKind]
    /// What may follow them.
    var tail: Tail
    /// The kind of each segment, as the ranking compares them.
    var kinds: [MatchKind]

    /// The shapes of every expansion of a pattern, in expansion order.
    static func all(of pattern: RoutePattern) -> [Shape] {
      pattern.expansions.map { segments in
        var singles: [SegmentKind] = []
        var tail = Tail.none
        for segment in segments {
          switch segment.kind {
          case .literal, .capture, .oneOf, .regex: singles.append(segment.kind)
          case .path: tail = .path
          case .rest: tail = .rest
          }
        }
        return Shape(singles: singles, tail: tail, kinds: segments.map { MatchKind($0.kind) })
      }
    }

    /// The shape split so each part has a fixed set of lengths: a trailing `*` becomes "no
    /// more segments" and "one or more" (ranked as `*` either way).
    var parts: [Shape] {
      guard tail == .rest else { return [self] }
      return [
        Shape(singles: singles, tail: .none, kinds: kinds),
        Shape(singles: singles, tail: .path, kinds: kinds),
      ]
    }

    /// The fewest segments a URL of this shape has.
    var minimumLength: Int { singles.count + (tail == .path ? 1 : 0) }

    /// How a route ranks on the URLs of this shape of it: fixed by its pattern.
    func rank(_ route: Router.Route, route index: Int) -> RouteRank {
      var rank = RouteRank(route.pattern, priority: route.priority, route: index, expansion: 0)
      rank.kinds = kinds
      return rank
    }

    /// Whether every segment list this shape matches, `part` matches (`part` has no `.rest`
    /// tail: see ``parts``).
    func covers(_ part: Shape) -> Bool {
      switch tail {
      case .none:
        guard part.tail == .none, part.singles.count == singles.count else { return false }
      case .path:
        guard part.minimumLength >= singles.count + 1 else { return false }
      case .rest:
        guard part.minimumLength >= singles.count else { return false }
      }
      for (position, kind) in singles.enumerated() {
        if position < part.singles.count {
          guard kind.accepts(every: part.singles[position]) else { return false }
        } else {
          // Inside the part's tail: any segment at all.
          guard kind == .capture(.string) else { return false }
        }
      }
      return true
    }

    /// A URL this part matches, for finding the routes that may hide it: the pattern's scheme
    /// and domain, each segment (a sample value for a capture, one more segment for a path
    /// tail) and each constrained query key once.
    /// Nil when the part has a regular expression (no sample is known to match it), or the
    /// pattern is not judged (see ``ranksFirst(_:of:index:over:of:index:)``).
    func sampleURL(_ pattern: RoutePattern) -> RouteURL? {
      guard pattern.caseSensitive, pattern.fragment == nil, !pattern.hasInnerWildcard else {
        return nil
      }
      func sample(_ kind: SegmentKind) -> String? {
        switch kind {
        case .literal(let text): return text
        case .capture(let type): return type.sample
        case .oneOf(let alternatives): return alternatives.first
        case .regex: return nil
        case .path, .rest: return "sample"
        }
      }
      var segments: [String] = []
      for kind in singles {
        guard let text = sample(kind) else { return nil }
        segments.append(text)
      }
      if tail == .path { segments.append("sample") }
      var query: [RouteURL.QueryItem] = []
      for constraint in pattern.constraints {
        guard let kind = constraint.value.segmentKind else { continue }
        guard let value = sample(kind) else { return nil }
        query.append(RouteURL.QueryItem(key: constraint.key, value: value))
      }
      var domain = pattern.domain
      if pattern.domainIsWildcard, let wildcard = domain {
        domain = "sample" + wildcard.dropFirst()
      }
      return RouteURL(scheme: pattern.scheme, domain: domain, segments: segments, query: query)
    }

    /// Whether `url` is a URL of this part of `pattern` (a check on ``sampleURL(_:)``).
    func matches(_ url: RouteURL, _ pattern: RoutePattern) -> Bool {
      guard url.scheme.isExactly(pattern.scheme),
        pattern.domain.map({ domainMatches(url.domain, $0) }) ?? (url.domain == nil),
        LinearScan.query(pattern.constraints, url.query) == nil
      else { return false }
      switch tail {
      case .none: guard url.segments.count == singles.count else { return false }
      case .path, .rest: guard url.segments.count >= minimumLength else { return false }
      }
      let pieces = singles.map { PatternSegment(kind: $0, name: "x") }
      let prefix = Array(url.segments.prefix(singles.count))
      return (try? LinearScan.path(pieces, prefix).get()) != nil
    }
  }
}

extension SegmentKind {
  /// Whether every URL segment `other` matches, this matches (both single segments, of
  /// case-sensitive patterns).
  func accepts(every other: SegmentKind) -> Bool {
    switch (self, other) {
    case (.capture(.string), _): return true
    case (.literal(let text), .literal(let otherText)): return text.isExactly(otherText)
    case (_, .literal(let otherText)): return accepts(otherText, caseSensitive: true)
    case (_, .oneOf(let alternatives)):
      return alternatives.allSatisfy { accepts($0, caseSensitive: true) }
    case (.capture(let type), .capture(let otherType)): return type.includes(otherType)
    case (.regex(let regex), .regex(let otherRegex)): return regex == otherRegex
    default: return false
    }
  }
}

extension QueryConstraint.Value {
  /// Whether every value `other` accepts, this accepts; `!key` only `!key`.
  func accepts(every other: QueryConstraint.Value) -> Bool {
    switch (segmentKind, other.segmentKind) {
    case (nil, nil): return true
    case (let kind?, let otherKind?): return kind.accepts(every: otherKind)
    default: return false
    }
  }
}

extension CaptureType {
  /// Whether every value of `other` is a value of this type: itself, everything for
  /// `string`, and every `int` is a `float`.
  func includes(_ other: CaptureType) -> Bool {
    self == other || self == .string || (self == .float && other == .int)
  }

  /// A value of this type, for sample URLs.
  var sample: String {
    switch self {
    case .int: return "1"
    case .float: return "1.5"
    case .uuid: return "123E4567-E89B-12D3-A456-426614174000"
    case .string, .path: return "sample"
    }
  }
}
