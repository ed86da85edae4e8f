import Foundation
import TestSupport
import Testing

@testable import Routing

// docs/routing.md: redirect templates, how values are written into them, and how
// resolving follows redirects.

/// A table whose `routes` array holds `entries` (JSON object texts).
private func redirectTable(_ entries: [String]) throws -> RouteTable {
  try RouteTable(json: "{\"routes\": [" + entries.joined(separator: ", ") + "]}")
}

/// A screen route that catches the redirect targets used below and captures one segment.
private let outRoute = #"{"pattern": "myapp://out/:v", "screen": "out"}"#

/// Whether resolving failed (`.failed`), recording an issue otherwise.
private func expectFailed(
  _ resolution: Resolution, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard case .failed(let why) = resolution.outcome else {
    Issue.record("expected a failure, got \(resolution.outcome)", sourceLocation: sourceLocation)
    return
  }
  #expect(!why.isEmpty, sourceLocation: sourceLocation)
}

/// The float written in a URL segment and the text a redirect template must write for it.
private let floatTexts: [(String, String)] = [
  ("8.0", "8"),
  ("8", "8"),
  ("2.50", "2.5"),
  ("+2.5", "2.5"),
  ("-2.5", "-2.5"),
  (".5", "0.5"),
  ("0.5", "0.5"),
  ("-.5", "-0.5"),
  ("5.", "5"),
  ("1e3", "1000"),
  ("1E3", "1000"),
  ("1000.000", "1000"),
  ("-0", "0"),
  ("-0.0", "0"),
  ("0e5", "0"),
  ("0.1", "0.1"),
  ("0.30000000000000004", "0.30000000000000004"),
  ("1e-7", "0.0000001"),
  ("1.25e-5", "0.0000125"),
  ("123.456", "123.456"),
  ("1e16", "10000000000000000"),
  ("1e21", "1000000000000000000000"),
  ("-1.5e22", "-15000000000000000000000"),
  ("123456789012345678", "123456789012345680"),
  ("9007199254740993", "9007199254740992"),
  ("0.1e1", "1"),
  ("1.5e300", "15" + String(repeating: "0", count: 299)),
  ("5e-324", "0." + String(repeating: "0", count: 323) + "5"),
  ("1.7976931348623157e308", "17976931348623157" + String(repeating: "0", count: 292)),
]

/// Text values and how a template writes them: every UTF-8 byte outside `A-Z a-z 0-9 - . _ ~`
/// as `%XX` in uppercase hex.
private let encodedTexts: [(String, String)] = [
  ("plain", "plain"),
  ("AZaz09-._~", "AZaz09-._~"),
  ("a b", "a%20b"),
  ("a/b", "a%2Fb"),
  ("a?b&c=d#e", "a%3Fb%26c%3Dd%23e"),
  ("100%", "100%25"),
  ("a+b", "a%2Bb"),
  ("!*'();:@$,[]", "%21%2A%27%28%29%3B%3A%40%24%2C%5B%5D"),
  ("<x>\"{|}\\^`", "%3Cx%3E%22%7B%7C%7D%5C%5E%60"),
  ("\u{0}\u{1}\t\n\r\u{1F}\u{7F}", "%00%01%09%0A%0D%1F%7F"),
  ("é", "%C3%A9"),
  ("e\u{301}", "e%CC%81"),
  ("张三", "%E5%BC%A0%E4%B8%89"),
  ("東京", "%E6%9D%B1%E4%BA%AC"),
  ("😀", "%F0%9F%98%80"),
  ("\u{FFFD}", "%EF%BF%BD"),
  ("", ""),
]

/// The significant digits of a positional number text (no sign, no point, no leading or
/// trailing zeros).
private func significantDigits(_ text: String) -> String {
  var digits = text.filter(\.isNumber)
  while digits.first == "0" { digits.removeFirst() }
  while digits.last == "0" { digits.removeLast() }
  return digits
}

@Suite struct RedirectTests {
  // MARK: Templates

