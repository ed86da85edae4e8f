/// The kind of pattern segment that matched a URL segment, most specific first: literal > value
/// set > int > float > uuid > regular expression > string > path > `*` (rule 4 of the ranking).
public enum MatchKind: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
  /// A literal segment (case-sensitive or not).
  case literal
  /// `<a|b:name>`.
  case values
  /// `<int:name>`.
  case int
  /// `<float:name>`.
  case float
  /// `<uuid:name>`.
  case uuid
  /// `:name(REGEX)`.
  case regex
  /// `:name`, `<name>` or `<string:name>`.
  case string
  /// `<path:name>`.
  case path
  /// `*`.
  case rest

  /// The kind a pattern segment matches as.
  public init(_ kind: SegmentKind) {
    switch kind {
    case .literal: self = .literal
    case .oneOf: self = .values
    case .capture(.int): self = .int
    case .capture(.float): self = .float
    case .capture(.uuid): self = .uuid
    case .regex: self = .regex
    case .capture(.string), .capture(.path): self = .string
    case .path: self = .path
    case .rest: self = .rest
    }
  }

  /// More specific first.
  public static func < (lhs: MatchKind, rhs: MatchKind) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `literal`, `values`, `int`, `float`, `uuid`, `regex`, `string`, `path` or `*`.
  public var description: String {
    switch self {
    case .literal: return "literal"
    case .values: return "values"
    case .int: return "int"
    case .float: return "float"
    case .uuid: return "uuid"
    case .regex: return "regex"
    case .string: return "string"
    case .path: return "path"
    case .rest: return "*"
    }
  }
}

/// The ranking rules, in the order they apply: the first on which two matching routes differ
/// decides which one wins.
public enum RankRule: Int, Sendable, Hashable, Comparable {
  /// Rule 1: a higher `priority`.
  case priority = 1
  /// Rule 2: naming the URL's scheme, against a global route.
  case scheme
  /// Rule 3: naming the URL's exact domain, then a `*.` domain (longer suffix first), then none.
  case domain
  /// Rule 3a: matching the URL's fragment, against a route that ignores it.
  case fragment
  /// Rule 4: more specific segments, from the left (a trailing `*` that took nothing loses);
  /// the path's, then the fragment's.
  case specificity
  /// Rule 5: more query constraints.
  case constraints
  /// Rule 6: listed first.
  case order

  /// Earlier rules first.
  public static func < (a: RankRule, b: RankRule) -> Bool { a.rawValue < b.rawValue }
}

/// Where a route that matches a URL stands among the others: rules 1 to 6, compared in order.
/// The smaller rank wins. The trie, the linear scan, `--explain`, `routes --lint` and the
/// route tree all rank with this one type.
///
/// Made from the pattern alone, `kinds` has one kind per pattern segment; made for a URL, one
/// per URL segment (a wildcard's kind repeated for each segment it took). For a URL that both
/// match, two ranks made from patterns without an inner wildcard compare as the two made for
/// the URL do, so the trie can sort those once; ranks with an inner wildcard are made for
/// each URL.
public struct RouteRank: Sendable, Hashable, Comparable {
  /// The route's `priority`.
  public var priority: Int
  /// Whether the pattern names a scheme.
  public var namesScheme: Bool
  /// Whether the pattern names a domain.
  public var namesDomain: Bool
  /// For a `*.` domain, the length in bytes of the suffix it names (`.wikipedia.org`); 0 for
  /// an exact domain or none.
  public var wildcardDomain: Int
  /// Whether the pattern has a fragment pattern.
  public var matchesFragment: Bool
  /// The kind of each segment of the path, in order.
  public var kinds: [MatchKind]
  /// Whether the path pattern ends with `*`.
  public var endsWithRest: Bool
  /// The kind of each segment of the fragment, in order.
  public var fragmentKinds: [MatchKind]
  /// Whether the fragment pattern ends with `*`.
  public var fragmentEndsWithRest: Bool
  /// How many query constraints the pattern has (absent keys included).
  public var constraints: Int
  /// The route's index in the table.
  public var route: Int
  /// Which expansion of its optional groups matched.
  public var expansion: Int

  /// The rank of one expansion of a route; every part of it is fixed by the pattern.
  public init(_ pattern: RoutePattern, priority: Int, route: Int, expansion: Int) {
    self.init(
      pattern, priority: priority, route: route, expansion: expansion,
      segments: pattern.expansion(expansion))
  }

