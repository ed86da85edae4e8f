import Testing

@testable import Routing

// MARK: - The oracle against hand-checked cases

/// Builds the oracle for patterns with priorities.
private func oracle(_ routes: [(String, Int)]) throws -> LinearMatcher {
  LinearMatcher(try routes.map { Router.Route(pattern: try RoutePattern($0.0), priority: $0.1) })
}

/// The oracle's ranking of `url` as route indices, best first (priorities default to 0).
private func oracleRanking(_ patterns: [String], priorities: [Int] = [], _ url: String) throws
  -> [Int]
{
  let routes = patterns.enumerated().map { index, pattern in
    (pattern, index < priorities.count ? priorities[index] : 0)
  }
  return try oracle(routes).matches(try RouteURL(url)).map(\.route)
}

/// The oracle's parameters for the winner of `url` among `patterns`.
private func oracleParameters(_ patterns: [String], _ url: String) throws -> Parameters? {
  try oracle(patterns.map { ($0, 0) }).best(try RouteURL(url))?.params
}

/// The oracle must get these right by hand, so that it can fail too.
@Suite struct LinearMatcherTests {
  static let kindLadder = [
    "/a/:x", "/a/<int:x>", "/a/<float:x>", "/a/1", "/a/<uuid:x>", "/a/<path:x>", "/a/*",
  ]

