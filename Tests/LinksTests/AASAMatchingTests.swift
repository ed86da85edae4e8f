import Testing

@testable import Links

/// Apple's rules for an AASA file, each from the documented examples and the known pitfalls.
@Suite struct AASAMatchingTests {
  static let appID = "ABCDE12345.com.example.app"

  /// The document from text; the test fails when it does not read.
  func document(_ text: String) throws -> AASADocument {
    try AASADocument(bytes: Array(text.utf8))
  }

  func admits(_ document: AASADocument, _ url: String, appID: String = appID) throws -> Bool {
    document.decide(try LinkURL(url), appID: appID).admitted
  }

  func decidedBy(_ document: AASADocument, _ url: String) throws -> String? {
    document.decide(try LinkURL(url), appID: Self.appID).decidedBy
  }

  /// Variable names hold any character but `$`, `(` and `)`, case-sensitively, as Apple's
  /// documentation of `substitutionVariables` says.
  @Test func variableNamesAreAnyCharactersButDollarAndParentheses() throws {
    let aasa = try document(
      #"{"applinks":{"substitutionVariables":{"Canadian languages":["en","fr"],"é-1":["x"]},"details":[{"appIDs":["\#(Self.appID)"],"components":[{"/":"/$(Canadian languages)/$(é-1)"}]}]}}"#
    )
    #expect(try admits(aasa, "https://example.com/fr/x"))
    #expect(try !admits(aasa, "https://example.com/de/x"))
    #expect(throws: AASAError.self) {
      try document(
        #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/$(canadian languages)"}]}],"substitutionVariables":{"Canadian languages":["en"]}}}"#
      )
    }
    #expect(throws: AASAError.self) {
      try document(#"{"applinks":{"substitutionVariables":{"a(b":["x"]},"details":[]}}"#)
    }
  }

  /// Apple's example of `components`: an excluded fragment, `/buy/*`, an excluded
  /// `/help/website/*` before `/help/*` with a four-character `articleNumber`.
  static let appleExample = """
    {"applinks": {"details": [{
      "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],
      "components": [
        {"#": "no_universal_links", "exclude": true, "comment": "no universal link"},
        {"/": "/buy/*"},
        {"/": "/help/website/*", "exclude": true},
        {"/": "/help/*", "?": {"articleNumber": "????"}}
      ]}]},
     "webcredentials": {"apps": ["ABCDE12345.com.example.app"]},
     "appclips": {"apps": ["ABCED12345.com.example.MyApp.Clip"]}}
    """

  @Test func applesComponentsExample() throws {
    let aasa = try document(Self.appleExample)
    #expect(try admits(aasa, "https://example.com/buy/shoes"))
    #expect(try admits(aasa, "https://example.com/buy/"))
    #expect(try !admits(aasa, "https://example.com/buy"))
    #expect(try !admits(aasa, "https://example.com/buy/shoes#no_universal_links"))
    #expect(
      try decidedBy(aasa, "https://example.com/buy/x#no_universal_links")
        == "applinks.details[0].components[0]")
    #expect(try !admits(aasa, "https://example.com/help/website/faq"))
    #expect(try admits(aasa, "https://example.com/help/faq?articleNumber=1234"))
    #expect(try !admits(aasa, "https://example.com/help/faq?articleNumber=12345"))
    #expect(try !admits(aasa, "https://example.com/help/faq"))
    #expect(try admits(aasa, "https://example.com/buy/x", appID: "ABCDE12345.com.example.app2"))
  }

  @Test func firstMatchingComponentDecides() throws {
    let aasa = try document(Self.appleExample)
    #expect(
      try decidedBy(aasa, "https://example.com/help/faq?articleNumber=1234")
        == "applinks.details[0].components[3]")
    #expect(
      try decidedBy(aasa, "https://example.com/help/website/faq")
        == "applinks.details[0].components[2]")
    // Nothing matched: no member decided.
    #expect(try decidedBy(aasa, "https://example.com/other") == nil)
  }

  /// The pitfall: a catch-all placed before an exclude wins, so the exclude never decides.
  @Test func catchAllBeforeAnExcludeAdmitsEverything() throws {
    let wrong = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"*"}, {"/":"/private/*","exclude":true}]}]}}
      """)
    #expect(try admits(wrong, "https://example.com/private/x"))
    let right = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/private/*","exclude":true}, {"/":"*"}]}]}}
      """)
    #expect(try !admits(right, "https://example.com/private/x"))
    #expect(try admits(right, "https://example.com/public"))
  }

  /// The pitfall: the path never holds the fragment, so `"/": "/#/..."` never matches.
  @Test func pathWithAHashNeverMatches() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"/#/orders/*"}]}]}}
      """)
    #expect(try !admits(aasa, "https://example.com/#/orders/1"))
    #expect(try !admits(aasa, "https://example.com/%23/orders/1"))
  }

  /// The pitfall: an entry for another app ID does not count, whatever it says.
  @Test func entryForAnotherAppIDIsSkipped() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[
        {"appIDs":["OTHER12345.com.example.other"],"components":[{"/":"/a/*","exclude":true}]},
        {"appID":"\(Self.appID)","components":[{"/":"/a/*"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/a/1"))
    #expect(try decidedBy(aasa, "https://example.com/a/1") == "applinks.details[1].components[0]")
    #expect(try !admits(aasa, "https://example.com/a/1", appID: "OTHER12345.com.example.other"))
    #expect(try !admits(aasa, "https://example.com/a/1", appID: "NOPE.com.example.nope"))
  }

  /// The pitfall: every occurrence of a query item must match.
  @Test func queryItemThatAppearsTwiceMustMatchBothTimes() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/p","?":{"id":"$(digit)$(digit)"}}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/p?id=12"))
    #expect(try admits(aasa, "https://example.com/p?id=12&id=34"))
    #expect(try !admits(aasa, "https://example.com/p?id=12&id=xy"))
    #expect(try !admits(aasa, "https://example.com/p?id=xy&id=12"))
  }

  @Test func missingOrValuelessQueryItemCountsAsEmpty() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/p","?":{"debug":""}}, {"/":"/q","?":{"ref":"*"}}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/p"))
    #expect(try admits(aasa, "https://example.com/p?debug"))
    #expect(try admits(aasa, "https://example.com/p?debug="))
    #expect(try admits(aasa, "https://example.com/p?other=1"))
    #expect(try !admits(aasa, "https://example.com/p?debug=1"))
    #expect(try admits(aasa, "https://example.com/q"))
  }

  @Test func queryAsAStringMatchesTheWholeQuery() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/s","?":"q=*"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/s?q=shoes"))
    #expect(try !admits(aasa, "https://example.com/s?page=2&q=shoes"))
    #expect(try !admits(aasa, "https://example.com/s"))
  }

  @Test func aKeyTheComponentLacksMatchesAnything() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[{"comment":"all"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/any/path?x=1#frag"))
    #expect(try admits(aasa, "https://example.com"))
  }

  @Test func emptyComponentsMatchNothing() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[]}]}}
      """)
    #expect(try !admits(aasa, "https://example.com/"))
  }

  @Test func fragmentIsMatchedAndAbsentFragmentIsEmpty() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/f","#":"tab-?"}, {"/":"/g","#":""}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/f#tab-1"))
    #expect(try !admits(aasa, "https://example.com/f#tab-10"))
    #expect(try !admits(aasa, "https://example.com/f"))
    #expect(try admits(aasa, "https://example.com/g"))
    #expect(try !admits(aasa, "https://example.com/g#x"))
  }

  @Test func starMatchesAnyRunAlsoSlashesAndQuestionMarkOneCharacter() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/a/*/end"}, {"/":"/b/??"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/a/x/y/z/end"))
    #expect(try admits(aasa, "https://example.com/a//end"))
    #expect(try !admits(aasa, "https://example.com/a/end"))
    #expect(try admits(aasa, "https://example.com/b/12"))
    #expect(try !admits(aasa, "https://example.com/b/1"))
    #expect(try !admits(aasa, "https://example.com/b/123"))
  }

  /// Many `*` against a long path take time in proportion to the pattern times the path,
  /// not exponential time (this test would not finish with backtracking).
  @Test func manyStarsAgainstALongPathStayFast() throws {
    let stars = String(repeating: "/*", count: 40) + "/end"
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"\(stars)"}]}]}}
      """)
    let long = "https://example.com" + String(repeating: "/a", count: 500)
    #expect(try !admits(aasa, long))
    #expect(try admits(aasa, long + "/end"))
  }

  @Test func emptyPathIsSlash() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"/"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com"))
    #expect(try admits(aasa, "https://example.com/"))
    #expect(try admits(aasa, "https://example.com?x=1"))
  }

  /// Apple's substitution-variable example, with `$(lang)` and `$(region)`.
  @Test func substitutionVariablesAndLanguageRegion() throws {
    let aasa = try document(
      """
      {"applinks":{
        "substitutionVariables":{"food":["burrito","taco","pizza*"]},
        "details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"/$(lang)_$(region)/$(food)/"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/en_US/taco/"))
    #expect(try admits(aasa, "https://example.com/fr_CA/pizzamargherita/"))
    #expect(try !admits(aasa, "https://example.com/en_US/sushi/"))
    #expect(try !admits(aasa, "https://example.com/xx_US/taco/"))
    #expect(try !admits(aasa, "https://example.com/en_QQ/taco/"))
    #expect(try !admits(aasa, "https://example.com/EN_us/taco/"))
  }

  @Test func languageAndRegionInEitherCaseWhenCaseInsensitive() throws {
    let aasa = try document(
      """
      {"applinks":{"defaults":{"caseSensitive":false},
        "details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"/$(lang)-$(region)/Home"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/EN-us/home"))
    #expect(try admits(aasa, "https://example.com/de-DE/HOME"))
  }

  @Test func predefinedClassesMatchOneASCIICharacter() throws {
    let classes = [
      "alpha": ("q", "1"), "upper": ("Q", "q"), "lower": ("q", "Q"),
      "alnum": ("7", "-"), "digit": ("7", "a"), "xdigit": ("F", "g"),
    ]
    for (name, (good, bad)) in classes {
      let aasa = try document(
        """
        {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"/$(\(name))"}]}]}}
        """)
      #expect(try admits(aasa, "https://example.com/\(good)"), "\(name) \(good)")
      #expect(try !admits(aasa, "https://example.com/\(bad)"), "\(name) \(bad)")
      #expect(try !admits(aasa, "https://example.com/\(good)\(good)"), "\(name) twice")
    }
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"/$(alpha)"}]}]}}
      """)
    #expect(try !admits(aasa, "https://example.com/%C3%A9"))
  }

  @Test func caseSensitiveComesFromComponentThenEntryThenFile() throws {
    let aasa = try document(
      """
      {"applinks":{"defaults":{"caseSensitive":false},"details":[
        {"appIDs":["\(Self.appID)"],"defaults":{"caseSensitive":true},"components":[
          {"/":"/Entry"}, {"/":"/Comp","caseSensitive":false}]},
        {"appIDs":["\(Self.appID)"],"components":[{"/":"/File"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/Entry"))
    #expect(try !admits(aasa, "https://example.com/entry"))
    #expect(try admits(aasa, "https://example.com/COMP"))
    #expect(try admits(aasa, "https://example.com/file"))
    let plain = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[{"/":"/Shop"}]}]}}
      """)
    #expect(try !admits(plain, "https://example.com/shop"))
  }

  @Test func percentEncodedComparesAsWrittenWithHexInEitherCase() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/caf%C3%A9"}, {"/":"/d/café","percentEncoded":false}, {"/":"/plus/a+b","percentEncoded":false}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/caf%C3%A9"))
    #expect(try admits(aasa, "https://example.com/caf%c3%a9"))
    #expect(try admits(aasa, "https://example.com/d/caf%C3%A9"))
    #expect(try !admits(aasa, "https://example.com/d/caf%C3%A8"))
    #expect(try admits(aasa, "https://example.com/plus/a+b"))
    #expect(try !admits(aasa, "https://example.com/plus/a%20b"))
  }

  @Test func percentEncodedFalseAppliesToQueryItems() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"components":[
        {"/":"/s","?":{"q":"a b"},"percentEncoded":false}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/s?q=a%20b"))
    #expect(try !admits(aasa, "https://example.com/s?q=a+b"))
  }

  /// The first matching component of the first entry that has one decides, whatever later
  /// entries say.
  @Test func excludeInAnEarlierEntryWins() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[
        {"appIDs":["\(Self.appID)"],"components":[{"/":"/x/*","exclude":true}]},
        {"appIDs":["\(Self.appID)"],"components":[{"/":"*"}]}]}}
      """)
    #expect(try !admits(aasa, "https://example.com/x/1"))
    #expect(try admits(aasa, "https://example.com/y"))
  }

  @Test func entryWithBothAppIDAndAppIDsCountsForBoth() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appID":"A.one","appIDs":["B.two"],"components":[{"/":"*"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/", appID: "A.one"))
    #expect(try admits(aasa, "https://example.com/", appID: "B.two"))
  }

  @Test func legacyPathsWithNOTAndFirstMatch() throws {
    let aasa = try document(
      """
      {"applinks":{"apps":[],"details":[{"appID":"\(Self.appID)",
        "paths":["NOT /videos/wwdc/2010/*","/videos/wwdc/201?/*","/$(lang)"]}]}}
      """)
    #expect(try !admits(aasa, "https://example.com/videos/wwdc/2010/x"))
    #expect(try admits(aasa, "https://example.com/videos/wwdc/2015/x"))
    #expect(
      try decidedBy(aasa, "https://example.com/videos/wwdc/2015/x")
        == "applinks.details[0].paths[1]")
    #expect(try !admits(aasa, "https://example.com/Videos/wwdc/2015/x"))
    // No variables in legacy paths: `$(lang)` is itself.
    #expect(try admits(aasa, "https://example.com/$(lang)"))
    #expect(try !admits(aasa, "https://example.com/en"))
  }

  /// Hex digits of escapes compare case-insensitively in legacy paths too.
  @Test func legacyPathsCompareEscapesInEitherCase() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appID":"\(Self.appID)","paths":["/a%2fb","/C%2F*"]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/a%2fb"))
    #expect(try admits(aasa, "https://example.com/a%2Fb"))
    #expect(try admits(aasa, "https://example.com/C%2fx"))
    #expect(try !admits(aasa, "https://example.com/A%2fb"))
  }

  @Test func legacyPathsAreIgnoredWhenComponentsArePresent() throws {
    let aasa = try document(
      """
      {"applinks":{"details":[{"appIDs":["\(Self.appID)"],"paths":["*"],"components":[{"/":"/only"}]}]}}
      """)
    #expect(try admits(aasa, "https://example.com/only"))
    #expect(try !admits(aasa, "https://example.com/other"))
  }

  @Test func explanationListsEveryComponentTried() throws {
    let aasa = try document(Self.appleExample)
    let decision = aasa.decide(
      try LinkURL("https://example.com/help/faq?articleNumber=12"), appID: Self.appID,
      explain: true)
    #expect(
      decision.trace == [
        "applinks.details[0].components[0]: no match: \"#\": \"no_universal_links\" does not match the fragment \"\"",
        "applinks.details[0].components[1]: no match: \"/\": \"/buy/*\" does not match the path \"/help/faq\"",
        "applinks.details[0].components[2]: no match: \"/\": \"/help/website/*\" does not match the path \"/help/faq\"",
        "applinks.details[0].components[3]: no match: \"?\".\"articleNumber\": \"????\" does not match \"12\"",
        "no component matches",
      ])
  }
}
