import Testing

@testable import Routing

/// Reads `text` and returns its decoded path segments.
private func readSegments(_ text: String) throws -> [String] {
  try RouteURL(text).segments
}

/// Reads `text` and returns its query as `(key, value)` pairs, in order.
private func readQuery(_ text: String) throws -> [[String]] {
  try RouteURL(text).query.map { [$0.key, $0.value] }
}

/// The message a URL that cannot be read gives, or nil when it reads.
private func readError(_ text: String) -> String? {
  do {
    _ = try RouteURL(text)
    return nil
  } catch {
    return error.description
  }
}

/// The message raw bytes that cannot be read give, or nil when they read.
private func readError(bytes: [UInt8]) -> String? {
  do {
    _ = try RouteURL(bytes: bytes)
    return nil
  } catch {
    return error.description
  }
}

/// docs/routing.md: how a URL is read.
@Suite struct URLReadingTests {
  // MARK: Fragment

  @Test(arguments: [
    ("myapp://user/1#top", ["user", "1"]),
    ("myapp://user/1#%zz", ["user", "1"]),
    ("myapp://user/1#%", ["user", "1"]),
    ("myapp://user/1#a/b/c", ["user", "1"]),
    ("myapp://user#/1", ["user"]),
    ("/a/b#c", ["a", "b"]),
    ("#/a/b", []),
  ])
  func fragmentIsDropped(url: String, expected: [String]) throws {
    #expect(try readSegments(url) == expected)
  }

  @Test func fragmentDropsTheQueryAfterIt() throws {
    let url = try RouteURL("myapp://a#b?c=1")
    #expect(url.segments == ["a"])
    #expect(url.query.isEmpty)
    let other = try RouteURL("myapp://a?c=1#d=2&e")
    #expect(other.query == [RouteURL.QueryItem(key: "c", value: "1")])
  }

  @Test func fragmentIsNotCheckedForUTF8() throws {
    let bytes = Array("myapp://user/1#".utf8) + [0xFF, 0xFE, 0x25]
    let url = try RouteURL(bytes: bytes)
    #expect(url.segments == ["user", "1"])
  }

  @Test func onlyTheFirstHashStartsTheFragment() throws {
    #expect(try readSegments("/a#b#c") == ["a"])
  }

  // MARK: Scheme

  @Test(arguments: ["myapp://x", "MYAPP://x", "MyApp://x", "mYaPp://x"])
  func schemeIsCaseInsensitive(url: String) throws {
    #expect(try RouteURL(url).scheme == "myapp")
  }

  @Test func schemeMayHoldDigitsPlusMinusAndDot() throws {
    #expect(try RouteURL("a1+b-c.d://x").scheme == "a1+b-c.d")
  }

  @Test(arguments: [
    ("/user/1", ["user", "1"]),
    ("user/1", ["user", "1"]),
    ("//example.com/ping", ["example.com", "ping"]),
    ("", []),
    ("/", []),
  ])
  func urlWithoutSchemeIsAPathOnly(url: String, expected: [String]) throws {
    let read = try RouteURL(url)
    #expect(read.scheme == nil)
    #expect(read.domain == nil)
    #expect(read.segments == expected)
  }

  @Test func schemeLessURLsMatchOnlyGlobalPatterns() throws {
    let router = try Router([
      Router.Route(pattern: RoutePattern("https://example.com/ping")),
      Router.Route(pattern: RoutePattern("myapp://user/:id")),
      Router.Route(pattern: RoutePattern("/example.com/ping")),
    ])
    #expect(router.match(try RouteURL("//example.com/ping"))?.route == 2)
    #expect(router.match(try RouteURL("/user/1")) == nil)
    #expect(router.match(try RouteURL("user/1")) == nil)
    #expect(router.match(try RouteURL("myapp://user/1"))?.route == 1)
  }

  // MARK: Host

  @Test(arguments: [
    ("myapp://user/1", ["user", "1"]),
    ("myapp://User/1", ["User", "1"]),
    ("myapp://us%65r/1", ["user", "1"]),
    ("myapp://a%2Fb/c", ["a/b", "c"]),
    ("myapp://a%2Eb/c", ["a.b", "c"]),
    ("myapp://bob@user/1", ["user", "1"]),
    ("myapp://bob:secret@user/1", ["user", "1"]),
    ("myapp://user:8080/1", ["user", "1"]),
    ("myapp://bob:pw@user:8080/1", ["user", "1"]),
    ("myapp://user?x=1", ["user"]),
  ])
  func hostWithoutDotIsTheFirstSegment(url: String, expected: [String]) throws {
    let read = try RouteURL(url)
    #expect(read.domain == nil)
    #expect(read.segments == expected)
  }

