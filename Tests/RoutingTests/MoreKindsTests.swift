import Testing

@testable import Routing

// Value sets, regular expressions, case-insensitive routes, absent query keys, fragments, `*.`
// and scheme-less domains, and a wildcard inside the path: each rule of docs/routing.md,
// "More kinds of patterns", with a case that fails if the rule breaks.

/// A route for these tests: a pattern, whether it ignores case, and a priority.
private struct R {
  var pattern: String
  var caseSensitive = true
  var priority = 0

  init(_ pattern: String, caseSensitive: Bool = true, priority: Int = 0) {
    self.pattern = pattern
    self.caseSensitive = caseSensitive
    self.priority = priority
  }
}

private func routes(_ list: [R]) throws -> [Router.Route] {
  try list.map {
    Router.Route(
      pattern: try RoutePattern($0.pattern, caseSensitive: $0.caseSensitive), priority: $0.priority)
  }
}

/// The winner and its parameters for `url`, checked against the linear scan and the test
/// oracle, which must agree with the router.
private func best(_ list: [R], _ url: String) throws -> RouteMatch? {
  let compiled = try routes(list)
  let router = try Router(compiled)
  let parsed = try RouteURL(url, fragment: router.readsFragment)
  let match = router.match(parsed)
  #expect(LinearScan(compiled).match(parsed) == match, "linear scan vs router for \(url)")
  let oracle = LinearMatcher(compiled).best(parsed)
  #expect(oracle?.route == match?.route, "oracle vs router for \(url)")
  #expect(oracle?.params == match?.params, "oracle vs router parameters for \(url)")
  let bytes = Array(url.utf8)
  #expect(bytes.withUnsafeBufferPointer { router.match(bytes: $0) } == match)
  return match
}

private func winner(_ list: [R], _ url: String) throws -> Int? {
  try best(list, url)?.route
}

private func matches(_ pattern: String, _ url: String, caseSensitive: Bool = true) throws -> Bool {
  try winner([R(pattern, caseSensitive: caseSensitive)], url) != nil
}

private func conflict(_ list: [R]) throws -> RouteConflict? {
  do {
    _ = try Router(try routes(list))
    #expect(LinearMatcher(try routes(list)).firstConflict() == nil, "oracle finds a conflict")
    return nil
  } catch let error as RouteConflict {
    let expected = LinearMatcher(try routes(list)).firstConflict()
    #expect(expected?.route == error.route && expected?.other == error.other)
    return error
  }
}

@Suite struct ValueSetTests {
  @Test func takesExactlyOneOfTheAlternatives() throws {
    let pattern = "/stats/<day|week|month:period>/:site"
    let match = try #require(try best([R(pattern)], "/stats/week/example.com"))
    #expect(match.params["period"] == .string("week"))
    #expect(try !matches(pattern, "/stats/year/example.com"))
    #expect(try !matches(pattern, "/stats/Week/example.com"))
    #expect(try !matches(pattern, "/stats/wee/example.com"))
  }

  @Test func alternativesAreDecodedAndMayRepeat() throws {
    #expect(try matches("/<a%20b|c|c:x>", "/a%20b"))
    #expect(try matches("/<a%20b|c|c:x>", "/c"))
    #expect(try !matches("/<a%20b|c|c:x>", "/a%2520b"))
  }

  @Test func inAQueryAPlusIsASpace() throws {
    #expect(try matches("/q?k=<a+b|c:x>", "/q?k=a+b"))
    #expect(try matches("/q?k=<a+b|c:x>", "/q?k=a%20b"))
    #expect(try !matches("/q?k=<a+b|c:x>", "/q?k=a%2Bb"))
    let match = try #require(try best([R("/q?k=<a|c:x>")], "/q?k=c"))
    #expect(match.params["x"] == .string("c"))
  }

  @Test(arguments: ["/<a:x>", "/<a||b:x>", "/<a|:x>", "/<a|b/c:x>", "/<a|b>", "/<:a|b:x>"])
  func badValueSetsAreRefused(text: String) {
    #expect(patternRefusal(text) != nil, "\(text)")
  }
}