  @Test func fillsPlaceholdersInThePathAndTheQuery() throws {
    let template = try RedirectTemplate("myapp://t/:a/<b>/lit?x=:c&y=<d>&z=lit")
    #expect(template.text == "myapp://t/:a/<b>/lit?x=:c&y=<d>&z=lit")
    #expect(template.placeholders == ["a", "b", "c", "d"])
    let filled = try template.fill([
      "a": .string("1"), "b": .int(2), "c": .float(3.5), "d": .string("four"),
      "unused": .string("dropped"),
    ])
    #expect(filled == "myapp://t/1/2/lit?x=3.5&y=four&z=lit")
  }

  @Test func fillsAPlaceholderForTheHost() throws {
    let template = try RedirectTemplate("myapp://:screen/_id")
    #expect(try template.fill(["screen": .string("home")]) == "myapp://home/_id")
  }

  @Test func aTemplateWithoutPlaceholdersIsWrittenAsItIs() throws {
    let template = try RedirectTemplate("myapp://fixed/path?a=b")
    #expect(template.placeholders.isEmpty)
    #expect(try template.fill(["x": .string("1")]) == "myapp://fixed/path?a=b")
  }

  @Test(arguments: [
    "myapp://t/<int:id>", "myapp://t?x=<float:v>", "myapp://t/<string:s>", "myapp://t/<uuid:u>",
    "myapp://t/<path:p>",
  ])
  func refusesATypedPlaceholder(template: String) {
    #expect(throws: TemplateError.self) { try RedirectTemplate(template) }
    let text = #"{"routes": [{"pattern": "/a/:id", "redirect": "\#(template)"}]}"#
    let error = #expect(throws: RouteTableError.self) { try RouteTable(json: text) }
    #expect(error?.description.hasPrefix("routes[0].redirect: ") == true)
  }

  @Test func writesIntegersInPlainDecimal() throws {
    let template = try RedirectTemplate("myapp://t/:n")
    #expect(try template.fill(["n": .int(0)]) == "myapp://t/0")
    #expect(try template.fill(["n": .int(-42)]) == "myapp://t/-42")
    #expect(try template.fill(["n": .int(Int64.max)]) == "myapp://t/9223372036854775807")
    #expect(try template.fill(["n": .int(Int64.min)]) == "myapp://t/-9223372036854775808")
  }

  @Test(arguments: floatTexts)
  func writesFloatsPositionally(written: String, expected: String) throws {
    let value = try #require(Double(written))
    #expect(ParamValue.float(value).text == expected)
    let template = try RedirectTemplate("myapp://t/<v>")
    #expect(try template.fill(["v": .float(value)]) == "myapp://t/" + expected)
    // The same through a table: a `float` capture redirected to a string capture.
    let table = try redirectTable([
      #"{"pattern": "/f/<float:v>", "redirect": "myapp://out/:v"}"#, outRoute,
    ])
    let resolution = table.resolve("/f/" + written)
    #expect(resolution.redirects == ["myapp://out/" + expected])
    let route = try #require(matched(resolution))
    #expect(route.params == ["v": .string(expected)])
  }

  @Test func writesEveryFloatPositionallyWithTheFewestDigits() throws {
    var random = SeededGenerator(seed: 2_015_032_688)
    var values: [Double] = [
      .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, .ulpOfOne, 1 / 3,
      2 / 3, 0.1 + 0.2, 1e22, 1e23, 9_007_199_254_740_994, 4.35, 2.675, 1e-5, 123e-20,
    ]
    for _ in 0..<3_000 {
      let value = Double(bitPattern: random.next())
      if value.isFinite { values.append(value) }
      values.append(Double(Int64(bitPattern: random.next()) >> (random.next() % 60)) / 1_000)
    }
    for value in values {
      let text = try #require(ParamValue.float(value).text)
      let shape = text.wholeMatch(of: /-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?/)
      #expect(shape != nil, "\(value) was written \(text)")
      #expect(Double(text) == value, "\(text) does not read back as \(value)")
      if value == 0 {
        #expect(text == "0")
        continue
      }
      // One significant digit fewer no longer reads back as the same double.
      let count = significantDigits(text).count
      if count > 1 {
        let shorter = String(format: "%.\(count - 2)e", value)
        #expect(Double(shorter) != value, "\(value) was written \(text), but \(shorter) is shorter")
      }
    }
  }

