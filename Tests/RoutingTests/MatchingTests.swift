import Testing

@testable import Routing

/// A router over `patterns`, with `priorities[i]` for route `i` (0 when not given).
@Suite struct MatchingTests {
  // MARK: int

  @Test(arguments: [
    ("0", Int64(0)), ("-0", 0), ("42", 42), ("-42", -42), ("007", 7),
    ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
  ])
  func intAccepts(text: String, value: Int64) throws {
    let found = try params(["/n/<int:v>"], "/n/\(text)")
    #expect(found?["v"] == .int(value))
  }

  @Test(arguments: [
    "+5", "9223372036854775808", "-9223372036854775809", "99999999999999999999", "1.0", "1e3",
    "-", "--1", "0x10", "%201", "1%20", "%D9%A3", "5a", "a5", "%EF%BC%95",
  ])
  func intRefuses(text: String) throws {
    #expect(try params(["/n/<int:v>"], "/n/\(text)") == nil)
  }

  @Test func refusedIntFallsToAStringRoute() throws {
    let found = try params(["/n/<int:v>", "/n/:s"], "/n/+5")
    #expect(found == ["s": .string("+5")])
  }

  // MARK: float

  @Test(arguments: [
    ("1", 1.0), ("-2.5", -2.5), ("8.0", 8), (".5", 0.5), ("1e3", 1000), ("+1", 1), ("5.", 5),
    ("-.5", -0.5), ("1E3", 1000), ("1e+3", 1000), ("1e-3", 0.001), ("+.5e1", 5), ("0", 0),
    ("007.50", 7.5), ("1.7976931348623157e308", 1.7976931348623157e308), ("1e-400", 0),
  ])
  func floatAccepts(text: String, value: Double) throws {
    let found = try params(["/w/<float:v>"], "/w/\(text)")
    #expect(found?["v"] == .float(value))
  }

  @Test(arguments: [
    "nan", "NaN", "inf", "-inf", "Infinity", "1e400", "-1e400", "1.8e308", "0x10", "0x1p3",
    "1.2.3", "e5", ".", "-", "+", "1e", "1e+", ".e1", "1,5", "%201", "1%20", "1d", "1f", "++1",
    "1e5.5", "1" + String(repeating: "0", count: 400),
  ])
  func floatRefuses(text: String) throws {
    #expect(try params(["/w/<float:v>"], "/w/\(text)") == nil)
  }

  @Test func floatCaptureIsANumber() throws {
    let found = try params(["ccf://animal/:name/<float:weight>"], "ccf://animal/cat/8.0")
    #expect(found == ["name": .string("cat"), "weight": .float(8)])
    #expect(found?["weight"]?.text == "8")
  }

  // MARK: uuid

  @Test(arguments: [
    "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
    "123e4567-E89b-12D3-a456-426614174000",
  ])
  func uuidAnyCaseIsCapturedUppercase(text: String) throws {
    let found = try params(["/u/<uuid:id>"], "/u/\(text)")
    #expect(found?["id"] == .string("123E4567-E89B-12D3-A456-426614174000"))
  }

  @Test(arguments: [
    "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400",
    "123e4567-e89b-12d3-a456-4266141740000", "123e4567-e89b-12d3a-456-426614174000",
    "g23e4567-e89b-12d3-a456-426614174000", "{123e4567-e89b-12d3-a456-426614174000}",
    "123e4567_e89b_12d3_a456_426614174000", "",
  ])
  func uuidRefuses(text: String) throws {
    #expect(try params(["/u/<uuid:id>"], "/u/\(text)") == nil)
  }

  @Test func stringCaptureIsNotChangedOrTyped() throws {
    let found = try params(["/s/:v"], "/s/0042")
    #expect(found == ["v": .string("0042")])
    let uuid = try params(["/s/<string:v>"], "/s/123e4567-e89b-12d3-a456-426614174000")
    #expect(uuid == ["v": .string("123e4567-e89b-12d3-a456-426614174000")])
  }

  // MARK: <path:> and *