  /// The rank of an expansion whose segments are already made; with `url` (the number of
  /// URL path and fragment segments it matched), each wildcard counts once per segment taken.
  init(
    _ pattern: RoutePattern, priority: Int, route: Int, expansion: Int,
    segments: [PatternSegment], url: (path: Int, fragment: Int)? = nil
  ) {
    self.priority = priority
    namesScheme = pattern.scheme != nil
    namesDomain = pattern.domain != nil
    wildcardDomain = pattern.domainIsWildcard ? pattern.domain!.utf8.count - 1 : 0
    matchesFragment = pattern.fragment != nil
    kinds = Self.kinds(segments, taking: url?.path)
    endsWithRest = segments.last?.kind == .rest
    var fragment: [PatternSegment] = []
    if case .segments(let list)? = pattern.fragment { fragment = list }
    fragmentKinds = Self.kinds(fragment, taking: url?.fragment)
    fragmentEndsWithRest = fragment.last?.kind == .rest
    constraints = pattern.constraints.count
    self.route = route
    self.expansion = expansion
  }

  /// One kind per pattern segment, or, when `count` URL segments matched, one per URL segment.
  private static func kinds(_ segments: [PatternSegment], taking count: Int?) -> [MatchKind] {
    var kinds: [MatchKind] = []
    kinds.reserveCapacity(count ?? segments.count)
    for segment in segments {
      let kind = MatchKind(segment.kind)
      if let count, segment.kind.isWildcard {
        kinds += repeatElement(kind, count: max(0, count - (segments.count - 1)))
      } else {
        kinds.append(kind)
      }
    }
    return kinds
  }

  /// The first rule on which `self` and `other` differ, and whether `self` wins on it; nil
  /// when they are the same route and expansion.
  public func decidingRule(against other: RouteRank) -> (rule: RankRule, wins: Bool)? {
    if priority != other.priority { return (.priority, priority > other.priority) }
    if namesScheme != other.namesScheme { return (.scheme, namesScheme) }
    if namesDomain != other.namesDomain { return (.domain, namesDomain) }
    if wildcardDomain != other.wildcardDomain {
      // An exact domain (0) first, then the longer suffix.
      if wildcardDomain == 0 || other.wildcardDomain == 0 {
        return (.domain, wildcardDomain == 0)
      }
      return (.domain, wildcardDomain > other.wildcardDomain)
    }
    if matchesFragment != other.matchesFragment { return (.fragment, matchesFragment) }
    if let wins = Self.specificity(kinds, endsWithRest, other.kinds, other.endsWithRest) {
      return (.specificity, wins)
    }
    if matchesFragment,
      let wins = Self.specificity(
        fragmentKinds, fragmentEndsWithRest, other.fragmentKinds, other.fragmentEndsWithRest)
    {
      return (.specificity, wins)
    }
    if constraints != other.constraints { return (.constraints, constraints > other.constraints) }
    if route != other.route { return (.order, route < other.route) }
    if expansion != other.expansion { return (.order, expansion < other.expansion) }
    return nil
  }

  /// Rule 4 on one list of kinds: whether the first wins, or nil on a tie.
  private static func specificity(
    _ kinds: [MatchKind], _ endsWithRest: Bool, _ other: [MatchKind], _ otherEndsWithRest: Bool
  ) -> Bool? {
    for index in 0..<min(kinds.count, other.count) where kinds[index] != other[index] {
      return kinds[index] < other[index]
    }
    if kinds.count != other.count {
      // A kind list that is a prefix of the other has no trailing `*`: it wins.
      return kinds.count < other.count
    }
    if endsWithRest != otherEndsWithRest { return !endsWithRest }
    return nil
  }

  /// Whether `a` ranks before `b`.
  public static func < (a: RouteRank, b: RouteRank) -> Bool {
    a.decidingRule(against: b)?.wins ?? false
  }
}

extension RoutePattern {
  /// How many expansions the optional groups give (2^groups).
  public var expansionCount: Int { 1 << groups.count }

  /// One expansion: the segments, then the groups whose bit is set in `mask`.
  public func expansion(_ mask: Int) -> [PatternSegment] {
    guard mask != 0 else { return segments }
    var result = segments
    for (index, group) in groups.enumerated() where mask & (1 << index) != 0 {
      result += group
    }
    return result
  }
}
