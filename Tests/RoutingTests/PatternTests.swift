import Testing

@testable import Routing

/// Compiles `text`, or returns the error it is refused with.
func patternRefusal(_ text: String) -> PatternError? {
  do {
    _ = try RoutePattern(text)
    return nil
  } catch {
    return error
  }
}

/// The kinds of the required segments of `text`.
private func kinds(_ text: String) throws -> [SegmentKind] {
  try RoutePattern(text).segments.map(\.kind)
}

/// `n` optional groups `(/g0)(/g1)...` after `/a`.
private func groups(_ count: Int) -> String {
  "/a" + (0..<count).map { "(/g\($0))" }.joined()
}

/// docs/routing.md: the pattern grammar.
@Suite struct PatternTests {
  // MARK: Constructs

  @Test func literalsAndCaptures() throws {
    let pattern = try RoutePattern(
      "/a/:s/<t>/<string:u>/<int:i>/<float:f>/<uuid:d>/<path:p>")
    #expect(pattern.scheme == nil)
    #expect(pattern.domain == nil)
    #expect(
      pattern.segments == [
        PatternSegment(kind: .literal("a")),
        PatternSegment(kind: .capture(.string), name: "s"),
        PatternSegment(kind: .capture(.string), name: "t"),
        PatternSegment(kind: .capture(.string), name: "u"),
        PatternSegment(kind: .capture(.int), name: "i"),
        PatternSegment(kind: .capture(.float), name: "f"),
        PatternSegment(kind: .capture(.uuid), name: "d"),
        PatternSegment(kind: .path, name: "p"),
      ])
    #expect(pattern.groups.isEmpty)
    #expect(pattern.constraints.isEmpty)
    #expect(pattern.text == "/a/:s/<t>/<string:u>/<int:i>/<float:f>/<uuid:d>/<path:p>")
  }

  @Test func restIsCapturedUnderStar() throws {
    let pattern = try RoutePattern("/files/*")
    #expect(
      pattern.segments == [PatternSegment(kind: .literal("files")), .init(kind: .rest, name: "*")])
  }

  @Test(arguments: [
    ("/:_", "_"), ("/:a1", "a1"), ("/:_9z", "_9z"), ("/<Z_z>", "Z_z"),
    ("/<int:x_1>", "x_1"), ("/:ABC", "ABC"),
  ])
  func validNames(text: String, name: String) throws {
    #expect(try RoutePattern(text).segments.first?.name == name)
  }

  @Test func schemeIsLowercasedAndPatternIsGlobalWithoutOne() throws {
    #expect(try RoutePattern("MyApp://user/:id").scheme == "myapp")
    #expect(try RoutePattern("a1+b-c.d://x").scheme == "a1+b-c.d")
    #expect(try RoutePattern("/user/:id").scheme == nil)
    #expect(try RoutePattern("user/:id").scheme == nil)
    #expect(try kinds("myapp://user/:id") == [.literal("user"), .capture(.string)])
  }

  @Test func leadingSlashIsOptionalAndEmptySegmentsAreDropped() throws {
    let expected: [SegmentKind] = [.literal("a"), .literal("b")]
    #expect(try kinds("a/b") == expected)
    #expect(try kinds("/a/b") == expected)
    #expect(try kinds("//a//b//") == expected)
    #expect(try kinds("myapp:///a/b") == expected)
    #expect(try kinds("").isEmpty)
    #expect(try kinds("/").isEmpty)
    #expect(try kinds("myapp://").isEmpty)
  }

  @Test func optionalGroups() throws {
    let pattern = try RoutePattern("/required/:r(/optional/:o)(/more/<int:m>)")
    #expect(
      pattern.segments == [
        .init(kind: .literal("required")), .init(kind: .capture(.string), name: "r"),
      ])
    #expect(
      pattern.groups == [
        [.init(kind: .literal("optional")), .init(kind: .capture(.string), name: "o")],
        [.init(kind: .literal("more")), .init(kind: .capture(.int), name: "m")],
      ])
    #expect(pattern.expansions.count == 4)
    #expect(Set(pattern.expansions.map { $0.map(\.kind) }).count == 4)
  }

  @Test func optionalGroupMayEndInRestOrPath() throws {
    #expect(try RoutePattern("/a(/*)").groups == [[.init(kind: .rest, name: "*")]])
    #expect(try RoutePattern("/a(/b)(/<path:p>)").groups.last == [.init(kind: .path, name: "p")])
    #expect(try RoutePattern("/a(/b/)").groups == [[.init(kind: .literal("b"))]])
    #expect(try RoutePattern("/a(/b)/").groups.count == 1)
  }

  @Test func queryConstraints() throws {
    let pattern = try RoutePattern(
      "navigateApp://action?navigationKey=orderdetail&orderid=:orderid&n=<int:n>&f=<float:f>"
        + "&u=<uuid:u>&s=<string:s>&t=<t>")
    #expect(pattern.scheme == "navigateapp")
    #expect(pattern.segments == [.init(kind: .literal("action"))])
    #expect(
      pattern.constraints == [
        QueryConstraint(key: "navigationKey", value: .literal("orderdetail")),
        QueryConstraint(key: "orderid", value: .capture(.string, name: "orderid")),
        QueryConstraint(key: "n", value: .capture(.int, name: "n")),
        QueryConstraint(key: "f", value: .capture(.float, name: "f")),
        QueryConstraint(key: "u", value: .capture(.uuid, name: "u")),
        QueryConstraint(key: "s", value: .capture(.string, name: "s")),
        QueryConstraint(key: "t", value: .capture(.string, name: "t")),
      ])
  }

  @Test func queryKeysAreNotNames() throws {
    let pattern = try RoutePattern("/x/:id?id=:other")
    #expect(
      pattern.constraints == [QueryConstraint(key: "id", value: .capture(.string, name: "other"))])
    #expect(try RoutePattern("/x?1-key.x=v").constraints.first?.key == "1-key.x")
  }

  // MARK: Literal decoding

  @Test(arguments: [
    ("/caf%C3%A9", "café"),
    ("/a%2Fb", "a/b"),
    ("/a+b", "a+b"),
    ("/a%20b", "a b"),
    ("/%3Cb%3E", "<b>"),
    ("/%28x%29", "(x)"),
    ("/%2A", "*"),
    ("/a*", "a*"),
    ("/%3Ax", ":x"),
    ("/a:b", "a:b"),
    ("/...", "..."),
    ("/.a", ".a"),
    ("/个人中心", "个人中心"),
  ])
  func pathLiteralsAreDecoded(text: String, literal: String) throws {
    #expect(try kinds(text) == [.literal(literal)])
  }

  @Test(arguments: [
    ("/x?k=a+b", "k", "a b"),
    ("/x?k=a%2Bb", "k", "a+b"),
    ("/x?k=%26%3D", "k", "&="),
    ("/x?a+b=v", "a b", "v"),
    ("/x?k%3D=v", "k=", "v"),
    ("/x?k=caf%C3%A9", "k", "café"),
    ("/x?k=a:b", "k", "a:b"),
  ])
  func queryLiteralsAreDecoded(text: String, key: String, value: String) throws {
    #expect(
      try RoutePattern(text).constraints == [QueryConstraint(key: key, value: .literal(value))])
  }

  // MARK: Domain

  @Test func domainIsDetectedAfterAScheme() throws {
    let pattern = try RoutePattern("https://example.com/items/:id")
    #expect(pattern.scheme == "https")
    #expect(pattern.domain == "example.com")
    #expect(
      pattern.segments == [
        .init(kind: .literal("items")), .init(kind: .capture(.string), name: "id"),
      ])
    #expect(try RoutePattern("myapp://localhost/x").domain == "localhost")
    #expect(try RoutePattern("myapp://LocalHost/x").domain == "localhost")
    #expect(try RoutePattern("https://Example.COM").domain == "example.com")
    #expect(try RoutePattern("https://Example.COM").segments.isEmpty)
  }

  @Test(arguments: [
    "/example.com/items/:id", "example.com/items", "localhost/x", "/localhost/x",
    "myapp://user/example.com", "myapp://user/:id", "myapp://:host/x",
  ])
  func noDomainWithoutASchemeOrADottedFirstLiteral(text: String) throws {
    let pattern = try RoutePattern(text)
    #expect(pattern.domain == nil)
  }

  @Test func noDomainWithoutSchemeKeepsTheSegment() throws {
    #expect(try kinds("/example.com/x") == [.literal("example.com"), .literal("x")])
    #expect(try kinds("localhost/x") == [.literal("localhost"), .literal("x")])
  }

  @Test func domainIsRequiredCaseInsensitively() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("https://Example.COM/items/:id"))])
    #expect(router.match(try RouteURL("https://example.com/items/1")) != nil)
    #expect(router.match(try RouteURL("https://EXAMPLE.com/items/1")) != nil)
    #expect(router.match(try RouteURL("https://other.com/items/1")) == nil)
    #expect(router.match(try RouteURL("https://items/1")) == nil)
    #expect(router.match(try RouteURL("http://example.com/items/1")) == nil)
  }

  @Test func localhostDomainInAnyCase() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("myapp://localhost/x"))])
    #expect(router.match(try RouteURL("myapp://LOCALHOST/x")) != nil)
    #expect(router.match(try RouteURL("myapp://localhost:8080/x")) != nil)
    #expect(router.match(try RouteURL("myapp://x")) == nil)
  }

  // MARK: Grammar errors

  @Test(arguments: [
    ("/:1a", 3), ("/:", 3), ("/:a-b", 3), ("/:a.b", 3), ("/:é", 3), ("/<>", 3), ("/<1>", 3),
    ("/<int:>", 7), ("/<int:9x>", 7), ("/a/:b c", 5), ("/x?k=:", 7), ("/x?k=:1", 7),
    ("/x?k=<int:->", 11), ("/:a/b/:-", 8),
  ])
  func badNamesAreRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(!error.message.isEmpty)
    #expect(error.column == column)
  }

  @Test(arguments: [
    ("/:a/:a", 6), ("/:a/<a>", 6), ("/:a/<int:a>", 10), ("/:id?x=:id", 9),
    ("/x?a=:n&b=<int:n>", 16), ("/:a(/:a)", 7), ("/(/:a)(/:a)", 10),
  ])
  func duplicateNamesAreRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(!error.message.isEmpty)
    #expect(error.column == column)
  }

  @Test(arguments: [("/x?a=1&a=2", 8), ("/x?a=:x&a=:y", 9), ("/x?k=1&j=2&k=<int:n>", 12)])
  func duplicateQueryKeysAreRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == column)
  }

  @Test func queryKeysCompareAfterDecoding() throws {
    #expect(patternRefusal("/x?a=1&%61=2") != nil)
    #expect(patternRefusal("/x?a=1&A=2") == nil)
  }

  /// One wildcard per pattern, anywhere in the path; the second is refused where it stands.
  @Test(arguments: [
    ("/*/*", 4), ("/a/*/<path:p>", 6), ("/个/*/*", 6), ("/*#*", 4), ("/<path:p>#a/*", 13),
  ])
  func onlyOneWildcardPerPattern(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.message == "only one '*' or path capture may stand in a pattern")
    #expect(error.column == column)
  }

  @Test func aWildcardBeforeOptionalGroupsIsRefused() throws {
    let error = try #require(patternRefusal("/a/*(/b)"))
    #expect(
      error.message == "a pattern with a wildcard before its optional groups cannot have them")
    #expect(error.column == 4)
  }

  @Test(arguments: [
    "/<path:p>/<path:q>", "/<path:p>/*", "/a/<path:p>(/b)", "/a(/<path:p>/b)",
    "/a(/<path:p>)(/b)", "/a(/*)(/b)", "/a(/*/b)", "/a(/*/*)",
  ])
  func pathOrStarNotLastIsRefused(text: String) throws {
    let error = try #require(patternRefusal(text))
    #expect(!error.message.isEmpty)
    #expect(error.column >= 1)
  }

  @Test(arguments: [("/a(b)", 3), ("/a()", 3), ("/a(b/c)", 3), ("/a/(:x)", 4)])
  func groupMustStartWithSlash(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == column)
  }

  @Test(arguments: [
    ("/a(/b(/c))", 6), ("/a(/b", 3), ("/a(", 3), ("/a/b)", 5), ("/a(/b))", 7), (")", 1),
    ("/a(/b)(", 7), ("/a(/)", 3), ("/a(/b?k=1)", 3), ("((((", 1),
  ])
  func unbalancedParensAreRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(!error.message.isEmpty)
    #expect(error.column == column)
  }

  @Test func deepNestingIsRefusedWithoutCrashing() throws {
    let deep = "/a" + String(repeating: "(", count: 100_000)
    #expect(patternRefusal(deep) != nil)
    let deepClosed =
      "/a" + String(repeating: "(/", count: 10_000) + "b"
      + String(repeating: ")", count: 10_000)
    #expect(patternRefusal(deepClosed) != nil)
    #expect(patternRefusal(String(repeating: ")", count: 10_000)) != nil)
  }

  @Test(arguments: [("/a(/b)/c", 8), ("/a(/b)(/c)/d", 12), ("/(/b)c", 6)])
  func segmentAfterAGroupIsRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == column)
  }

  @Test(arguments: [
    ("/a/.", 4), ("/a/..", 4), ("/./a", 2), ("/../a", 2), ("/a/%2E", 4), ("/a/%2e%2E", 4),
    ("/a/.%2E", 4), ("/a(/..)", 5), ("myapp://x/..", 11),
  ])
  func dotSegmentsAreRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == column)
  }

  @Test(arguments: [
    ("/a<b", 3), ("/a>b", 3), ("/>", 2), ("/ab>", 4), ("/<a>b", 2), ("/<a", 2), ("/<a<b>", 4),
    ("/x?k=a<b", 7), ("/x?k>=1", 5), ("/x?k=<a", 6),
  ])
  func angleBracketsInsideLiteralsAreRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == column)
  }

  @Test(arguments: [
    ("/<foo:x>", 3), ("/<:x>", 3), ("/<number:x>", 3), ("/a/<bool:b>", 5),
    ("/x?k=<list:x>", 7),
  ])
  func unknownTypesAreRefused(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == column)
  }

  @Test func pathIsRefusedInAQuery() throws {
    let error = try #require(patternRefusal("/x?k=<path:p>"))
    #expect(error.column == 6)
  }

  /// `#` starts a fragment pattern; what comes before it still follows the grammar.
  @Test(arguments: [("/x?k=#", 6), ("/x?k=#a", 6), ("/a(#b", 3)])
  func beforeTheHashIsStillChecked(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == column)
  }

  @Test(arguments: [
    "/x?k=", "/x?=v", "/x?k", "/x?", "/x?k=1&", "/x?&k=1", "/x?k=1&&j=2", "/x?k=a=b",
    "/x?k=*", "/x?*=1", "/x?:k=1", "/x?k=a/b", "/x?k=a?b", "/x?k=(a)", "/x?k=%zz",
    "/x?k=%FF",
  ])
  func badQueryConstraintsAreRefused(text: String) {
    #expect(patternRefusal(text) != nil)
  }

  @Test(arguments: ["/a%zz", "/a%4", "/a%", "/%FF", "/%C3"])
  func badEscapesInLiteralsAreRefused(text: String) throws {
    let error = try #require(patternRefusal(text))
    #expect(error.column == 2)
  }

  @Test func eightGroupsAreAllowedNineAreNot() throws {
    let eight = try RoutePattern(groups(8))
    #expect(eight.groups.count == 8)
    #expect(eight.expansions.count == 256)
    #expect(patternRefusal(groups(9)) != nil)
    #expect(patternRefusal(groups(40)) != nil)
  }

  @Test func errorDescriptionNamesColumnAndMessage() throws {
    let error = try #require(patternRefusal("/a/*/*"))
    #expect(error.description.contains(error.message))
    #expect(error.description.contains("column 6"))
  }

  @Test(arguments: ["/a", "/", "", "myapp://", "/a/:b(/c)?k=v", "/x?k=<int:n>&j=v"])
  func validPatternsCompile(text: String) {
    #expect(patternRefusal(text) == nil)
  }
}
