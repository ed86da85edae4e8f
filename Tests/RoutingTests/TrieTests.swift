import Testing

@testable import Routing

/// The trie: literal children are found by the exact bytes of their text, typed children
/// stay apart, and skipping subtrees never loses a route that ranks first.
@Suite struct TrieTests {
  /// Literals of every length from 1 to 20 bytes.
  static let literals = (1...20).map { String("abcdefghijklmnopqrst".prefix($0)) }

  /// The route each URL should decide, by the linear scan (the oracle) and by the trie.
  private func expectDecisions(
    _ router: Router, _ urls: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [Int?] {
    let linear = LinearScan(router.routes)
    var answers: [Int?] = []
    for text in urls {
      let expected = linear.decide(try RouteURL(text))
      let decided = Array(text.utf8).withUnsafeBufferPointer { router.decide(bytes: $0) }
      #expect(decided == expected, "\(text)", sourceLocation: sourceLocation)
      answers.append(decided)
    }
    return answers
  }

  @Test func literalEdgesMatchExactlyTheirBytes() throws {
    let routes = try Self.literals.map {
      Router.Route(pattern: try RoutePattern("myapp://x/\($0)"))
    }
    let router = try Router(routes)
    var urls: [String] = []
    var expected: [Int?] = []
    for (index, literal) in Self.literals.enumerated() {
      let bytes = Array(literal.utf8)
      func text(_ changed: [UInt8]) -> String {
        "myapp://x/" + String(decoding: changed, as: UTF8.self)
      }
      urls.append(text(bytes))
      expected.append(index)
      // One byte changed at the start, the middle and the end: no route.
      for position in Set([0, bytes.count / 2, bytes.count - 1]) {
        var changed = bytes
        changed[position] = UInt8(ascii: "Z")
        urls.append(text(changed))
        expected.append(nil)
      }
      // A zero byte more: the same word for short edges, but a different length.
      urls.append(text(bytes) + "%00")
      expected.append(nil)
      // The next letter: the next literal (past the last, none).
      urls.append(text(bytes) + String(Array("abcdefghijklmnopqrstu")[bytes.count]))
      expected.append(index + 1 < Self.literals.count ? index + 1 : nil)
    }
    let decided = try expectDecisions(router, urls)
    #expect(decided == expected)
  }

  @Test func typedAndLiteralChildrenOfOneNodeStayApart() throws {
    // A literal that reads as an int, a float and a string edge under one node.
    let router = try Router(
      [
        "myapp://n/12", "myapp://n/<int:i>", "myapp://n/<float:f>", "myapp://n/:s",
        "myapp://n/12/more", "myapp://n/<int:i>/more",
      ].map { Router.Route(pattern: try RoutePattern($0)) })
    let decided = try expectDecisions(
      router,
      [
        "myapp://n/12", "myapp://n/13", "myapp://n/1.5", "myapp://n/x", "myapp://n/12/more",
        "myapp://n/13/more", "myapp://n/x/more",
      ])
    #expect(decided == [0, 1, 2, 3, 4, 5, nil])
  }

  @Test func schemesMatchIgnoringLetterCaseOnly() throws {
    let router = try Router(
      ["m0+.-x://a", "longscheme9://a"].map { Router.Route(pattern: try RoutePattern($0)) })
    for (text, expected) in [
      ("m0+.-x://a", 0), ("M0+.-X://a", 0), ("m0+.-y://a", nil), ("m0+.-://a", nil),
      ("longscheme9://a", 1), ("LongScheme9://a", 1), ("longscheme8://a", nil),
    ] as [(String, Int?)] {
      #expect(Array(text.utf8).withUnsafeBufferPointer { router.decide(bytes: $0) } == expected)
      #expect(router.match(try RouteURL(text))?.route == expected, "\(text)")
    }
    // A scheme made in code with control characters, which setting bit 5 would turn into
    // `0`, `+`, `-` or `.`, matches nothing.
    for scheme in ["m\u{10}+.-x", "m0\u{0B}.-x", "m0+\u{0E}-x", "m0+.\u{0D}x"] {
      let url = RouteURL(scheme: scheme, segments: ["a"])
      #expect(router.match(url) == nil, "\(scheme.debugDescription)")
    }
  }

  /// A walk skips subtrees that cannot outrank the best route found so far; a route found
  /// later, less specific, must still win when its priority, scheme or domain ranks it first.
  @Test func laterRoutesThatOutrankTheBestStillWin() throws {
    let router = try Router(
      [
        ("myapp://a/b", 0), ("/a/:x", 1),  // a global route with a higher priority
        ("myapp://c/<int:n>", 0), ("myapp://c/:s", 1),  // a string beside an int
        ("https://m.example.com/d/:s", 0), ("https://d/e", 0),  // with a domain, or not
        ("myapp://f/<int:n>", 0), ("myapp://f/:s", 0),  // equal: the more specific
        ("myapp://g/*", 2), ("myapp://g/h/i", 1),  // a wildcard below a literal
      ].map { Router.Route(pattern: try RoutePattern($0.0), priority: $0.1) })
    let decided = try expectDecisions(
      router,
      [
        "myapp://a/b", "myapp://c/5", "https://m.example.com/d/e", "https://x.com/d/e",
        "myapp://f/5", "myapp://f/x", "myapp://g/h/i", "myapp://g/h",
      ])
    #expect(decided == [1, 3, 4, 5, 6, 7, 8, 8])
    // Listing every match prunes nothing.
    for (text, expected) in [
      ("myapp://a/b", [1, 0]), ("myapp://c/5", [3, 2]), ("myapp://f/5", [6, 7]),
      ("https://m.example.com/d/e", [4, 5]),
    ] {
      #expect(router.matches(try RouteURL(text)).map(\.route) == expected, "\(text)")
    }
  }

  /// Many distinct priorities still rank in order.
  @Test func manyPrioritiesStillRank() throws {
    let many = 300
    var routes = try (0..<many).map {
      Router.Route(pattern: try RoutePattern("myapp://p/r\($0)"), priority: $0)
    }
    routes.append(Router.Route(pattern: try RoutePattern("myapp://q/<int:n>"), priority: many - 5))
    routes.append(Router.Route(pattern: try RoutePattern("myapp://q/:s"), priority: many - 3))
    routes.append(Router.Route(pattern: try RoutePattern("myapp://r/<int:n>"), priority: many - 3))
    routes.append(Router.Route(pattern: try RoutePattern("myapp://r/:s"), priority: many - 5))
    let router = try Router(routes)
    let decided = try expectDecisions(router, ["myapp://q/5", "myapp://r/5", "myapp://p/r7"])
    #expect(decided == [many + 1, many + 2, 7])
  }

  /// Domains compare ignoring ASCII letter case only: `^` is not `~`, nor `@` a backquote,
  /// though each pair differs in the bit that case does.
  @Test func domainsMatchIgnoringLetterCaseOnly() throws {
    let domains = ["a.io", "m.example.com", "m~x.example.com", "a-very-long.host.example.org"]
    let router = try Router(
      domains.map { Router.Route(pattern: try RoutePattern("https://\($0)/a")) })
    let decided = try expectDecisions(
      router,
      [
        "https://A.IO/a", "https://M.Example.COM/a", "https://m^x.example.com/a",
        "https://M~X.EXAMPLE.COM/a", "https://A-VERY-LONG.host.example.ORG/a",
        "https://a-very-long.host.example.orh/a", "https://m.example.co/a",
        "https://n.example.com/a",
      ])
    #expect(decided == [0, 1, nil, 2, 3, nil, nil, nil])
  }
}
