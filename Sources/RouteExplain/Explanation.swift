import Routing

/// Why a URL resolves the way it does through a route table: every route considered, in table
/// order, with why it failed, why it matched but lost, or that it won; then what the winner
/// did (rename, redirect, refusal, target), hop by hop along redirects.
///
/// It is worked out independently of `Router` (route by route, as `LinearScan` does) with
/// the same ranking rules as the router (``Explanation/RankingRule``), and it always names the
/// route `Router.match(_:)` picks; ``resolution`` is what
/// `RouteTable.resolve(_:from:)` gives.
public struct Explanation: Sendable {
  /// The URL as given (bytes that are not UTF-8 written as U+FFFD).
  public var url: String
  /// Where the URL came from; an internal-only winner refuses a URL from outside.
  public var origin: Origin
  /// The URL itself, then each URL a redirect produced, in order; never empty.
  public var hops: [Hop]
  /// How resolving ended: the same answer as `RouteTable.resolve(bytes:from:)`.
  public var resolution: Resolution
  /// The table's entries, which the route indices of ``hops`` refer to.
  public var entries: [RouteEntry]

  /// One URL looked up in the table: how it was read, every route's verdict, and what the
  /// winner did.
  public struct Hop: Sendable {
    /// The URL looked up (the original one, or a filled redirect template).
    public var url: String
    /// The URL as the router reads it, or nil when it cannot be read.
    public var read: RouteURL?
    /// Every route of the table, in table order, with its verdict; empty when the URL could
    /// not be read.
    public var candidates: [Candidate]
    /// The index of the winning route, or nil when none matched.
    public var winner: Int?
    /// The winner's parameters before `rename`; empty without a winner.
    public var params: Parameters
    /// The winner's parameters after `rename`; equal to ``params`` when it renames nothing.
    public var renamed: Parameters
    /// What happened at this hop.
    public var end: End

    /// The candidates that matched, best first (the winner, then the losers by rank).
    public var ranked: [Candidate] {
      candidates.filter { $0.rank != nil }.sorted { $0.rank! < $1.rank! }
    }

    /// When no route matched, the near misses: the failed routes that got furthest (highest
    /// ``Candidate/progress``, at least 1), in table order.
    public var nearest: [Candidate] {
      guard winner == nil else { return [] }
      let best = candidates.map(\.progress).max() ?? 0
      return best == 0 ? [] : candidates.filter { $0.progress == best }
    }
  }

  /// How one hop ended.
  public enum End: Sendable, Equatable {
    /// The URL could not be read; says why (e.g. `invalid percent escape in path segment 2`).
    case invalid(String)
    /// No route matched.
    case unmatched
    /// The winner has `"external": false` and the URL came from outside; says why. The
    /// next-ranked route is not tried.
    case refused(String)
    /// The winner's target, which is final: a screen, an action or a notification.
    case target(RouteTarget)
    /// The winner is a redirect; its filled template is the next hop's URL.
    case redirect(String)
    /// The winner is a redirect that cannot be followed: a placeholder without a value, a
    /// loop, or too many redirects in a row. `redirect` is the filled URL when there is one.
    case failed(String, redirect: String?)
  }

  /// One route's verdict for one URL.
  public struct Candidate: Sendable, Equatable {
    /// The route's index in the table.
    public var route: Int
    /// Failed, matched but lost, or won.
    public var verdict: Verdict
    /// For a route with optional groups, the expansion the verdict is about (see
    /// `RoutePattern.expansions`): the one that matched best, or for a failure in the path
    /// the closest one (most segments matched, the first of those in written order); nil for
    /// a route without groups, or one that fails the same way in every expansion (on the
    /// scheme, the domain or a segment before the groups).
    public var expansion: Int?
    /// For a route that matched, the kind of each segment of its matching expansion, as
    /// ranking rule 4 compares them (a `*` or `<path:>` is one entry, however many URL
    /// segments it took).
    public var kinds: [MatchKind]
    /// For a route that matched, its place in the ranking: 1 for the winner.
    public var rank: Int?
    /// For a route that failed, how far it got: the URL segments it matched before failing,
    /// or one more than the URL has when only the query failed; 0 when the scheme, the domain
    /// or the first segment failed.
    public var progress: Int
  }

  /// A route's verdict.
  public enum Verdict: Sendable, Equatable {
    /// The route does not match the URL; the first reason, from the left.
    case failed(Failure)
    /// The route matches but another one ranks first: the winner, and the first ranking rule
    /// that puts the winner before this route.
    case lost(to: Int, rule: RankingRule)
    /// The route wins.
    case won
  }

  /// Why a route does not match a URL (see `MatchFailure`).
  public typealias Failure = MatchFailure

  /// The ranking rule that puts the winner before a route that also matched. The router
  /// applies the rules in this order; the first that tells two routes apart decides.
  public enum RankingRule: Sendable, Equatable {
    /// Rule 1: higher `priority` (the loser's, the winner's).
    case priority(loser: Int, winner: Int)
    /// Rule 2: the winner names the URL's scheme; the loser is global.
    case scheme(String)
    /// Rule 3: the winner names the URL's domain; the loser names none.
    case domain(String)
    /// Rule 3: both name a domain that fits the URL; the winner's is exact, or a `*.` domain
    /// with a longer suffix (the winner's, the loser's).
    case closerDomain(winner: String, loser: String)
    /// Rule 3a: the winner matches the URL's fragment; the loser ignores it.
    case fragment
    /// Rule 4, in the fragment: at fragment segment `segment`, the winner's kind of segment is
    /// more specific.
    case fragmentSpecificity(segment: Int, loser: MatchKind, winner: MatchKind)
    /// Rule 4: at URL segment `segment`, the winner's kind of segment is more specific.
    case specificity(segment: Int, loser: MatchKind, winner: MatchKind)
    /// Rule 4: the routes agree on every URL segment, and the loser also ends with a `*`
    /// that matches nothing (`/a` beats `/a/*` for `/a`).
    case trailingRest
    /// Rule 5: more query constraints (the loser's count, the winner's).
    case queryConstraints(loser: Int, winner: Int)
    /// Rule 6: the winner is listed first.
    case tableOrder

    /// The rule's number, 1 to 6, as `--explain` prints it.
    public var number: Int {
      switch self {
      case .priority: return 1
      case .scheme: return 2
      case .domain, .closerDomain, .fragment: return 3
      case .specificity, .trailingRest, .fragmentSpecificity: return 4
      case .queryConstraints: return 5
      case .tableOrder: return 6
      }
    }
  }

  /// The kind of pattern segment that matched a URL segment (see `MatchKind`).
  public typealias MatchKind = Routing.MatchKind
}