@Suite struct RegexTests {
  @Test func matchesTheWholeDecodedValue() throws {
    #expect(try matches("/lang/:lang([a-z]{2})", "/lang/en"))
    #expect(try !matches("/lang/:lang([a-z]{2})", "/lang/eng"))
    #expect(try !matches("/lang/:lang([a-z]{2})", "/lang/e"))
    #expect(try matches("/:x(a b)", "/a%20b"))
    // Not percent-decoded itself: `%41` in a REGEX is those three characters.
    #expect(try matches("/:x(%41)", "/%2541"))
    #expect(try !matches("/:x(%41)", "/A"))
    let match = try #require(try best([R("/p?id=:id(\\d{3,8})")], "/p?id=1234"))
    #expect(match.params["id"] == .string("1234"))
    #expect(try !matches("/p?id=:id(\\d{3,8})", "/p?id=12"))
  }

  @Test func itsEndIsFoundByBalancingParentheses() throws {
    let pattern = try RoutePattern("/:x((ab|cd)[)(]\\))/y?k=:q(a?&b)#:f(c?)")
    #expect(pattern.segments.count == 2)
    #expect(pattern.segments[0].kind == .regex(try RouteRegex("(ab|cd)[)(]\\)")))
    #expect(
      pattern.constraints == [
        QueryConstraint(key: "k", value: .regex(try RouteRegex("a?&b"), name: "q"))
      ])
    #expect(try matches("/:x(https?)", "/http"))
    #expect(try matches("/q?k=:x(a&b)", "/q?k=a%26b"))
  }

  @Test(arguments: [
    ("/:x(a/b)", 6, "'/' must be escaped in a regular expression"),
    ("/:x(a#b)", 6, "'#' must be escaped in a regular expression"),
    ("/:x(ab", 4, "unclosed '(' of a regular expression"),
  ])
  func unescapedSeparatorsAreRefused(text: String, column: Int, message: String) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.message == message)
    #expect(error.column == column)
  }

  @Test func aRegexThatDoesNotCompileNamesTheColumnWhereItStarts() throws {
    let error = try #require(patternRefusal("/ab/:x(*a)"))
    #expect(error.message == "'*' has nothing to repeat in regular expression")
    #expect(error.column == 8)
    // In a table, with the entry.
    #expect(throws: RouteTableError.self) {
      try RouteTable(
        json: #"{"routes":[{"pattern":"/a","screen":"a"},{"pattern":"/:x(*a)","screen":"b"}]}"#)
    }
    do {
      _ = try RouteTable(
        json: #"{"routes":[{"pattern":"/a","screen":"a"},{"pattern":"/:x(*a)","screen":"b"}]}"#)
    } catch {
      #expect(error.description.hasPrefix("routes[1].pattern: '*' has nothing to repeat"))
      #expect(error.description.contains("(column 5 of \"/:x(*a)\")"))
    }
  }

  @Test(arguments: [
    "a*b*", "[a-z]{2}(-[A-Z]{2})?", "\\d{3,8}", "(?i)user", "(ab|cd)[0-9]+", "a{3}",
  ])
  func boundedRegexesAreAccepted(regex: String) {
    #expect(patternRefusal("/r/:x(\(regex))") == nil, "\(regex)")
  }

  /// A pattern that a backtracking engine would take exponential time on, on a 64 KiB URL and
  /// on long values: answered, with no length above which a value is not tried.
  @Test func aPathologicalPatternCannotHangALookup() throws {
    let routes = try routes([R("/r/:x(a*a*(b|c|d|e|f))"), R("/q?k=:x(a*a*(b|c|d|e|f))")])
    let router = try Router(routes)
    let long = "/r/" + String(repeating: "a", count: RouteURL.maxBytes - 3)
    #expect(long.utf8.count == 64 * 1024)
    #expect(router.match(try RouteURL(long)) == nil)
    let query = "/q?k=" + String(repeating: "a", count: RouteURL.maxBytes - 5)
    #expect(router.match(try RouteURL(query)) == nil)
    let longest = "/r/" + String(repeating: "a", count: RouteURL.maxBytes - 4) + "b"
    #expect(router.match(try RouteURL(longest))?.route == 0)
  }

  @Test func staysCaseSensitiveInACaseInsensitiveRouteUnlessItSaysSo() throws {
    #expect(try !matches("/Lang/:x(abc)", "/lang/ABC", caseSensitive: false))
    #expect(try matches("/Lang/:x(abc)", "/lang/abc", caseSensitive: false))
    #expect(try matches("/Lang/:x((?i)abc)", "/lang/ABC", caseSensitive: false))
  }
}