  @Test(arguments: [
    ("/files/a", "a"), ("/files/a/b/c", "a/b/c"), ("/files/a%2Fb/c", "a/b/c"),
    ("/files//a//b/", "a/b"), ("/files/a/../b", "b"), ("/files/a+b/%20", "a+b/ "),
  ])
  func pathCapturesOneOrMoreJoined(url: String, value: String) throws {
    let found = try params(["/files/<path:p>"], url)
    #expect(found == ["p": .string(value)])
  }

  @Test func pathCaptureNeedsASegment() throws {
    #expect(try params(["/files/<path:p>"], "/files") == nil)
    #expect(try params(["/files/<path:p>"], "/files/") == nil)
    #expect(try params(["/files/<path:p>"], "/other/a") == nil)
  }

  @Test func slashAndEscapedSlashGiveTheSamePathCapture() throws {
    let router = try makeRouter(["myapp://files/<path:p>"])
    let escaped = try #require(router.match(try RouteURL("myapp://files/a%2Fb/c")))
    let plain = try #require(router.match(try RouteURL("myapp://files/a/b/c")))
    #expect(escaped.params == plain.params)
  }

  @Test(arguments: [
    ("/files", [String]()), ("/files/", []), ("/files/a", ["a"]),
    ("/files/a/b/c", ["a", "b", "c"]),
    ("/files/a%2Fb/c", ["a/b", "c"]),
  ])
  func starCapturesZeroOrMoreAsAnArray(url: String, value: [String]) throws {
    let found = try params(["/files/*"], url)
    #expect(found == ["*": .strings(value)])
  }

  @Test func starAloneMatchesEverything() throws {
    #expect(try params(["/*"], "/") == ["*": .strings([])])
    #expect(try params(["/*"], "myapp://a/b") == ["*": .strings(["a", "b"])])
    #expect(try params(["myapp://*"], "myapp://") == ["*": .strings([])])
    #expect(try params(["myapp://*"], "other://a") == nil)
  }

  // MARK: Literals and segment counts

  @Test func literalsCompareCaseSensitivelyAfterDecoding() throws {
    let patterns = ["/Caf%C3%A9/a+b"]
    #expect(try params(patterns, "/Café/a+b") == [:])
    #expect(try params(patterns, "/Caf%C3%A9/a%2Bb") == [:])
    #expect(try params(patterns, "/café/a+b") == nil)
    #expect(try params(patterns, "/Café/a%20b") == nil)
    #expect(try params(patterns, "/Café") == nil)
    #expect(try params(patterns, "/Café/a+b/c") == nil)
  }

  @Test func escapedSlashInALiteralMatchesOnlyAnEscapedSlash() throws {
    let patterns = ["/x/a%2Fb"]
    #expect(try params(patterns, "/x/a%2Fb") == [:])
    #expect(try params(patterns, "/x/a%2fb") == [:])
    #expect(try params(patterns, "/x/a/b") == nil)
  }

  // MARK: Optional groups

  @Test(
    arguments: [
      ("/required/x", ["r": .string("x")]),
      ("/required/x/optional/y", ["r": .string("x"), "o": .string("y")]),
      ("/required/x/more/z", ["r": .string("x"), "m": .string("z")]),
      ("/required/x/optional/y/more/z", ["r": .string("x"), "o": .string("y"), "m": .string("z")]),
    ] as [(String, Parameters)])
  func optionalGroupsExpand(url: String, expected: Parameters) throws {
    let found = try params(["/required/:r(/optional/:o)(/more/:m)"], url)
    #expect(found == expected)
  }

  @Test(arguments: [
    "/required", "/required/x/optional", "/required/x/more/z/optional/y",
    "/required/x/optional/y/more", "/required/x/other/y", "/required/x/optional/y/more/z/extra",
  ])
  func optionalGroupsRefuse(url: String) throws {
    #expect(try params(["/required/:r(/optional/:o)(/more/:m)"], url) == nil)
  }

