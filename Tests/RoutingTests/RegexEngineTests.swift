import TestSupport
import Testing

@testable import Routing

/// Whether `regex` matches all of `value`.
private func regexMatches(_ regex: String, _ value: String) throws -> Bool {
  try RouteRegex(regex).matches(value)
}

@Suite struct RegexSyntaxTests {
  @Test(arguments: [
    // Literals and escapes.
    ("a\\.b", "a.b", true), ("a\\.b", "axb", false), ("\\/\\#\\?\\\\", "/#?\\", true),
    ("\\t\\n", "\t\n", true), ("\\x41\\u00E9", "A\u{E9}", true),
    ("\\(\\)\\[\\]\\{\\}", "()[]{}", true),
    // `.`: any scalar but a newline.
    ("a.c", "a\u{1F600}c", true), ("a.c", "a\nc", false), ("a.c", "a\u{2028}c", false),
    // Classes: ranges, negation, escapes inside.
    ("[a-c]+", "abcab", true), ("[a-c]+", "abd", false), ("[^a-c]", "d", true),
    ("[^a-c]", "b", false), ("[\\d_]+", "1_2", true), ("[a\\-z]", "-", true),
    ("[-a]", "-", true), ("[a-]", "-", true), ("[\\]]", "]", true),
    // Groups and alternation.
    ("(ab|cd)+", "abcdab", true), ("(?:ab|cd)+", "abce", false), ("a(|b)c", "ac", true),
    ("", "", true), ("()", "", true), ("a|", "", true),
    // Quantifiers, greedy and lazy: the same whole values.
    ("a*", "", true), ("a+", "", false), ("a?b", "b", true), ("a*?b", "aab", true),
    ("a+?", "aaa", true), ("a??b", "ab", true), ("a{2,3}?", "aaa", true),
    // Counts.
    ("a{3}", "aaa", true), ("a{3}", "aa", false), ("a{3}", "aaaa", false),
    ("a{2,}", "aa", true), ("a{2,}", "a", false),
    ("a{2,}", String(repeating: "a", count: 50), true),
    ("a{2,4}", "aaaa", true), ("a{2,4}", "aaaaa", false), ("a{0,2}", "", true),
    ("(ab){1,2}c", "ababc", true), ("a{1000}", String(repeating: "a", count: 1000), true),
    ("a{1000}", String(repeating: "a", count: 999), false),
    // `^` and `$`: redundant at the ends, impossible in the middle.
    ("^abc$", "abc", true), ("^a|b$", "b", true), ("a^b", "ab", false), ("a$b", "ab", false),
    ("(^a)*", "a", true), ("(^a)*", "aa", false),
    ("\\W*", "_ _ ", false), ("[b-\u{E9}]??\\W*", "_ _ ", false), ("\\W{2,}?", "-1 ", false),
  ])
  func supportedSyntax(regex: String, value: String, expected: Bool) throws {
    #expect(try regexMatches(regex, value) == expected, "\(regex) on \(value)")
  }

  @Test func caseInsensitiveFoldsBothSidesWithTheSimpleLowercaseMapping() throws {
    #expect(try regexMatches("(?i)user", "USER"))
    #expect(try regexMatches("(?i)USER", "user"))
    #expect(try regexMatches("(?i)[A-C]+", "abC"))
    #expect(try regexMatches("(?i)[^a]", "A") == false)
    #expect(try regexMatches("(?i)\u{E9}t\u{E9}", "\u{C9}T\u{C9}"))
    // KELVIN SIGN lowercases to `k`.
    #expect(try regexMatches("(?i)k", "\u{212A}"))
    #expect(try regexMatches("(?i)\u{212A}", "K"))
    #expect(try regexMatches("user", "USER") == false)
  }

  @Test func classEscapesHaveTheirUnicodeMeanings() throws {
    // `\d`: decimal digits, in any script (ARABIC-INDIC DIGIT ONE); not SUPERSCRIPT TWO.
    #expect(try regexMatches("\\d+", "12\u{661}"))
    #expect(try regexMatches("\\d", "\u{B2}") == false)
    #expect(try regexMatches("\\D", "a"))
    // `\w`: letters, decimal digits and `_`.
    #expect(try regexMatches("\\w+", "a\u{E9}\u{436}_9\u{661}"))
    #expect(try regexMatches("\\w", "-") == false)
    #expect(try regexMatches("\\W", "-"))
    // `\s`: white space (EM SPACE, NO-BREAK SPACE).
    #expect(try regexMatches("\\s+", " \t\u{2003}\u{A0}"))
    #expect(try regexMatches("\\S", " ") == false)
    #expect(try regexMatches("[^\\s]", "x"))
  }