@Suite struct CaseInsensitiveTests {
  @Test func literalsValueSetsAndLiteralQueryValuesIgnoreCase() throws {
    let list = [R("ff://Settings/<Day|Week:p>/:x?mode=Dark", caseSensitive: false)]
    let match = try #require(try best(list, "FF://SETTINGS/day/AbC?mode=dARK"))
    // Captured values keep the URL's case.
    #expect(match.params["p"] == .string("day"))
    #expect(match.params["x"] == .string("AbC"))
    // Query keys stay case-sensitive.
    #expect(try winner(list, "ff://settings/day/x?MODE=dark") == nil)
    // The same pattern, case-sensitive, takes only its own case.
    #expect(
      try winner([R("ff://Settings/<Day|Week:p>/:x?mode=Dark")], "ff://settings/Day/x?mode=Dark")
        == nil)
  }

  @Test func comparesTheUnicodeLowercaseOfBothSides() throws {
    #expect(try matches("/ÉTÉ", "/%C3%A9t%C3%A9", caseSensitive: false))
    #expect(try matches("/été", "/ÉTÉ", caseSensitive: false))
    #expect(try !matches("/été", "/ete", caseSensitive: false))
  }

  @Test func coversTheFragment() throws {
    #expect(try matches("/a#Tab/Main", "/a#tab/MAIN", caseSensitive: false))
    #expect(try matches("/a#k=V", "/a#k=v", caseSensitive: false))
    #expect(try !matches("/a#K=v", "/a#k=v", caseSensitive: false))
  }

  @Test func rankAsLiterals() throws {
    // A case-insensitive literal beats a value set and a string; the listed-first rule is not
    // what decides.
    let list = [R("/:x"), R("/<about|help:x>"), R("/About", caseSensitive: false)]
    #expect(try winner(list, "/about") == 2)
  }

  @Test func caseSensitiveMustBeABoolean() {
    #expect(throws: RouteTableError("routes[0].caseSensitive: must be true or false")) {
      try RouteTable(json: #"{"routes":[{"pattern":"/a","screen":"a","caseSensitive":"no"}]}"#)
    }
    #expect(throws: Never.self) {
      try RouteTable(json: #"{"routes":[{"pattern":"/a","screen":"a","caseSensitive":false}]}"#)
    }
  }
}

@Suite struct AbsentKeyTests {
  @Test func theKeyMustNotAppearAtAll() throws {
    #expect(try matches("ks://projects/:p?!token", "ks://projects/1"))
    #expect(try !matches("ks://projects/:p?!token", "ks://projects/1?token=2"))
    #expect(try !matches("ks://projects/:p?!token", "ks://projects/1?token"))
    #expect(try !matches("ks://projects/:p?!token", "ks://projects/1?a=1&token="))
    let match = try #require(try best([R("/p?id=:id&!preview")], "/p?id=3&other=1"))
    #expect(match.params == ["id": .string("3"), "other": .string("1")])
  }

  @Test func countsForRuleFive() throws {
    #expect(try winner([R("/a"), R("/a?!x")], "/a") == 1)
    #expect(try winner([R("/a?!x"), R("/a")], "/a") == 0)
  }

  @Test func withAnEqualsSignItIsAKey() throws {
    let pattern = try RoutePattern("/a?!k=v")
    #expect(pattern.constraints == [QueryConstraint(key: "!k", value: .literal("v"))])
    #expect(try matches("/a?!k=v", "/a?!k=v"))
  }
}