  @Test func rule4RanksSegmentKindsLiteralIntFloatUUIDStringPathRest() throws {
    #expect(try oracleRanking(Self.kindLadder, "/a/1") == [3, 1, 2, 0, 5, 6])
    #expect(try oracleRanking(Self.kindLadder, "/a/2.5") == [2, 0, 5, 6])
    #expect(
      try oracleRanking(Self.kindLadder, "/a/123e4567-E89B-12d3-a456-426614174000") == [4, 0, 5, 6])
    #expect(try oracleRanking(Self.kindLadder, "/a/b/c") == [5, 6])
    #expect(try oracleRanking(Self.kindLadder, "/a") == [6])
    #expect(try oracleRanking(Self.kindLadder, "/a/9223372036854775808") == [2, 0, 5, 6])
  }

  @Test func rule4FirstDifferenceFromTheLeftDecides() throws {
    #expect(try oracleRanking(["/:x/b", "/a/:y"], "/a/b") == [1, 0])
    #expect(try oracleRanking(["/a/:y", "/:x/b"], "/a/b") == [0, 1])
    #expect(try oracleRanking(["/:x/<int:y>", "/a/*"], "/a/5") == [1, 0])
  }

  @Test func rule4PrefersNoTrailingRest() throws {
    #expect(try oracleRanking(["/a/*", "/a"], "/a") == [1, 0])
    #expect(try oracleRanking(["/a/*", "/a"], "/a/b") == [0])
    #expect(try oracleRanking(["/a(/*)"], "/a") == [0, 0])
    #expect(try oracle([("/a(/*)", 0)]).best(try RouteURL("/a"))?.expansion == 0)
  }

  @Test func rules1To3PriorityThenSchemeThenDomain() throws {
    let patterns = ["/a/1", "/a/:x", "myapp://a/1", "myapp://example.com/a/:x"]
    #expect(try oracleRanking(patterns, priorities: [0, 1, 0, 0], "myapp://a/1") == [1, 2, 0])
    #expect(try oracleRanking(patterns, "myapp://EXAMPLE.com/a/1") == [3, 2, 0, 1])
    #expect(try oracleRanking(patterns, "other://example.com/a/1") == [0, 1])
    #expect(try oracleRanking(patterns, "/a/1") == [0, 1])
    #expect(try oracleRanking(["myapp://localhost/a", "/a"], "MYAPP://LocalHost:80/a") == [0, 1])
  }

  @Test func rules5And6ConstraintsThenTableOrder() throws {
    #expect(try oracleRanking(["/a?k=1", "/a?k=1&q=:q", "/a"], "/a?k=1&q=2") == [1, 0, 2])
    #expect(try oracleRanking(["/a?k=1", "/a?k=1&q=:q", "/a"], "/a?k=1&k=1&q=2") == [2])
    #expect(try oracleRanking(["/a/:x?k=:k", "/a/:y?q=:q"], "/a/b?k=1&q=2") == [0, 1])
    #expect(try oracleRanking(["/a?k=<int:k>", "/a?k=on"], "/a?k=on") == [1])
  }

  @Test func section5ParametersPrecedenceAndTypes() throws {
    #expect(
      try oracleParameters(["/user/view/:userID"], "tests://user/view/joeldev?userID=evil")
        == ["userID": .string("joeldev")])
    #expect(
      try oracleParameters(["/u/:id?k=<int:k>&f=<float:f>"], "/u/7?id=q&k=5&f=.5&z=1&z=2&e&id2=a+b")
        == [
          "id": .string("7"), "k": .int(5), "f": .float(0.5), "z": .strings(["1", "2"]),
          "e": .string(""), "id2": .string("a b"),
        ])
    #expect(try oracleParameters(["/f/*"], "/f/a%2Fb/c") == ["*": .strings(["a/b", "c"])])
    #expect(try oracleParameters(["/p/<path:p>"], "/p/a%2Fb/c") == ["p": .string("a/b/c")])
    #expect(
      try oracleParameters(["/u/<uuid:u>"], "/u/123e4567-e89b-12d3-a456-426614174000")
        == ["u": .string("123E4567-E89B-12D3-A456-426614174000")])
    #expect(try oracleParameters(["/a?k=:k"], "/a?k=%2B+x") == ["k": .string("+ x")])
  }

  @Test func optionalGroupsExpandInWrittenOrder() throws {
    let matcher = try oracle([("/required/:r(/optional/:o)(/more/:m)", 0)])
    let cases = [
      ("/required/x", 0), ("/required/x/optional/y", 1), ("/required/x/more/z", 2),
      ("/required/x/optional/y/more/z", 3),
    ]
    for (url, expansion) in cases {
      #expect(try matcher.best(RouteURL(url))?.expansion == expansion, "\(url)")
    }
    #expect(try matcher.best(RouteURL("/required/x/more/z/optional/y")) == nil)
  }

  @Test func typedValuesFollowTheGrammar() {
    let ints: [(String, Int64?)] = [
      ("0", 0), ("-0", 0), ("007", 7), ("9223372036854775807", .max),
      ("-9223372036854775808", .min), ("9223372036854775808", nil), ("+1", nil), ("", nil),
      ("-", nil), ("1.0", nil), (" 1", nil), ("\u{661}", nil),
    ]
    for (text, value) in ints {
      #expect(LinearMatcher.intValue(text) == value, "\(text.debugDescription)")
    }
    let floats: [(String, Double?)] = [
      ("1", 1), ("-2.5", -2.5), ("8.0", 8), (".5", 0.5), ("1e3", 1000), ("1.", 1),
      ("+.5E-1", 0.05), ("1e-400", 0), ("nan", nil), ("inf", nil), ("1e400", nil),
      ("0x1p3", nil), (".", nil), ("e3", nil), ("1e", nil), ("1e+", nil), ("", nil),
      ("1.2.3", nil), ("--1", nil),
    ]
    for (text, value) in floats {
      #expect(LinearMatcher.floatValue(text) == value, "\(text.debugDescription)")
    }
    let uuids: [(String, String?)] = [
      ("123e4567-E89B-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000"),
      ("123e4567-e89b-12d3-a456-42661417400", nil), ("123e4567-e89b-12d3-a456-42661417400g", nil),
      ("123e4567e89b-12d3-a456-4266141740000", nil),
    ]
    for (text, value) in uuids {
      #expect(LinearMatcher.uuidValue(text) == value, "\(text.debugDescription)")
    }
  }

  @Test func section1Conflicts() throws {
    func conflict(_ routes: [(String, Int)]) throws -> [Int]? {
      try oracle(routes).firstConflict().map { [$0.route, $0.other] }
    }
    #expect(try conflict([("/x(/:a)(/:b)", 0)]) == [0, 0])
    #expect(try conflict([("/b", 0), ("/a/:x", 0), ("/a/<string:y>", 0)]) == [2, 1])
    #expect(try conflict([("/a/:x", 0), ("/a/:y", 1)]) == nil)
    #expect(try conflict([("/a?k=:x&q=1", 0), ("/a?q=1&k=<y>", 0)]) == [1, 0])
    #expect(try conflict([("/a?k=1", 0), ("/a?k=2", 0)]) == nil)
    #expect(try conflict([("/a?k=:x", 0), ("/a?k=<int:y>", 0)]) == nil)
    #expect(try conflict([("myapp://a", 0), ("/a", 0), ("myapp://example.com/a", 0)]) == nil)
    #expect(try conflict([("/a(/b)", 0), ("/a/b", 0)]) == [1, 0])
  }
}