  @Test(arguments: [
    ("/r/:x((a)\\1)", 10, "backreferences are not supported"),
    ("/r/:x((?<n>a)\\k<n>)", 7, "'(?' is supported only as '(?:' and a leading '(?i)'"),
    ("/r/:x(a\\k<n>)", 8, "backreferences are not supported"),
    ("/r/:x(a(?=b)b)", 8, "lookahead is not supported"),
    ("/r/:x(a(?!b).)", 8, "lookahead is not supported"),
    ("/r/:x((?<=a)b)", 7, "lookbehind is not supported"),
    ("/r/:x((?<!a)b)", 7, "lookbehind is not supported"),
    ("/r/:x((?>a+)b)", 7, "atomic groups are not supported"),
    ("/r/:x(a*+b)", 9, "possessive quantifiers are not supported"),
    ("/r/:x(a{2}+)", 11, "possessive quantifiers are not supported"),
    ("/r/:x((?(1)a|b))", 7, "conditionals are not supported"),
    ("/r/:x(a{1001})", 9, "a count above 1000"),
    ("/r/:x(a{2,1001})", 11, "a count above 1000"),
    ("/r/:x(ab(?i)c)", 9, "'(?i)' is allowed only at the start"),
    ("/r/:x(\\bx)", 7, "'\\b' is not supported"),
    ("/r/:x(\\p{L})", 7, "'\\p' is not supported"),
    ("/r/:x(\\x4)", 7, "'\\x' needs 2 hex digits"),
    ("/r/:x([[:alpha:]])", 8, "'[' must be escaped in a class"),
    ("/r/:x([a&&b])", 9, "class set operations are not supported"),
    ("/r/:x(*a)", 7, "'*' has nothing to repeat"),
    ("/r/:x(a**)", 9, "a quantifier cannot follow a quantifier"),
    (
      "/r/:x(a{,2})", 8,
      "'{' must start a count {m}, {m,} or {m,n} (a literal '{' is written '\\{')"
    ),
    ("/r/:x(a{3,2})", 8, "count range out of order"),
    ("/r/:x([z-a])", 8, "range out of order"),
    ("/r/:x([])", 8, "empty class (a literal ']' is written '\\]')"),
    ("/r/:x(^*)", 8, "'^' and '$' cannot be repeated"),
    ("/r/:x(é\\é)", 8, "'\\é' is not supported"),
  ])
  func refusedConstructsNameTheirColumn(text: String, column: Int, message: String) throws {
    let error = try #require(patternRefusal(text), "\(text)")
    #expect(error.message == message + " in regular expression", "\(text)")
    #expect(error.column == column, "\(text)")
  }

  @Test func aRefusalInATableNamesTheEntryAndColumn() throws {
    let json = #"{"routes":[{"pattern":"/a","screen":"a"},{"pattern":"/:x(a(?=b))","screen":"b"}]}"#
    #expect {
      try RouteTable(json: json)
    } throws: { error in
      let text = "\(error)"
      return text.hasPrefix("routes[1].pattern: lookahead is not supported in regular expression")
        && text.contains("(column 6 of \"/:x(a(?=b))\")")
    }
  }

  @Test func countsThatExpandTooFarAreRefused() throws {
    let error = try #require(patternRefusal("/r/:x(((a{1000}){1000}){1000})"))
    #expect(error.message.hasPrefix("more than 100000 states"))
    #expect(error.column == 7)
    #expect(patternRefusal("/r/:x([a-z]{1,1000})") == nil)
  }

  @Test func alternationsAndNestedQuantifiersAreAccepted() throws {
    for regex in [
      "(a+)+b", "(a|aa)+c", "(x+x+)+y", "\\/settings\\/(a|b|c|d|e|f|g)\\/.+",
      "(http|https|data):.*",
      "(a|aa)*b", "(a*){2}", "a*b*c*", "a?b?c?", "a|b|c|d|e|f", "(x+)?",
    ] {
      #expect(patternRefusal("/r/:x(\(regex))") == nil, "\(regex)")
    }
  }
}