@Suite struct FragmentTests {
  @Test func pathLikeAndQueryLike() throws {
    let signal = try #require(
      try best([R("https://signal.me/#p/:phone")], "https://signal.me/#p/+1234567890"))
    #expect(signal.params["phone"] == .string("+1234567890"))
    let stickers = try #require(
      try best(
        [R("sgnl://addstickers#pack_id=:id&pack_key=:key")],
        "sgnl://addstickers#pack_key=k+1&pack_id=%41"))
    #expect(stickers.params == ["id": .string("A"), "key": .string("k 1")])
    // The URL's query is not the fragment's.
    #expect(try !matches("sgnl://addstickers#pack_id=:id", "sgnl://addstickers?pack_id=1"))
  }

  @Test func aURLWithoutAFragmentNeverMatches() throws {
    #expect(try !matches("/e#", "/e"))
    #expect(try matches("/e#", "/e#"))
    #expect(try matches("/e#", "/e#/"))
    #expect(try !matches("/e#", "/e#x"))
    #expect(try !matches("/e#:x", "/e"))
  }

  @Test func fragmentSegmentsAreNotDotResolved() throws {
    let match = try #require(try best([R("/a#:x/../:y")], "/a#b/../c"))
    #expect(match.params == ["x": .string("b"), "y": .string("c")])
    #expect(try !matches("/a#:y", "/a#b/../c"))
  }

  @Test func aWildcardInTheFragment() throws {
    let match = try #require(try best([R("/m#/market/*")], "/m#/market/apps/1"))
    #expect(match.params["*"] == .strings(["apps", "1"]))
    #expect(try matches("/m#/market/*", "/m#market"))
  }

  @Test func aBadEscapeInTheFragmentMattersOnlyToATableWithFragmentPatterns() throws {
    let plain = try Router(try routes([R("/a")]))
    #expect(!plain.readsFragment)
    #expect(Array("/a#%zz".utf8).withUnsafeBufferPointer { plain.match(bytes: $0) }?.route == 0)
    let withFragments = try Router(try routes([R("/a"), R("/b#x")]))
    #expect(withFragments.readsFragment)
    #expect(throws: URLReadError("invalid percent escape in fragment")) {
      try Array("/a#%zz".utf8).withUnsafeBufferPointer { try withFragments.match(reading: $0) }
    }
    let table = try RouteTable(
      json: #"{"routes":[{"pattern":"/a","screen":"a"},{"pattern":"/b#x","screen":"b"}]}"#)
    guard case .invalid(let why) = table.resolve("/a#%zz").outcome else {
      Issue.record("a bad escape in the fragment must make the URL invalid")
      return
    }
    #expect(why == "invalid percent escape in fragment")
  }

  @Test func matchingTheFragmentRanksFirstAsRuleThreeA() throws {
    // Rule 3a comes before specificity and query constraints.
    let list = [R("/a/b?k=1"), R("/a/:x#")]
    #expect(try winner(list, "/a/b?k=1#") == 1)
    #expect(try winner(list, "/a/b?k=1") == 0)
    // After the domain: a domain still wins over a fragment.
    #expect(try winner([R("https://*/x#"), R("https://a.com/*")], "https://a.com/x#") == 1)
  }

  @Test func fragmentSegmentsRankAfterThePath() throws {
    let list = [R("/a#:x"), R("/a#b")]
    #expect(try winner(list, "/a#b") == 1)
    #expect(try winner([R("/:p#b"), R("/a#:x")], "/a#b") == 1)
  }

  @Test func fragmentConstraintsDoNotCountForRuleFive() throws {
    #expect(try winner([R("/a#k=:v"), R("/a#k=:v&j=:w")], "/a#k=1&j=2") == 0)
  }

  @Test func namesAreUniqueAcrossPathQueryAndFragment() {
    #expect(patternRefusal("/:x#:x") != nil)
    #expect(patternRefusal("/a?k=:x#k=:x") != nil)
    #expect(patternRefusal("/a?k=:x#k=:y") == nil)
  }

  @Test func aFragmentCannotHaveOptionalGroups() throws {
    let error = try #require(patternRefusal("/a#b(/c)"))
    #expect(error.message == "a fragment cannot have optional groups")
  }
}

@Suite struct DomainTests {
  @Test func aStarDomainTakesAnyHostUnderIt() throws {
    let pattern = "https://*.wikipedia.org/wiki/:title"
    #expect(try matches(pattern, "https://en.wikipedia.org/wiki/Swift"))
    #expect(try matches(pattern, "https://EN.m.Wikipedia.org/wiki/Swift"))
    #expect(try !matches(pattern, "https://wikipedia.org/wiki/Swift"))
    #expect(try !matches(pattern, "https://.wikipedia.org/wiki/Swift"))
    #expect(try !matches(pattern, "https://xwikipedia.org/wiki/Swift"))
    #expect(try !matches(pattern, "https://en.wikipedia.com/wiki/Swift"))
  }

