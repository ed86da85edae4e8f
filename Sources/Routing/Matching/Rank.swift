/// The kind of pattern segment that matched a URL segment, most specific first: literal > int >
/// float > uuid > string > path > `*` (rule 4 of the ranking).
public enum MatchKind: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
  /// A literal segment.
  case literal
  /// `<int:name>`.
  case int
  /// `<float:name>`.
  case float
  /// `<uuid:name>`.
  case uuid
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
    case .capture(.int): self = .int
    case .capture(.float): self = .float
    case .capture(.uuid): self = .uuid
    case .capture(.string), .capture(.path): self = .string
    case .path: self = .path
    case .rest: self = .rest
    }
  }

  /// More specific first.
  public static func < (lhs: MatchKind, rhs: MatchKind) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `literal`, `int`, `float`, `uuid`, `string`, `path` or `*`.
  public var description: String {
    switch self {
    case .literal: return "literal"
    case .int: return "int"
    case .float: return "float"
    case .uuid: return "uuid"
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
  /// Rule 3: naming the URL's domain, against a route that names none.
  case domain
  /// Rule 4: more specific segments, from the left (a trailing `*` that took nothing loses).
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
public struct RouteRank: Sendable, Hashable, Comparable {
  /// The route's `priority`.
  public var priority: Int
  /// Whether the pattern names a scheme.
  public var namesScheme: Bool
  /// Whether the pattern names a domain.
  public var namesDomain: Bool
  /// The kind of each pattern segment of the expansion that matched, in order.
  public var kinds: [MatchKind]
  /// How many query constraints the pattern has.
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

  /// The rank of an expansion whose segments are already made.
  init(
    _ pattern: RoutePattern, priority: Int, route: Int, expansion: Int,
    segments: [PatternSegment]
  ) {
    self.priority = priority
    namesScheme = pattern.scheme != nil
    namesDomain = pattern.domain != nil
    kinds = segments.map { MatchKind($0.kind) }
    constraints = pattern.constraints.count
    self.route = route
    self.expansion = expansion
  }

  /// The first rule on which `self` and `other` differ, and whether `self` wins on it; nil
  /// when they are the same route and expansion.
  public func decidingRule(against other: RouteRank) -> (rule: RankRule, wins: Bool)? {
    if priority != other.priority { return (.priority, priority > other.priority) }
    if namesScheme != other.namesScheme { return (.scheme, namesScheme) }
    if namesDomain != other.namesDomain { return (.domain, namesDomain) }
    for (kind, otherKind) in zip(kinds, other.kinds) where kind != otherKind {
      return (.specificity, kind < otherKind)
    }
    if kinds.count != other.kinds.count {
      // A kind list that is a prefix of the other has no trailing `*`: it wins.
      return (.specificity, kinds.count < other.kinds.count)
    }
    if constraints != other.constraints { return (.constraints, constraints > other.constraints) }
    if route != other.route { return (.order, route < other.route) }
    if expansion != other.expansion { return (.order, expansion < other.expansion) }
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