  @Test(arguments: encodedTexts)
  func percentEncodesEveryByteOutsideUnreserved(value: String, expected: String) throws {
    let template = try RedirectTemplate("myapp://t/:v?q=:v2")
    #expect(
      try template.fill(["v": .string(value), "v2": .string(value)])
        == "myapp://t/\(expected)?q=\(expected)")
  }

  @Test func percentEncodesEveryASCIIByteButTheUnreservedOnes() throws {
    let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    let hex = Array("0123456789ABCDEF")
    let template = try RedirectTemplate("<v>")
    for byte in UInt8(0)...UInt8(127) {
      let text = String(UnicodeScalar(byte))
      let expected =
        unreserved.contains(byte)
        ? text : "%" + String(hex[Int(byte / 16)]) + String(hex[Int(byte % 16)])
      #expect(try template.fill(["v": .string(text)]) == expected, "byte \(byte)")
    }
  }

  @Test func fillsDecodedURLValuesReEncoded() throws {
    let table = try redirectTable([
      #"{"pattern": "/s/:v", "redirect": "myapp://out/:v?w=<w>"}"#, outRoute,
    ])
    let resolution = table.resolve("/s/%E5%BC%A0%20x%2Fy?w=a+b%26c")
    #expect(resolution.redirects == ["myapp://out/%E5%BC%A0%20x%2Fy?w=a%20b%26c"])
    let route = try #require(matched(resolution))
    #expect(route.params == ["v": .string("张 x/y"), "w": .string("a b&c")])
    let raw = table.resolve("/s/张三?w=东")
    #expect(raw.redirects == ["myapp://out/%E5%BC%A0%E4%B8%89?w=%E4%B8%9C"])
    #expect(matched(raw)?.params == ["v": .string("张三"), "w": .string("东")])
  }

  @Test func writesUUIDCapturesInUppercase() throws {
    let table = try redirectTable([
      #"{"pattern": "/u/<uuid:id>", "redirect": "myapp://out/:id"}"#, outRoute,
    ])
    let resolution = table.resolve("/u/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d")
    #expect(resolution.redirects == ["myapp://out/0A1B2C3D-4E5F-6A7B-8C9D-0E1F2A3B4C5D"])
  }

  @Test func writesIntegerCapturesAsDecimal() throws {
    let table = try redirectTable([
      #"{"pattern": "/n/<int:v>", "redirect": "myapp://out/:v"}"#, outRoute,
    ])
    #expect(table.resolve("/n/-0042").redirects == ["myapp://out/-42"])
    #expect(table.resolve("/n/-0").redirects == ["myapp://out/0"])
    #expect(table.resolve("/n/007").redirects == ["myapp://out/7"])
  }

  // MARK: Which parameters fill the template

  @Test func dropsParametersTheTemplateDoesNotUse() throws {
    let table = try redirectTable([
      #"{"pattern": "/d/:a", "redirect": "myapp://out/:a"}"#, outRoute,
    ])
    let resolution = table.resolve("/d/A?x=1&y=2#frag")
    #expect(resolution.redirects == ["myapp://out/A"])
    let route = try #require(matched(resolution))
    #expect(route.params == ["v": .string("A")])
  }

  @Test func fillsFromQueryParametersToo() throws {
    let table = try redirectTable([
      #"{"pattern": "/m/:a", "redirect": "myapp://out/:b?a=:a"}"#, outRoute,
    ])
    let resolution = table.resolve("/m/1?b=2")
    #expect(resolution.redirects == ["myapp://out/2?a=1"])
    #expect(matched(resolution)?.params == ["v": .string("2"), "a": .string("1")])
  }

  @Test func aPlaceholderWithoutAValueFailsThatURL() throws {
    let table = try redirectTable([
      #"{"pattern": "/m/:a", "redirect": "myapp://out/:b"}"#, outRoute,
    ])
    expectFailed(table.resolve("/m/1"))
    expectFailed(table.resolve("/m/1", from: .external))
    #expect(table.resolve("/m/1?b=x").isMatched)
    #expect(throws: TemplateError.self) {
      try RedirectTemplate("myapp://out/:b").fill(["a": .string("1")])
    }
  }

  @Test func anArrayValueFailsThatURL() throws {
    let table = try redirectTable([
      #"{"pattern": "/m/:a", "redirect": "myapp://out/:b"}"#, outRoute,
    ])
    expectFailed(table.resolve("/m/1?b=2&b=3"))
    #expect(throws: TemplateError.self) {
      try RedirectTemplate("myapp://out/:b").fill(["b": .strings(["2", "3"])])
    }
    #expect(throws: TemplateError.self) {
      try RedirectTemplate("myapp://out/:b").fill(["b": .strings([])])
    }
  }

  @Test func renameAppliesBeforeFilling() throws {
    let table = try redirectTable([
      #"{"pattern": "/old/:id", "rename": {"id": "orderid"}, "redirect": "myapp://out/:orderid"}"#,
      #"{"pattern": "/gone/:id", "rename": {"id": "orderid"}, "redirect": "myapp://out/:id"}"#,
      #"{"pattern": "/sw/:a/:b", "rename": {"a": "b", "b": "a"}, "redirect": "myapp://out/:a?b=:b"}"#,
      outRoute,
    ])
    let old = table.resolve("/old/42")
    #expect(old.redirects == ["myapp://out/42"])
    #expect(old.isMatched)
    // The path capture `id` (over the query's `id`) was renamed away before filling.
    expectFailed(table.resolve("/gone/42"))
    expectFailed(table.resolve("/gone/42?id=7"))
    let swapped = table.resolve("/sw/1/2")
    #expect(swapped.redirects == ["myapp://out/2?b=1"])
  }

  @Test func theFinalRouteAppliesItsOwnRename() throws {
    let table = try redirectTable([
      #"{"pattern": "myapp://old-orders/:id", "redirect": "myapp://orders/:id"}"#,
      #"{"pattern": "myapp://orders/<int:id>", "screen": "order-detail", "rename": {"id": "orderid"}}"#,
    ])
    let resolution = table.resolve("myapp://old-orders/42")
    #expect(resolution.redirects == ["myapp://orders/42"])
    let route = try #require(matched(resolution))
    #expect(route.entry.index == 1)
    #expect(route.params == ["orderid": .int(42)])
    let unmatched = table.resolve("myapp://old-orders/abc")
    guard case .unmatched = unmatched.outcome else {
      Issue.record("expected no match, got \(unmatched.outcome)")
      return
    }
    #expect(unmatched.redirects == ["myapp://orders/abc"])
  }

  // MARK: Following redirects

  @Test func listsTheRedirectChainInOrder() throws {
    let table = try redirectTable([
      #"{"pattern": "/a/:x", "redirect": "/b/:x"}"#,
      #"{"pattern": "/b/:y", "redirect": "myapp://c/:y?from=b"}"#,
      #"{"pattern": "myapp://c/:z", "screen": "c"}"#,
    ])
    let resolution = table.resolve("tests://a/1")
    #expect(resolution.redirects == ["/b/1", "myapp://c/1?from=b"])
    let route = try #require(matched(resolution))
    #expect(route.entry.index == 2)
    #expect(route.entry.pattern.text == "myapp://c/:z")
    #expect(route.params == ["z": .string("1"), "from": .string("b")])
  }

  @Test func noRedirectMeansAnEmptyList() throws {
    let table = try redirectTable([outRoute])
    let resolution = table.resolve("myapp://out/1")
    #expect(resolution.isMatched)
    #expect(resolution.redirects.isEmpty)
  }

  /// `/h0` -> `/h1` -> ... -> `/h9`, which is a screen.
  private func hopTable() throws -> RouteTable {
    var entries = (0..<9).map { #"{"pattern": "/h\#($0)", "redirect": "/h\#($0 + 1)"}"# }
    entries.append(#"{"pattern": "/h9", "screen": "end"}"#)
    return try redirectTable(entries)
  }

  @Test func followsEightRedirectsInARow() throws {
    let resolution = try hopTable().resolve("/h1")
    #expect(resolution.redirects == (2...9).map { "/h\($0)" })
    let route = try #require(matched(resolution))
    #expect(route.entry.target == .screen("end"))
  }

  @Test func refusesANinthRedirectInARow() throws {
    let resolution = try hopTable().resolve("/h0")
    expectFailed(resolution)
  }

  @Test(.timeLimit(.minutes(1)))
  func refusesALoopWithoutHanging() throws {
    let table = try redirectTable([
      #"{"pattern": "/self", "redirect": "/self"}"#,
      #"{"pattern": "/l/a", "redirect": "/l/b"}"#,
      #"{"pattern": "/l/b", "redirect": "myapp://l/a"}"#,
      #"{"pattern": "/spell/:x", "redirect": "/spell/:x"}"#,
    ])
    expectFailed(table.resolve("/self"))
    expectFailed(table.resolve("myapp://self"))
    expectFailed(table.resolve("/l/a"))
    expectFailed(table.resolve("/l/b", from: .external))
    expectFailed(table.resolve("/spell/%7E"))
  }

  @Test(.timeLimit(.minutes(1)))
  func refusesALongLoop() throws {
    var entries = (0..<12).map { #"{"pattern": "/r\#($0)", "redirect": "/r\#(($0 + 1) % 12)"}"# }
    entries.append(#"{"pattern": "/exit", "screen": "exit"}"#)
    let table = try redirectTable(entries)
    expectFailed(table.resolve("/r0"))
    expectFailed(table.resolve("/r11"))
  }

  @Test(.timeLimit(.minutes(1)))
  func refusesAChainThatNeverRepeats() throws {
    // Each step produces a longer URL, so only the limit of 8 stops it.
    let table = try redirectTable([#"{"pattern": "/g/<path:p>", "redirect": "/g/:p/x"}"#])
    let resolution = table.resolve("/g/a")
    expectFailed(resolution)
  }

  // MARK: Outside URLs stay outside

  private func gateTable() throws -> RouteTable {
    try redirectTable([
      #"{"pattern": "myapp://pub/:id", "redirect": "myapp://mid/:id"}"#,
      #"{"pattern": "myapp://mid/:id", "redirect": "myapp://inside/:id"}"#,
      #"{"pattern": "myapp://inside/:id", "screen": "inside", "external": false}"#,
      #"{"pattern": "/inside/:id", "screen": "global-inside"}"#,
      #"{"pattern": "myapp://gate", "redirect": "myapp://open", "external": false}"#,
      #"{"pattern": "myapp://open", "screen": "open"}"#,
      #"{"pattern": "myapp://fine/:id", "redirect": "myapp://open?id=:id"}"#,
    ])
  }

  @Test func aRedirectNeverOpensAnInternalOnlyRouteForAnOutsideURL() throws {
    let table = try gateTable()
    let inside = table.resolve("myapp://pub/1")
    #expect(matched(inside)?.entry.target == .screen("inside"))
    #expect(inside.redirects == ["myapp://mid/1", "myapp://inside/1"])
    let outside = table.resolve("myapp://pub/1", from: .external)
    guard case .refused(let why) = outside.outcome else {
      Issue.record("expected a refusal, got \(outside.outcome)")
      return
    }
    #expect(!why.isEmpty)
  }

  @Test func anInternalOnlyRedirectRefusesAnOutsideURL() throws {
    let table = try gateTable()
    #expect(matched(table.resolve("myapp://gate"))?.entry.target == .screen("open"))
    let outside = table.resolve("myapp://gate", from: .external)
    guard case .refused = outside.outcome else {
      Issue.record("expected a refusal, got \(outside.outcome)")
      return
    }
    #expect(outside.redirects.isEmpty)
  }

  @Test func anOutsideURLFollowsRedirectsToOpenRoutes() throws {
    let table = try gateTable()
    let resolution = table.resolve("myapp://fine/7", from: .external)
    #expect(resolution.redirects == ["myapp://open?id=7"])
    #expect(matched(resolution)?.params == ["id": .string("7")])
  }
}