  @Test func starDotOnlyStartsADomain() throws {
    #expect(patternRefusal("https://a.*.b.com/x")?.message == "'*.' may only start a domain")
    #expect(patternRefusal("https://*./x")?.message == "'*.' must be followed by a domain")
    // Another `*` is a literal character.
    #expect(try RoutePattern("https://a*b.com/x").domain == "a*b.com")
    #expect(try matches("https://a*b.com/x", "https://A*B.com/x"))
  }

  @Test func exactThenLongerSuffixThenNone() throws {
    let list = [
      R("https://x/:a"), R("https://*.com/x/:a"), R("https://*.b.com/x/:a"),
      R("https://a.b.com/x/:a"),
    ]
    #expect(try winner(list, "https://a.b.com/x/1") == 3)
    #expect(try winner(list, "https://c.b.com/x/1") == 2)
    #expect(try winner(list, "https://c.d.com/x/1") == 1)
    #expect(try winner(list, "https://x/1") == 0)
  }

  @Test func aDomainWithoutAScheme() throws {
    let pattern = try RoutePattern("//shop.example.com/items/:id")
    #expect(pattern.scheme == nil)
    #expect(pattern.domain == "shop.example.com")
    #expect(try matches("//shop.example.com/items/:id", "myapp://shop.example.com/items/1"))
    #expect(try matches("//shop.example.com/items/:id", "https://SHOP.example.com/items/1"))
    #expect(try !matches("//shop.example.com/items/:id", "https://example.com/items/1"))
    // A URL without a scheme is a path only: it has no domain.
    #expect(try !matches("//shop.example.com/items/:id", "//shop.example.com/items/1"))
    // For rule 2 it is global: a route naming the scheme wins.
    #expect(
      try winner(
        [R("//shop.example.com/items/:id"), R("https://*/:a/:b")],
        "https://shop.example.com/items/1") == 1)
  }
}

@Suite struct InnerWildcardTests {
  @Test func takesTheSegmentsBetweenThoseBeforeAndAfter() throws {
    let match = try #require(try best([R("/stats/*/:period/:site")], "/stats/a/b/day/example.com"))
    #expect(
      match.params == [
        "*": .strings(["a", "b"]), "period": .string("day"), "site": .string("example.com"),
      ])
    let none = try #require(try best([R("/stats/*/:period/:site")], "/stats/day/example.com"))
    #expect(none.params["*"] == .strings([]))
    #expect(try !matches("/stats/*/:period/:site", "/stats/day"))
  }

  @Test func aPathCaptureTakesAtLeastOne() throws {
    let match = try #require(try best([R("/a/<path:p>/b")], "/a/x/y/b"))
    #expect(match.params["p"] == .string("x/y"))
    #expect(try !matches("/a/<path:p>/b", "/a/b"))
  }

  @Test func anInnerStarThatTookNothingTiesAndTheTableOrderDecides() throws {
    #expect(try winner([R("/a/*/b"), R("/a/b")], "/a/b") == 0)
    #expect(try winner([R("/a/b"), R("/a/*/b")], "/a/b") == 0)
    // A trailing `*` that took nothing still loses.
    #expect(try winner([R("/a/b/*"), R("/a/b")], "/a/b") == 1)
  }

  @Test func ranksByEachURLSegment() throws {
    // At segment 2 the inner `*` (which took `x`) is less specific than `:y`.
    #expect(try winner([R("/a/*/c"), R("/a/:y/*")], "/a/x/c") == 1)
    // At segment 2 the literal `c` after the inner `*` (which took nothing) beats the
    // trailing `*`.
    #expect(try winner([R("/a/*"), R("/a/*/c")], "/a/c") == 1)
    #expect(try winner([R("/a/*/c"), R("/a/x/*")], "/a/x/c") == 1)
  }

  @Test func oneWildcardAndNoOptionalGroups() {
    #expect(
      patternRefusal("/a/*/b/*")?.message == "only one '*' or path capture may stand in a pattern")
    #expect(patternRefusal("/a/*/b(/c)") != nil)
  }
}

