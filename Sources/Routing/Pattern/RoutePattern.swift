import JSON

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
  /// What the URL's fragment must be, or nil when the route ignores the fragment.
  public let fragment: FragmentPattern?
  /// False when literals, value-set alternatives and literal query values compare without
  /// regard to case (Unicode lowercase mapping of both sides).
  public let caseSensitive: Bool

  /// The longest pattern compiled, in bytes.
  public static let maxBytes = 4096

  /// Compiles a pattern, or says what is wrong and where; `caseSensitive: false` makes its
  /// literals compare without regard to case.
  public init(_ text: String, caseSensitive: Bool = true) throws(PatternError) {
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
    fragment = parts.fragment
    self.caseSensitive = caseSensitive
    domainIsWildcard = parts.domain?.hasPrefix("*.") ?? false
    var inner = Self.hasInnerWildcard(parts.segments)
    if case .segments(let list)? = parts.fragment, Self.hasInnerWildcard(list) { inner = true }
    hasInnerWildcard = inner
  }

  /// Whether the domain starts with `*.` and so matches any host under it.
  public let domainIsWildcard: Bool

  /// Whether a `*` or `<path:>` stands before other segments, in the path or the fragment.
  public let hasInnerWildcard: Bool

  /// Whether a `*` or `<path:>` stands before the last of `segments`.
  private static func hasInnerWildcard(_ segments: [PatternSegment]) -> Bool {
    guard let index = segments.firstIndex(where: \.kind.isWildcard) else { return false }
    return index != segments.count - 1
  }

  /// The segment lists this pattern stands for: one per choice of optional groups, in written
  /// order (all groups absent first).
  public var expansions: [[PatternSegment]] {
    (0..<expansionCount).map(expansion)
  }

}

/// What a pattern requires of a URL's fragment.
public enum FragmentPattern: Sendable, Hashable {
  /// `#p/:phone`: `/`-separated segments, matched like the path (without dot segments).
  case segments([PatternSegment])
  /// `#pack_id=:id&pack_key=:key`: `&`-separated constraints, matched like the query.
  case query([QueryConstraint])
}

/// A pattern that does not follow the grammar: what is wrong, and the column (1-based, in
/// characters) where it is.
public struct PatternError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The pattern as written.
  public var pattern: String
  /// What is wrong, e.g. `only one '*' or path capture may stand in a pattern`.
  public var message: String
  /// The 1-based column, in characters, of the offending part.
  public var column: Int

  /// The message followed by where, e.g. `unclosed '(' (column 3 of "/a(/b")`.
  public var description: String {
    "\(message) (column \(column) of \(JSON.quote(pattern)))"
  }
}
