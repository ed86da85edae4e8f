import JSON
import Routing

/// What a lint finding is about.
package enum LintKind: String, Sendable, Hashable, CaseIterable {
  /// Two routes (or two expansions of one route) that no URL can tell apart; the app refuses
  /// the table.
  case conflict
  /// A `parent` that does not end on a screen route, or parents that form a loop; the app
  /// refuses the table.
  case parent
  /// A route's guard that the app does not have, or a guard whose own URL is guarded; the app
  /// refuses the table.
  case `guard`
  /// A route's `tab` that is not one of the app's tab titles; the app refuses the table.
  case tab
  /// A route that can never win: for every URL it matches, another route ranks first.
  case shadowed
  /// A route to a screen or action this build does not have, without a `minVersion` that
  /// asks for a newer app.
  case target
  /// A `rename` to a parameter name that the route's screen does not declare.
  case rename
  /// A link on a screen whose URL resolves to nothing, or whose destination no route can say.
  case link
  /// A route leaving its data screen's declared parameter without a value or of another kind.
  case params
  /// An `https` route on an associated domain that its AASA never admits.
  case unreachable
  /// An AASA component whose example URLs no route handles.
  case unrouted
  /// A route with a custom scheme, open from outside, that the app does not register.
  case scheme
  /// An AASA component that can never decide: an earlier one matches everything it matches.
  case shadowedComponent = "shadowed-component"
  /// An AASA entry with both `paths` and `components` (its `paths` are ignored).
  case pathsIgnored = "paths-ignored"
}

/// One problem found by lint: its kind, where it is, and why it is a problem.
package struct LintFinding: Sendable, Hashable {
  /// What kind of problem it is.
  package var kind: LintKind
  /// The routes involved, by index in the table: the route the finding is about first.
  package var routes: [Int]
  /// The patterns of ``routes``, as written, in the same order.
  package var patterns: [String]
  /// The screen the finding is about (for a link), if any.
  package var screen: String?
  /// The index of the link in the screen's links, if the finding is about one.
  package var link: Int?
  /// A readable sentence saying what is wrong and why, naming the routes, screen or link.
  package var message: String

  /// Makes a finding.
  package init(
    kind: LintKind, routes: [Int] = [], patterns: [String] = [], screen: String? = nil,
    link: Int? = nil, message: String
  ) {
    self.kind = kind
    self.routes = routes
    self.patterns = patterns
    self.screen = screen
    self.link = link
    self.message = message
  }

  /// The finding as one line of text: `kind: message`.
  package var text: String { "\(kind.rawValue): \(message)" }

  /// The finding as a JSON object with every member always present, in a fixed order:
  /// `kind`, `routes`, `patterns`, `screen`, `link` (null when not about one) and `message`.
  package var json: JSON {
    .object([
      JSONMember("kind", .string(kind.rawValue)),
      JSONMember("routes", .array(routes.map { .number(String($0)) })),
      JSONMember("patterns", .array(patterns.map(JSON.string))),
      JSONMember("screen", screen.map(JSON.string) ?? .null),
      JSONMember("link", link.map { .number(String($0)) } ?? .null),
      JSONMember("message", .string(message)),
    ])
  }

  /// The order findings are reported in: by kind (in ``LintKind`` order), then by the routes
  /// involved, then by screen and link.
  package static func reportOrder(_ a: LintFinding, _ b: LintFinding) -> Bool {
    let kinds = LintKind.allCases
    let kindA = kinds.firstIndex(of: a.kind)!
    let kindB = kinds.firstIndex(of: b.kind)!
    if kindA != kindB { return kindA < kindB }
    if a.routes != b.routes { return a.routes.lexicographicallyPrecedes(b.routes) }
    if a.screen != b.screen { return (a.screen ?? "") < (b.screen ?? "") }
    return (a.link ?? -1) < (b.link ?? -1)
  }
}