  /// Routes with more than two optional groups are planned when they match, not stored:
  /// their parameters must be the same either way.
  @Test func manyGroupsGiveTheSameParametersAsFew() throws {
    let many = ["/a/:x(/b/:y)(/c/<int:z>)(/d/:w)?q=<int:q>"]
    #expect(
      try params(many, "/a/1/c/3/d/4?q=9")
        == ["x": .string("1"), "z": .int(3), "w": .string("4"), "q": .int(9)])
    #expect(
      try params(many, "/a/1/b/2?q=-5&q2=x")
        == ["x": .string("1"), "y": .string("2"), "q": .int(-5), "q2": .string("x")])
    #expect(try params(many, "/a/1/c/x?q=9") == nil)
    let few = ["/a/:x(/b/:y)?q=<int:q>"]
    #expect(
      try params(few, "/a/1/b/2?q=7") == ["x": .string("1"), "y": .string("2"), "q": .int(7)])
  }

  @Test func typedCaptureInAGroup() throws {
    let patterns = ["myapp://orders/<int:id>(/edit/<int:line>)"]
    #expect(try params(patterns, "myapp://orders/5/edit/2") == ["id": .int(5), "line": .int(2)])
    #expect(try params(patterns, "myapp://orders/5/edit/x") == nil)
  }

  // MARK: Query constraints

  @Test func literalQueryConstraint() throws {
    let patterns = ["navigateApp://action?navigationKey=personalcenter"]
    let found = try params(patterns, "navigateapp://action?navigationKey=personalcenter&x=1")
    #expect(found == ["navigationKey": .string("personalcenter"), "x": .string("1")])
    #expect(try params(patterns, "NAVIGATEAPP://action?navigationKey=personalcenter") != nil)
    #expect(try params(patterns, "navigateApp://action?navigationKey=orderdetail") == nil)
    #expect(try params(patterns, "navigateApp://action?navigationKey=PersonalCenter") == nil)
    #expect(try params(patterns, "navigateApp://action?navigationkey=personalcenter") == nil)
    #expect(try params(patterns, "navigateApp://action") == nil)
    #expect(try params(patterns, "navigateApp://action?navigationKey") == nil)
  }

  @Test func literalQueryValueComparesDecoded() throws {
    let patterns = ["/x?k=a%20b&j=1%2B1"]
    #expect(try params(patterns, "/x?k=a+b&j=1%2B1") != nil)
    #expect(try params(patterns, "/x?j=1%2b1&k=a%20b") != nil)
    #expect(try params(patterns, "/x?k=a+b&j=1+1") == nil)
  }

  @Test func constrainedKeyMustAppearExactlyOnce() throws {
    #expect(try params(["/x?k=1"], "/x?k=1&k=1") == nil)
    #expect(try params(["/x?k=1"], "/x?k=1&k=2") == nil)
    #expect(try params(["/x?k=:v"], "/x?k=1&k=2") == nil)
    #expect(
      try params(["/x?k=:v"], "/x?k=1&K=2") == [
        "k": .string("1"), "K": .string("2"), "v": .string("1"),
      ])
  }

  @Test func typedQueryCapture() throws {
    let patterns = ["XYWAPP://pkdetail/like?id=<int:id>"]
    #expect(try params(patterns, "xywapp://pkdetail/like?id=42") == ["id": .int(42)])
    #expect(try params(patterns, "xywapp://pkdetail/like?id=abc") == nil)
    #expect(try params(patterns, "xywapp://pkdetail/like?id=%2B4") == nil)
    #expect(try params(patterns, "xywapp://pkdetail/like?id=4&id=5") == nil)
    #expect(try params(patterns, "xywapp://pkdetail/like?ID=4") == nil)
    #expect(try params(patterns, "xywapp://pkdetail/like") == nil)
    let uuid = try params(
      ["/x?u=<uuid:u>&f=<float:f>"], "/x?u=123e4567-e89b-12d3-a456-426614174000&f=.5")
    #expect(uuid?["u"] == .string("123E4567-E89B-12D3-A456-426614174000"))
    #expect(uuid?["f"] == .float(0.5))
  }

  @Test func stringQueryCaptureTakesTheValueAsDecoded() throws {
    let patterns = ["navigateApp://action?navigationKey=orderdetail&orderid=:orderid"]
    let found = try params(
      patterns, "navigateApp://action?orderid=a+b%26c&navigationKey=orderdetail")
    #expect(found?["orderid"] == .string("a b&c"))
    #expect(try params(["/x?k=:v"], "/x?k") == ["k": .string(""), "v": .string("")])
  }

  // MARK: Parameters

  @Test func pathCaptureBeatsQueryParameter() throws {
    let found = try params(["/user/view/:userID"], "tests://user/view/joeldev?userID=evil")
    #expect(found == ["userID": .string("joeldev")])
    let repeated = try params(["/user/view/:userID"], "tests://user/view/joeldev?userID=a&userID=b")
    #expect(repeated == ["userID": .string("joeldev")])
  }

  @Test func queryParametersAreKept() throws {
    let found = try params(["/user/view/:userID"], "tests://user/view/joeldev?foo=bar")
    #expect(found == ["userID": .string("joeldev"), "foo": .string("bar")])
  }

  @Test func queryConstraintCaptureBeatsQueryParameter() throws {
    let found = try params(["/x?k=<int:n>"], "/x?k=5&n=evil")
    #expect(found == ["k": .string("5"), "n": .int(5)])
  }

  @Test func starBeatsQueryParameter() throws {
    let found = try params(["/a/*"], "/a/b?*=evil")
    #expect(found == ["*": .strings(["b"])])
  }

  // MARK: Ranking, rule 1: priority

  @Test func priorityBeatsScheme() throws {
    let patterns = ["myapp://a/:x", "/a/:x"]
    #expect(try winner(patterns, "myapp://a/b", priorities: [0, 1]) == 1)
    #expect(try winner(patterns, "myapp://a/b", priorities: [0, 0]) == 0)
  }

  @Test func priorityBeatsDomainSpecificityAndQuery() throws {
    let patterns = ["https://example.com/a/b?k=1", "/*"]
    #expect(try winner(patterns, "https://example.com/a/b?k=1", priorities: [0, 1]) == 1)
    #expect(try winner(patterns, "https://example.com/a/b?k=1", priorities: [-1, -2]) == 0)
  }

  @Test func higherPriorityWinsAmongOtherwiseEqualRoutes() throws {
    #expect(try winner(["/a/:x", "/a/:y"], "/a/b", priorities: [1, 2]) == 1)
    #expect(try winner(["/a/:x", "/a/:y"], "/a/b", priorities: [2, 1]) == 0)
  }

  // MARK: Rule 2: scheme

  @Test func schemeBeatsGlobalEvenWhenLessSpecific() throws {
    let patterns = ["/a/b?k=1", "myapp://a/*"]
    #expect(try winner(patterns, "myapp://a/b?k=1") == 1)
    #expect(try winner(patterns, "other://a/b?k=1") == 0)
  }

  @Test func everySchemeRouteRanksBeforeEveryGlobalRoute() throws {
    let patterns = ["/a/b", "myapp://a/*", "myapp://a/b", "/*"]
    #expect(try ranking(patterns, "myapp://a/b") == [2, 1, 0, 3])
  }

  // MARK: Rule 3: domain

  @Test func domainBeatsSchemeOnlyAndGlobal() throws {
    let patterns = ["/items/<int:id>", "https://items/<int:id>?k=1", "https://example.com/*"]
    #expect(try ranking(patterns, "https://example.com/items/5?k=1") == [2, 1, 0])
    #expect(try ranking(patterns, "https://other.com/items/5?k=1") == [1, 0])
  }

  @Test func domainBeatsSpecificity() throws {
    let patterns = ["https://items/<int:id>", "https://example.com/:a/:b"]
    #expect(try winner(patterns, "https://example.com/items/5") == 1)
    #expect(try winner(patterns, "https://example.org/items/5") == 0)
  }

  // MARK: Rule 4: specificity

  @Test(arguments: [
    (["/a/<int:x>", "/a/5"], "/a/5"),
    (["/a/<float:x>", "/a/<int:x>"], "/a/5"),
    (["/a/:x", "/a/<float:x>"], "/a/5.5"),
    (["/a/:x", "/a/<uuid:x>"], "/a/123e4567-e89b-12d3-a456-426614174000"),
    (
      ["/a/<uuid:x>", "/a/123e4567-e89b-12d3-a456-426614174000"],
      "/a/123e4567-e89b-12d3-a456-426614174000"
    ),
    (["/a/<path:p>", "/a/:x"], "/a/b"),
    (["/a/*", "/a/<path:p>"], "/a/b"),
    (["/a/*", "/a/<path:p>"], "/a/b/c"),
    (["/a/*", "/a"], "/a"),
    (["/*", "/a/*"], "/a"),
    (["/a/<path:p>", "/a/:x/*"], "/a/b/c"),
    (["/a/:x/*", "/a/:x/<path:p>"], "/a/b/c"),
    (["/a/:x/b", "/a/<int:x>/:y"], "/a/5/b"),
    (["/:x/b/c", "/a/*"], "/a/b/c"),
    (["/:x/b/c", "/a/<path:p>"], "/a/b/c"),
    (["/a/:x", "/a/b/*"], "/a/b"),
    (["/a/<float:x>/b", "/a/<int:x>/*"], "/a/1/b"),
    (["myapp://:x/1", "myapp://a/<int:n>"], "myapp://a/1"),
  ])
  func moreSpecificWinsWhicheverIsListedFirst(patterns: [String], url: String) throws {
    #expect(try winner(patterns, url) == 1)
    #expect(try winner(patterns.reversed(), url) == 0)
  }

  @Test func fullSpecificityOrder() throws {
    let numeric = ["/a/*", "/a/<path:p>", "/a/:s", "/a/<float:f>", "/a/<int:i>", "/a/5"]
    #expect(try ranking(numeric, "/a/5") == [5, 4, 3, 2, 1, 0])
    #expect(try ranking(numeric.reversed(), "/a/5") == [0, 1, 2, 3, 4, 5])
    let uuid = "123e4567-e89b-12d3-a456-426614174000"
    let uuidPatterns = ["/a/*", "/a/<path:p>", "/a/:s", "/a/<uuid:u>", "/a/\(uuid)"]
    #expect(try ranking(uuidPatterns, "/a/\(uuid)") == [4, 3, 2, 1, 0])
  }

  @Test func specificityBeatsQueryConstraints() throws {
    let patterns = ["/a/:x?k=1&j=2", "/a/b"]
    #expect(try winner(patterns, "/a/b?k=1&j=2") == 1)
    #expect(try winner(patterns, "/a/c?k=1&j=2") == 0)
  }

  @Test func withoutTrailingStarWinsOnlyWhenNoSegmentDiffers() throws {
    #expect(try ranking(["/a/*", "/a", "/:x"], "/a") == [1, 0, 2])
    #expect(try ranking(["/:x", "/a/*"], "/a") == [1, 0])
  }

  // MARK: Rule 5: query constraints

  @Test func moreQueryConstraintsWin() throws {
    let patterns = ["/a/:x", "/a/:y?k=1", "/a/:z?k=1&j=2"]
    #expect(try ranking(patterns, "/a/b?k=1&j=2") == [2, 1, 0])
    #expect(try ranking(patterns, "/a/b?k=1") == [1, 0])
    #expect(try ranking(patterns, "/a/b") == [0])
  }

  // MARK: Rule 6: order

  @Test func firstListedWins() throws {
    let patterns = ["/a?k=1", "/a?j=1"]
    #expect(try ranking(patterns, "/a?k=1&j=1") == [0, 1])
    #expect(try ranking(patterns.reversed(), "/a?k=1&j=1") == [0, 1])
    #expect(try ranking(["/a/b", "/a/:x?k=1", "/a/:y?j=1"], "/a/b?k=1&j=1") == [0, 1, 2])
    #expect(try ranking(["/a/:y?j=1", "/a/:x?k=1"], "/a/b?k=1&j=1") == [0, 1])
  }

  @Test func matchIsTheFirstOfMatches() throws {
    let router = try makeRouter(["/*", "/a/:x", "myapp://a/b", "/a/b"], priorities: [0, 0, 0, 0])
    let url = try RouteURL("myapp://a/b")
    let all = router.matches(url)
    #expect(all.map(\.route) == [2, 3, 1, 0])
    #expect(router.match(url) == all.first)
  }

  @Test func noMatchGivesNilAndEmpty() throws {
    let router = try makeRouter(["myapp://a", "/b"])
    let url = try RouteURL("other://a")
    #expect(router.match(url) == nil)
    #expect(router.matches(url).isEmpty)
  }

  // MARK: Conflicts

  @Test(arguments: [
    (["/a/:x", "/a/:y"], 1, 0),
    (["/a/:x", "/a/<string:y>"], 1, 0),
    (["/a/<y>", "/a/:x"], 1, 0),
    (["/a/<int:x>", "/a/<int:y>"], 1, 0),
    (["/a/b", "/a/%62"], 1, 0),
    (["myapp://a", "MYAPP://a"], 1, 0),
    (["https://example.com/a", "https://EXAMPLE.COM/a"], 1, 0),
    (["/a?k=:x", "/a?k=:y"], 1, 0),
    (["/a?k=1&j=2", "/a?j=2&k=1"], 1, 0),
    (["/a?k=a+b", "/a?k=a%20b"], 1, 0),
    (["/a/b", "/a(/b)"], 1, 0),
    (["/a(/b)", "/a/b"], 1, 0),
    (["/a(/:b)", "/a/:c"], 1, 0),
    (["/a(/*)", "/a/*"], 1, 0),
    (["/a/:x/*", "/a/:y/*"], 1, 0),
    (["/x(/:a)(/:b)"], 0, 0),
    (["/q", "/x(/<int:a>)(/<int:b>)"], 1, 1),
    (["/a", "/b", "/c", "/b"], 3, 1),
    (["/a", "/b/:x", "/c(/:y)", "/b(/:z)"], 3, 1),
    (["/", "(/a)"], 1, 0),
    (["/a", "/a(/*)"], 1, 0),
  ])
  func conflictsAreRefused(patterns: [String], route: Int, other: Int) throws {
    let found = try #require(try conflict(patterns))
    #expect(found == RouteConflict(route: route, other: other))
  }

  @Test(arguments: [
    ["/a/<int:x>", "/a/<float:x>"],
    ["/a/:x", "/a/<int:x>"],
    ["/a/*", "/a/<path:p>"],
    ["/a/b", "/a/B"],
    ["myapp://a", "other://a"],
    ["myapp://a", "/a"],
    ["https://example.com/a", "https://example.org/a"],
    ["https://example.com/a", "https://a"],
    ["https://example.com/a", "/a"],
    ["/a?k=1", "/a?k=2"],
    ["/a?k=1", "/a"],
    ["/a?k=1", "/a?K=1"],
    ["/a?k=:x", "/a?k=<int:y>"],
    ["/a?k=:x", "/a?k=x"],
    ["/a?k=1", "/a?k=1&j=2"],
    ["/a(/b)(/c)"],
    ["/x(/:a)(/<int:b>)"],
    ["/a", "/a/*"],
  ])
  func distinguishableRoutesAreNotConflicts(patterns: [String]) throws {
    #expect(try conflict(patterns) == nil)
  }

  @Test func differentPriorityIsNotAConflict() throws {
    #expect(try conflict(["/a/:x", "/a/:y"], priorities: [0, 1]) == nil)
    #expect(
      try conflict(["/a/:x", "/a/:y"], priorities: [1, 1]) == RouteConflict(route: 1, other: 0))
  }

  // MARK: formatPositional

  @Test(arguments: formatCases)
  func formatPositionalWritesShortestDigits(value: Double, text: String) {
    #expect(formatPositional(value) == text)
  }

  @Test(arguments: roundTripValues)
  func formatPositionalReadsBack(value: Double) throws {
    let text = formatPositional(value)
    #expect(!text.contains("e") && !text.contains("E"))
    #expect(!text.hasSuffix(".0") && !text.hasPrefix("."))
    #expect(Double(text) == value)
  }
}
