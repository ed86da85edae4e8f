/// Why a route does not match a URL, as ``LinearScan`` finds it (the first reason, which
/// `resolve --explain` shows). Checked in this order: scheme, domain, the path segments from
/// the left, then query constraints in written order. Segments are numbered from 1 as the
/// URL's segments (a host that is not a domain is segment 1).
public enum MatchFailure: Sendable, Equatable {
  /// The pattern names the scheme `pattern`; the URL's is `url` (nil: the URL has none).
  case scheme(pattern: String, url: String?)
  /// The pattern requires the domain `pattern`; the URL's is `url` (nil: it has none).
  case domain(pattern: String, url: String?)
  /// Segment `segment` of the URL is `url`, not the pattern's literal `pattern`.
  case literal(segment: Int, pattern: String, url: String)
  /// Segment `segment` of the URL is `url`, which is not a value of `type`.
  case type(segment: Int, type: CaptureType, url: String)
  /// The URL has `has` segments; the pattern needs `needs` (or at least `needs`, when it
  /// ends with `<path:>` or `*`).
  case tooFewSegments(needs: Int, atLeast: Bool, has: Int)
  /// The URL has `has` segments; the pattern takes exactly `takes`.
  case tooManySegments(takes: Int, has: Int)
  /// The constrained query key `key` is not in the URL.
  case queryMissing(key: String)
  /// The constrained query key `key` appears `count` times; it must appear once.
  case queryRepeated(key: String, count: Int)
  /// The query key `key` has the value `url`, not the pattern's literal `pattern`.
  case queryLiteral(key: String, pattern: String, url: String)
  /// The query key `key` has the value `url`, which is not a value of `type`.
  case queryType(key: String, type: CaptureType, url: String)
  /// Segment `segment` of the URL is `url`, which `expected` does not take: `one of a|b` for
  /// a value set, `the regular expression X` for a regular expression.
  case segment(segment: Int, expected: String, url: String)
  /// The query key `key` has the value `url`, which `expected` does not take (as for
  /// ``segment(segment:expected:url:)``).
  case queryValue(key: String, expected: String, url: String)
  /// The query key `key`, which must be absent (`!key`), is in the URL.
  case queryPresent(key: String)
  /// The pattern has a fragment pattern and the URL has no fragment.
  case fragmentMissing
  /// The URL's fragment does not match the fragment pattern: why, with segments numbered in
  /// the fragment and keys of the fragment.
  indirect case fragment(MatchFailure)
}