@Suite struct NewKindsRankingTests {
  /// literal > values > int > float > uuid > regex > string > path > *, as the kind order.
  @Test func kindsAreInTheDocumentedOrder() {
    #expect(
      MatchKind.allCases == [
        .literal, .values, .int, .float, .uuid, .regex, .string, .path, .rest,
      ])
    #expect(MatchKind(.oneOf(["a", "b"])) == .values)
    #expect(MatchKind(.regex(try! RouteRegex("a"))) == .regex)
  }

  /// Each pair of neighbouring kinds, on a URL both take: the more specific wins, whichever is
  /// listed first. (No segment is both a float and a uuid: that pair is compared as ranks.)
  @Test(arguments: [
    ("/1", "/<1|2:x>", "/1"), ("/<1|2:x>", "/<int:x>", "/1"), ("/<int:x>", "/<float:x>", "/1"),
    ("/<uuid:x>", "/:x([0-9a-fA-F-]+)", "/123e4567-e89b-12d3-a456-426614174000"),
    ("/:x(a.*)", "/:x", "/abc"), ("/:x", "/<path:p>", "/abc"), ("/<path:p>", "/*", "/abc"),
    ("/Abc", "/<abc|d:x>", "/abc"),
  ])
  func theMoreSpecificOfTwoNeighboursWins(specific: String, general: String, url: String) throws {
    let caseInsensitive = specific == "/Abc"
    let first = R(specific, caseSensitive: !caseInsensitive)
    #expect(try winner([first, R(general)], url) == 0)
    #expect(try winner([R(general), first], url) == 1)
  }

  @Test func floatBeforeUUID() throws {
    let float = RouteRank(try RoutePattern("/<float:x>"), priority: 0, route: 1, expansion: 0)
    let uuid = RouteRank(try RoutePattern("/<uuid:x>"), priority: 0, route: 0, expansion: 0)
    #expect(float.decidingRule(against: uuid)! == (.specificity, true))
  }
}

@Suite struct NewKindsConflictTests {
  @Test(arguments: [
    ["/<a|b:x>", "/<b|a|a:y>"],
    ["/:x([a-z]+)", "/:y([a-z]+)"],
    ["/q?k=<a|b:x>", "/q?k=<b|a:y>"],
    ["/q?!k", "/q?!k"],
    ["/a#:x", "/a#:y"],
    ["/a#k=:x", "/a#k=:y"],
    ["https://*.a.com/x", "https://*.A.com/x"],
    ["/a/*/b", "/a/*/b"],
    ["/a/<path:p>/:x", "/a/<path:q>/:y"],
    ["//a.com/x", "//A.com/x"],
  ])
  func refused(pair: [String]) throws {
    let found = try conflict(pair.map { R($0) })
    #expect(found == RouteConflict(route: 1, other: 0))
  }

  @Test func caseInsensitiveLiteralsConflictOnlyWhenBothIgnoreCase() throws {
    #expect(
      try conflict([R("/About", caseSensitive: false), R("/aBOUT", caseSensitive: false)]) != nil)
    #expect(
      try conflict([R("/<A|b:x>", caseSensitive: false), R("/<a|B:y>", caseSensitive: false)])
        != nil)
    #expect(
      try conflict([R("/q?k=A", caseSensitive: false), R("/q?k=a", caseSensitive: false)]) != nil)
    #expect(try conflict([R("/about", caseSensitive: false), R("/about")]) == nil)
    #expect(try conflict([R("/<a|b:x>", caseSensitive: false), R("/<a|b:y>")]) == nil)
    #expect(
      try conflict([R("/q?K=a", caseSensitive: false), R("/q?k=a", caseSensitive: false)]) == nil)
  }

  @Test(arguments: [
    ["/<a|b:x>", "/<a|c:x>"],
    ["/:x([a-z]+)", "/:x([a-z]{1,})"],
    ["/q?!k", "/q?!j"],
    ["/q?!k", "/q?k=:v"],
    ["/a#x", "/a#y"],
    ["/a", "/a#"],
    ["/a#:x", "/a#k=:x"],
    ["https://*.a.com/x", "https://*.b.a.com/x"],
    ["https://*.a.com/x", "https://b.a.com/x"],
    ["/a/*/b", "/a/*/c"],
    ["/a/*/b", "/a/<path:p>/b"],
    ["/a/*/b", "/a/b/*"],
    ["//a.com/x", "https://a.com/x"],
  ])
  func nearConflictsAreAccepted(pair: [String]) throws {
    #expect(try conflict(pair.map { R($0) }) == nil)
  }
}