@Suite struct RegexLinearTimeTests {
  @Test(arguments: [
    ("(a+)+b", "a", "b"), ("(a|aa)+c", "a", "c"), ("(x+x+)+y", "x", "y"),
  ])
  func pathologicalPatternsAnswer64KiBValues(regex: String, filler: String, last: String) throws {
    let routes = try ["/r/:x(\(regex))", "/q?k=:x(\(regex))", "/f#:x(\(regex))"].map {
      Router.Route(pattern: try RoutePattern($0))
    }
    let router = try Router(routes)
    for (route, prefix) in ["/r/", "/q?k=", "/f#"].enumerated() {
      let room = RouteURL.maxBytes - prefix.utf8.count
      let failing = prefix + String(repeating: filler, count: room)
      #expect(failing.utf8.count == 64 * 1024)
      #expect(router.match(try RouteURL(failing, fragment: true)) == nil, "\(regex) \(prefix)")
      let matching = prefix + String(repeating: filler, count: room - 1) + last
      let match = try #require(router.match(try RouteURL(matching, fragment: true)))
      #expect(match.route == route, "\(regex) \(prefix)")
      #expect(match.params["x"] == .string(String(matching.dropFirst(prefix.count))))
    }
  }
}

@Suite struct RegexDifferentialTests {
  /// Random REGEXes of the supported syntax.
  private struct Generator {
    var random: SeededGenerator
    static let atoms = [
      "a", "b", "c", ".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "[a-c]", "[^a]", "[\\d_]",
      "\\.", "\\x61", "\u{E9}", "[b-\u{E9}]",
    ]
    static let quantifiers = [
      "", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{0,}", "{2,}?",
    ]

    mutating func regex(depth: Int = 0) -> String {
      let count = 1 + random.below(3)
      var branches: [String] = []
      for _ in 0..<(random.chance(25) ? 2 : 1) {
        var branch = ""
        for _ in 0..<count {
          let atom =
            depth == 0 && random.chance(25)
            ? (random.chance(50) ? "(" : "(?:") + regex(depth: depth + 1) + ")"
            : random.pick(Self.atoms)
          branch += atom + random.pick(Self.quantifiers)
        }
        branches.append(branch)
      }
      return branches.joined(separator: "|")
    }

    mutating func value() -> String {
      let alphabet: [Unicode.Scalar] = [
        "a", "b", "c", "A", "1", "_", " ", ".", "\u{E9}", "-",
      ]
      var scalars = String.UnicodeScalarView()
      for _ in 0..<random.below(7) { scalars.append(random.pick(alphabet)) }
      return String(scalars)
    }
  }

  /// Swift's `Regex` backtracks, so groups are not nested (it could take exponential time), and
  /// the values hold no digits or white space outside ASCII (with Unicode-scalar semantics, its
  /// `\w` takes only ASCII digits, and its `\W` takes `_` before U+2003 EM SPACE).
  @Test func agreesWithSwiftRegexOnRandomPatternsAndValues() throws {
    var generator = Generator(random: SeededGenerator(seed: 0x5EED_28))
    var compared = 0
    for _ in 0..<1000 {
      var source = generator.regex()
      if generator.random.chance(10) { source = "^" + source + "$" }
      if generator.random.chance(15) { source = "(?i)" + source }
      let mine = try RouteRegex(source)
      let theirs = try Regex(source).matchingSemantics(.unicodeScalar)
      for _ in 0..<12 {
        let value = generator.value()
        let expected = (try? theirs.wholeMatch(in: value)) != nil
        let got = mine.matches(value)
        #expect(got == expected, "\(source) on \(value.debugDescription): \(got) \(expected)")
        compared += 1
      }
    }
    #expect(compared == 12000)
  }
}

@Suite struct DomainAndFragmentRefusalTests {
  @Test(arguments: [
    ("/files/*.json", 8), ("myapp://x/*.example.com", 11), ("/*.example.com/x", 2),
    ("https://a*.example.com/x", 10), ("/p?f=*.json", 6), ("/p#*.x", 4),
  ])
  func aWildcardLabelStandsOnlyAtTheStartOfADomain(text: String, column: Int) throws {
    let error = try #require(patternRefusal(text), "\(text)")
    #expect(error.message.hasPrefix("'*.' may only start a domain"), "\(text)")
    #expect(error.column == column, "\(text)")
  }

  @Test func wildcardDomainsAndRegexesKeepTheirStars() {
    #expect(patternRefusal("https://*.example.com/x") == nil)
    #expect(patternRefusal("//*.example.com/x") == nil)
    #expect(patternRefusal("/r/:x(.*.json)") == nil)
    #expect(patternRefusal("/r/*") == nil)
  }

  @Test func aSecondHashIsRefused() throws {
    let error = try #require(patternRefusal("/p#a#b"))
    #expect(error.message == "a pattern may have only one '#'")
    #expect(error.column == 5)
    #expect(patternRefusal("/p#:x(\\#)") == nil)
  }
}