  @Test(arguments: [
    ("https://example.com/items/1", "example.com", ["items", "1"]),
    ("https://EXAMPLE.com/items", "example.com", ["items"]),
    ("https://bob:pw@example.com:443/items", "example.com", ["items"]),
    ("myapp://localhost/x", "localhost", ["x"]),
    ("myapp://LocalHost/x", "localhost", ["x"]),
    ("myapp://LOCALHOST:80/x", "localhost", ["x"]),
    ("myapp://a.b", "a.b", []),
  ])
  func hostWithDotOrLocalhostIsADomain(url: String, domain: String, expected: [String]) throws {
    let read = try RouteURL(url)
    #expect(read.domain == domain)
    #expect(read.segments == expected)
  }

  @Test(arguments: [
    "myapp:///user/1",
    "myapp://@/user/1",
    "myapp://:80/user/1",
    "myapp://bob@:80/user/1",
  ])
  func emptyHostIsIgnored(url: String) throws {
    let read = try RouteURL(url)
    #expect(read.domain == nil)
    #expect(read.segments == ["user", "1"])
  }

  @Test func hostSegmentComparesCaseSensitively() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("myapp://user/:id"))])
    #expect(router.match(try RouteURL("myapp://user/1")) != nil)
    #expect(router.match(try RouteURL("myapp://User/1")) == nil)
    #expect(router.match(try RouteURL("myapp://us%65r/1")) != nil)
  }

  @Test func domainIsNotASegmentForGlobalPatterns() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("/items/:id"))])
    let match = try #require(router.match(try RouteURL("https://example.com/items/7")))
    #expect(match.params["id"] == .string("7"))
    #expect(router.match(try RouteURL("https://example.com/example.com/items/7")) == nil)
  }

  // MARK: Empty segments

  @Test(arguments: [
    ("myapp://user//1", ["user", "1"]),
    ("myapp://user/1/", ["user", "1"]),
    ("myapp://user///1///", ["user", "1"]),
    ("myapp://", []),
    ("myapp:/", []),
    ("myapp:", []),
    ("myapp:user/1", ["user", "1"]),
    ("//a//b//", ["a", "b"]),
    ("myapp://user/?x=1", ["user"]),
  ])
  func emptySegmentsAreDropped(url: String, expected: [String]) throws {
    #expect(try readSegments(url) == expected)
  }

  @Test func schemeOnlyURLsMatchAnEmptyPattern() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("myapp://"))])
    #expect(router.match(try RouteURL("myapp://")) != nil)
    #expect(router.match(try RouteURL("myapp:/")) != nil)
    #expect(router.match(try RouteURL("myapp://x")) == nil)
  }

  // MARK: Percent-decoding

  @Test(arguments: [
    ("myapp://x/a%2Fb", ["x", "a/b"]),
    ("myapp://x/a%2fb/c", ["x", "a/b", "c"]),
    ("myapp://x/%41%62c", ["x", "Abc"]),
    ("myapp://x/caf%C3%A9", ["x", "café"]),
    ("myapp://x/a%20b", ["x", "a b"]),
    ("myapp://x/%3F%23%26", ["x", "?#&"]),
    ("myapp://x/%25zz", ["x", "%zz"]),
  ])
  func segmentsAreDecodedAfterSplitting(url: String, expected: [String]) throws {
    #expect(try readSegments(url) == expected)
  }

  // MARK: Dot segments

  @Test(arguments: [
    ("myapp://user/../admin", ["admin"]),
    ("myapp://user/./1", ["user", "1"]),
    ("myapp://a/b/../../c", ["c"]),
    ("myapp://a/b/c/..", ["a", "b"]),
    ("myapp://a/.", ["a"]),
    ("myapp://a/%2E%2E/b", ["b"]),
    ("myapp://a/%2e%2e/b", ["b"]),
    ("myapp://a/%2E/b", ["a", "b"]),
    ("myapp://a/.%2E/b", ["b"]),
    ("/../a", ["a"]),
    ("/../../a/b", ["a", "b"]),
    ("myapp://x/../../y", ["y"]),
    ("/a/..", []),
    ("/a/...", ["a", "..."]),
    ("/a/.b/..c", ["a", ".b", "..c"]),
  ])
  func dotSegmentsAreResolved(url: String, expected: [String]) throws {
    #expect(try readSegments(url) == expected)
  }

  @Test func dotSegmentsAreResolvedBeforeMatching() throws {
    let router = try Router([
      Router.Route(pattern: RoutePattern("myapp://admin")),
      Router.Route(pattern: RoutePattern("myapp://user/:id")),
    ])
    #expect(router.match(try RouteURL("myapp://user/../admin"))?.route == 0)
    #expect(router.match(try RouteURL("myapp://user/%2E%2E/admin"))?.route == 0)
    #expect(router.match(try RouteURL("myapp://user/./7"))?.params["id"] == .string("7"))
  }

  // MARK: Plus

  @Test func plusIsLiteralInThePath() throws {
    #expect(try readSegments("myapp://x/a+b") == ["x", "a+b"])
    #expect(try readSegments("myapp://x/a%2Bb") == ["x", "a+b"])
    #expect(try readSegments("myapp://a+b/c") == ["a+b", "c"])
  }

  @Test func plusIsASpaceInTheQuery() throws {
    #expect(try readQuery("/x?a+b=c+d") == [["a b", "c d"]])
    #expect(try readQuery("/x?q=1%2B1") == [["q", "1+1"]])
    #expect(try readQuery("/x?q=%2B+") == [["q", "+ "]])
  }

  // MARK: Query

  @Test(arguments: [
    ("/x?a=1&b=2", [["a", "1"], ["b", "2"]]),
    ("/x?a=1=2", [["a", "1=2"]]),
    ("/x?a", [["a", ""]]),
    ("/x?a=", [["a", ""]]),
    ("/x?=v", [["", "v"]]),
    ("/x?a&b=2", [["a", ""], ["b", "2"]]),
    ("/x?a=1&&b=2", [["a", "1"], ["b", "2"]]),
    ("/x?", []),
    ("/x?&", []),
    ("/x?&&a=1&", [["a", "1"]]),
    ("/x?a=1&a=2&a=3", [["a", "1"], ["a", "2"], ["a", "3"]]),
    ("/x?k%3D=v%26w", [["k=", "v&w"]]),
    ("/x?a=%3F?b", [["a", "??b"]]),
    ("/x?a=b/c", [["a", "b/c"]]),
  ])
  func querySplitting(url: String, expected: [[String]]) throws {
    #expect(try readQuery(url) == expected)
  }

  @Test func queryDoesNotAddSegments() throws {
    #expect(try readSegments("/x?a=b/c") == ["x"])
    #expect(try readSegments("myapp://x?y/z") == ["x"])
  }

  @Test func repeatedQueryKeysGiveAnArrayInOrder() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("/x"))])
    let match = try #require(router.match(try RouteURL("/x?a=2&b=1&a=1&a=3")))
    #expect(match.params["a"] == .strings(["2", "1", "3"]))
    #expect(match.params["b"] == .string("1"))
  }

  @Test func keyWithoutEqualsHasTheEmptyValue() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("/x"))])
    let match = try #require(router.match(try RouteURL("/x?flag")))
    #expect(match.params == ["flag": .string("")])
  }

  // MARK: Invalid escapes

  @Test(arguments: [
    ("tests://user/%zz", "invalid percent escape in path segment 2"),
    ("tests://user/%4", "invalid percent escape in path segment 2"),
    ("tests://user/%", "invalid percent escape in path segment 2"),
    ("tests://user/ab%", "invalid percent escape in path segment 2"),
    ("tests://user/%4g", "invalid percent escape in path segment 2"),
    ("tests://user/%g4", "invalid percent escape in path segment 2"),
    ("tests://user/1/x%zz", "invalid percent escape in path segment 3"),
    ("/%zz", "invalid percent escape in path segment 1"),
    ("a/b/c%", "invalid percent escape in path segment 3"),
    ("https://example.com/%zz", "invalid percent escape in path segment 1"),
  ])
  func invalidEscapesNameTheSegment(url: String, message: String) {
    #expect(readError(url) == message)
  }

  /// A host without `.` is the first path segment, so an escape error in it names segment 1,
  /// the way `tests://user/%zz` names segment 2.
  @Test(arguments: [
    ("tests://%zz/x", "invalid percent escape in path segment 1"),
    ("tests://us%4/x", "invalid percent escape in path segment 1"),
    ("tests://bob@user%/x", "invalid percent escape in path segment 1"),
  ])
  func invalidEscapeInAHostSegmentNamesSegmentOne(url: String, message: String) {
    #expect(readError(url) == message)
  }

  @Test(arguments: ["https://exa%zzmple.com/x", "https://a.b%4/x", "myapp://%zz.b:80/x"])
  func invalidEscapeInADomainIsInvalid(url: String) throws {
    let message = try #require(readError(url))
    #expect(message.hasPrefix("invalid percent escape in "))
  }

  @Test(arguments: ["/x?a=%zz", "/x?%zz=1", "/x?a=1&b=%4", "/x?a=%"])
  func invalidEscapesInTheQueryAreInvalid(url: String) throws {
    let message = try #require(readError(url))
    #expect(message.hasPrefix("invalid percent escape in "))
  }

  @Test func invalidURLMatchesNothing() throws {
    #expect(throws: URLReadError.self) { try RouteURL("tests://user/%zz") }
  }

  // MARK: UTF-8

  @Test(arguments: [
    Array("myapp://user/".utf8) + [0xFF],
    Array("myapp://user/".utf8) + [0xC3],
    Array("myapp://user/".utf8) + [0xC3, 0x28],
    Array("myapp://user/".utf8) + [0xED, 0xA0, 0x80],
    Array("myapp://user/".utf8) + [0xC0, 0xAF],
    Array("/x?a=".utf8) + [0xFE],
    Array("myapp://".utf8) + [0xFF] + Array("/x".utf8),
  ])
  func rawBytesThatAreNotUTF8AreInvalid(bytes: [UInt8]) throws {
    let message = try #require(readError(bytes: bytes))
    #expect(message.contains("UTF-8"))
  }

  @Test(arguments: [
    "myapp://user/%FF",
    "myapp://user/%C3",
    "myapp://user/%C3%28",
    "myapp://user/%ED%A0%80",
    "myapp://user/%C0%AF",
    "/x?a=%FE",
    "/x?%FF=1",
  ])
  func escapedBytesThatAreNotUTF8AreInvalid(url: String) throws {
    let message = try #require(readError(url))
    #expect(message.contains("UTF-8"))
  }

  @Test func escapedUTF8SplitAcrossEscapesDecodes() throws {
    #expect(try readSegments("myapp://x/%E4%B8%AA") == ["x", "个"])
  }

  @Test func invalidUTF8NamesTheSegment() throws {
    let message = try #require(readError("tests://user/%FF"))
    #expect(message.hasSuffix("path segment 2"))
  }

  // MARK: Characters taken as they stand

  @Test func rawNonASCIIEqualsItsPercentEncodedForm() throws {
    let raw = try RouteURL("myapp://user/个人中心")
    let encoded = try RouteURL("myapp://user/%E4%B8%AA%E4%BA%BA%E4%B8%AD%E5%BF%83")
    #expect(raw == encoded)
    #expect(raw.segments == ["user", "个人中心"])
  }

  @Test func rawNonASCIIInQueryEqualsItsPercentEncodedForm() throws {
    let raw = try RouteURL("myapp://x?名=值")
    let encoded = try RouteURL("myapp://x?%E5%90%8D=%E5%80%BC")
    #expect(raw == encoded)
  }

  @Test(arguments: [
    ("myapp://x/a b", ["x", "a b"]),
    ("myapp://x/<int:id>", ["x", "<int:id>"]),
    ("myapp://x/a>b<c", ["x", "a>b<c"]),
    ("myapp://x/:id", ["x", ":id"]),
    ("myapp://x/*", ["x", "*"]),
    ("myapp://x/(a)", ["x", "(a)"]),
    ("myapp://x/\"q\"", ["x", "\"q\""]),
    ("myapp://x/é", ["x", "é"]),
  ])
  func otherCharactersAreTakenAsTheyStand(url: String, expected: [String]) throws {
    #expect(try readSegments(url) == expected)
  }

  @Test func spaceEqualsPercentTwenty() throws {
    #expect(try RouteURL("myapp://x/a b") == RouteURL("myapp://x/a%20b"))
  }

  @Test func rawAngleBracketsMatchALiteralWrittenEncoded() throws {
    let router = try Router([Router.Route(pattern: RoutePattern("myapp://x/%3Cb%3E"))])
    #expect(router.match(try RouteURL("myapp://x/<b>")) != nil)
  }

  @Test func nulBytesAreTakenAsTheyStand() throws {
    let raw = try RouteURL(bytes: Array("myapp://user/a".utf8) + [0] + Array("b".utf8))
    #expect(raw.segments == ["user", "a\u{0}b"])
    #expect(try RouteURL("myapp://user/a%00b") == raw)
    #expect(try RouteURL("myapp://user/a\u{0}b") == raw)
    let query = try RouteURL(bytes: Array("/x?k=".utf8) + [0])
    #expect(query.query == [RouteURL.QueryItem(key: "k", value: "\u{0}")])
  }

  @Test func stringAndBytesReadTheSame() throws {
    let text = "HTTPS://bob@Example.com:8080/a/%2E%2E/b+c/%E4%B8%AA?x=1+2&y&x=3#frag"
    #expect(try RouteURL(text) == RouteURL(bytes: Array(text.utf8)))
    let read = try RouteURL(text)
    #expect(read.scheme == "https")
    #expect(read.domain == "example.com")
    #expect(read.segments == ["b+c", "个"])
    #expect(
      read.query == [
        RouteURL.QueryItem(key: "x", value: "1 2"),
        RouteURL.QueryItem(key: "y", value: ""),
        RouteURL.QueryItem(key: "x", value: "3"),
      ])
  }
}
