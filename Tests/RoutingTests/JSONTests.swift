import JSON
import TestSupport
import Testing

@testable import Routing

@Suite struct JSONTests {
  // MARK: Values

  @Test(arguments: [
    ("null", JSON.null),
    ("true", .bool(true)),
    ("false", .bool(false)),
    ("42", .number("42")),
    ("\"hi\"", .string("hi")),
    ("[]", .array([])),
    ("{}", .object([])),
    (" [1, \"a\", null] ", .array([.number("1"), .string("a"), .null])),
    (
      "{\"a\": {\"b\": [true]}}",
      .object([JSONMember("a", .object([JSONMember("b", .array([.bool(true)]))]))])
    ),
    ("\t\r\n false \n", .bool(false)),
  ])
  func parsesEveryKind(text: String, expected: JSON) throws {
    #expect(try JSON.parse(text) == expected)
    #expect(try JSON.parse(Array(text.utf8)) == expected)
  }

  @Test func keepsMemberOrder() throws {
    let value = try JSON.parse(#"{"zeta": 1, "alpha": 2, "mid": {"y": 0, "x": 1}}"#)
    #expect(value.keys == ["zeta", "alpha", "mid"])
    #expect(value["mid"]?.keys == ["y", "x"])
    #expect(value.serialized == #"{"zeta":1,"alpha":2,"mid":{"y":0,"x":1}}"#)
  }

  @Test(arguments: [
    "0", "-0", "1.50", "1e3", "1E+3", "-2.5e-3", "0.000", "123456789012345678901234567890",
  ])
  func keepsNumberText(text: String) throws {
    #expect(try JSON.parse(text) == .number(text))
    #expect(try JSON.parse(text).serialized == text)
    #expect(try JSON.parse("[\(text)]").serialized == "[\(text)]")
  }

  @Test func numbersCompareByText() throws {
    #expect(try JSON.parse("1.0") != JSON.parse("1"))
  }

  @Test func subscriptAndKeys() throws {
    let value = try JSON.parse(#"{"path": "/users/:id", "methods": ["GET"]}"#)
    #expect(value["path"] == .string("/users/:id"))
    #expect(value["methods"] == .array([.string("GET")]))
    #expect(value["missing"] == nil)
    #expect(JSON.array([.null])["path"] == nil)
    #expect(JSON.string("x").keys == [])
    #expect(JSON.object([]).keys == [])
  }

  @Test(arguments: [
    (JSON.null, "null"),
    (.bool(false), "a boolean"),
    (.number("1"), "a number"),
    (.string(""), "a string"),
    (.array([]), "an array"),
    (.object([]), "an object"),
  ])
  func kindDescription(value: JSON, expected: String) {
    #expect(value.kindDescription == expected)
  }

  @Test(arguments: [
    (JSON.number("42"), 42 as Int?),
    (.number("-7"), -7),
    (.number("0"), 0),
    (.number("-0"), 0),
    (.number("9223372036854775807"), Int.max),
    (.number("-9223372036854775808"), Int.min),
    (.number("9223372036854775808"), nil),
    (.number("1.0"), nil),
    (.number("1e3"), nil),
    (.number("+1"), nil),
    (.number("01"), nil),
    (.number(""), nil),
    (.number("-"), nil),
    (.number(" 1"), nil),
    (.string("1"), nil),
    (.null, nil),
  ])
  func intValue(value: JSON, expected: Int?) {
    #expect(value.intValue == expected)
  }

  // MARK: Strings

  @Test(arguments: [
    (#""\"\\\/\b\f\n\r\t""#, "\"\\/\u{8}\u{C}\n\r\t"),
    (#""\u0041\u00e9\u00E9\u20AC""#, "Aéé€"),
    (#""\uD83D\uDE00""#, "😀"),
    (#""\ud83d\ude00!""#, "😀!"),
    (#""\uDBFF\uDFFF""#, "\u{10FFFF}"),
    ("\"😀 é\"", "😀 é"),
    (#""a\u0000b""#, "a\u{0}b"),
    (#""\u2028""#, "\u{2028}"),
    (#""no escapes at all""#, "no escapes at all"),
    (#""""#, ""),
  ])
  func decodesEscapes(text: String, expected: String) throws {
    #expect(try JSON.parse(text) == .string(expected))
  }

  @Test(arguments: [
    ("plain", #""plain""#),
    ("a\"b\\c", #""a\"b\\c""#),
    ("\n\r\t\u{8}\u{C}", #""\n\r\t\b\f""#),
    ("\u{0}\u{1}\u{1F}\u{7F}", #""\u0000\u0001\u001f\u007f""#),
    ("\u{2028}x\u{2029}", #""\u2028x\u2029""#),
    ("\u{2027}\u{2030}\u{20AC}", "\"\u{2027}\u{2030}\u{20AC}\""),
    // C1 controls, bidi controls and invisible format characters never reach a terminal raw.
    ("\u{80}\u{9B}\u{9F}\u{A0}", "\"\\u0080\\u009b\\u009f\u{A0}\""),
    ("\u{202E}x\u{2066}\u{200B}\u{FEFF}\u{61C}", #""\u202ex\u2066\u200b\ufeff\u061c""#),
    ("\u{FFFD}\u{FFF9}\u{600}\u{2060}", "\"\u{FFFD}\\ufff9\u{600}\\u2060\""),
    ("a/b", #""a/b""#),
    ("😀é", "\"😀é\""),
    ("\"\u{301}", "\"\\\"\u{301}\""),
    ("\u{301}x", "\"\u{301}x\""),
    ("", #""""#),
  ])
  func escapesStrings(raw: String, expected: String) throws {
    #expect(JSON.quote(raw) == expected)
    var out = "k="
    JSON.quote(raw, into: &out)
    #expect(out == "k=" + expected)
    #expect(JSON.string(raw).serialized == expected)
    #expect(try JSON.parse(expected) == .string(raw))
  }

  @Test func escapesEveryControlCharacter() throws {
    for code in UInt8(0)..<0x20 {
      let raw = String(UnicodeScalar(code))
      let quoted = JSON.quote(raw)
      #expect(quoted.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "\(code)")
      #expect(try JSON.parse(quoted) == .string(raw))
    }
  }

  // MARK: Writing

  @Test func writesCompactly() {
    let value = JSON.object([
      JSONMember("b", .array([.number("1"), .bool(true), .bool(false), .null])),
      JSONMember("a\"", .object([JSONMember("x", .string("y\n"))])),
      JSONMember("n", .number("-2.50e3")),
    ])
    let expected = #"{"b":[1,true,false,null],"a\"":{"x":"y\n"},"n":-2.50e3}"#
    #expect(value.serialized == expected)
  }

  @Test(arguments: [
    JSON.null, .bool(true), .number("1.5"), .string("q\""), .array([.null, .null]),
    .object([JSONMember("k", .array([]))]),
  ])
  func writeAppends(value: JSON) {
    var out = "> "
    value.write(to: &out)
    #expect(out == "> " + value.serialized)
  }

  @Test(arguments: [
    (
      #" { "b" : [ 1 , 2.50, -0, 1e3, true, false, null ], "a": {"x": "y\u0041\/"} } "#,
      #"{"b":[1,2.50,-0,1e3,true,false,null],"a":{"x":"yA/"}}"#
    ),
    (#"["\u001F\u007f\u2029\ud83d\ude00"]"#, "[\"\\u001f\\u007f\\u2029😀\"]"),
    ("[[[]], {}, [{}]]", "[[[]],{},[{}]]"),
    ("\"\"", "\"\""),
  ])
  func roundTrips(text: String, compact: String) throws {
    let value = try JSON.parse(text)
    #expect(value.serialized == compact)
    #expect(try JSON.parse(value.serialized) == value)
  }

  // MARK: Errors

  @Test(arguments: [
    ErrorCase("", 1, 1, "empty input"),
    ErrorCase(" \n  ", 2, 3, "empty input"),
    ErrorCase(
      "[1, 2,]", 1, 7, "expected a JSON value after ',' (trailing commas are not allowed)"),
    ErrorCase(
      "{\"a\": 1,\n}", 2, 1, "expected a string key after ',' (trailing commas are not allowed)"),
    ErrorCase("{\"a\" 1}", 1, 6, "expected ':' after the key"),
    ErrorCase("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}'"),
    ErrorCase("[1 2]", 1, 4, "expected ',' or ']'"),
    ErrorCase("[1, 2", 1, 6, "unexpected end of input; expected ',' or ']'"),
    ErrorCase("{,}", 1, 2, "expected a string key or '}'"),
    ErrorCase("{\"a\":1,2}", 1, 8, "expected a string key"),
    ErrorCase("{\"a\":}", 1, 6, "expected a JSON value"),
    ErrorCase("[,1]", 1, 2, "expected a JSON value"),
    ErrorCase(
      "{\"k\": \"abc", 1, 11, "unterminated string starting at line 1, column 7; expected '\"'"),
    ErrorCase(
      "\"abc\\", 1, 6, "unterminated string starting at line 1, column 1; expected '\"'"),
    ErrorCase(
      "\"\\u12", 1, 6, "unterminated string starting at line 1, column 1; expected '\"'"),
    ErrorCase(
      "[\"a\\x\"]", 1, 4,
      "invalid escape '\\x'; expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u"),
    ErrorCase("\"\\u12G4\"", 1, 2, "invalid escape; expected 4 hex digits after '\\u'"),
    ErrorCase(
      "\"\\uD800\"", 1, 2, "lone surrogate \\uD800; expected a \\uDC00-\\uDFFF escape after it"),
    ErrorCase(
      "\"ab\\uD83D\\u0041\"", 1, 4,
      "lone surrogate \\uD83D; expected a \\uDC00-\\uDFFF escape after it"),
    ErrorCase(
      "\"\\uD83D\\uD83D\"", 1, 2,
      "lone surrogate \\uD83D; expected a \\uDC00-\\uDFFF escape after it"),
    ErrorCase(
      "\"x\\uDE00\"", 1, 3, "lone surrogate \\uDE00; expected a \\uD800-\\uDBFF escape before it"),
    ErrorCase("\"a\tb\"", 1, 3, "control character U+0009 in string; expected it escaped"),
    ErrorCase(
      "{\n  \"line\": \"one\ntwo\"}", 2, 15,
      "control character U+000A in string; expected it escaped"),
    ErrorCase("{\"name\": 1,\n \"name\": 2}", 2, 2, "duplicate key \"name\""),
    ErrorCase("{\"a\\\"b\": 1, \"a\\u0022b\": 2}", 1, 13, "duplicate key \"a\\\"b\""),
    ErrorCase("{} x", 1, 4, "unexpected text after the JSON value"),
    ErrorCase("1 2", 1, 3, "unexpected text after the JSON value"),
    ErrorCase("truex", 1, 5, "unexpected text after the JSON value"),
    ErrorCase("tru", 1, 4, "unexpected end of input; expected 'true'"),
    ErrorCase("nul1", 1, 4, "expected 'null'"),
    ErrorCase("[fals]", 1, 6, "expected 'false'"),
    ErrorCase("01", 1, 1, "leading zeros are not allowed in numbers"),
    ErrorCase("-", 1, 2, "unexpected end of input; expected a digit after '-'"),
    ErrorCase("-a", 1, 2, "expected a digit after '-'"),
    ErrorCase("[1.e3]", 1, 4, "expected a digit after '.'"),
    ErrorCase("1e+", 1, 4, "unexpected end of input; expected a digit in the exponent"),
    ErrorCase("+1", 1, 1, "expected a JSON value"),
    ErrorCase(".5", 1, 1, "expected a JSON value"),
    ErrorCase("'a'", 1, 1, "expected a JSON value"),
    ErrorCase("[NaN]", 1, 2, "expected a JSON value"),
    ErrorCase("\u{FEFF}{}", 1, 1, "unexpected byte order mark; expected a JSON value"),
    ErrorCase(
      "[1,\r\n2,\r\n]", 3, 1, "expected a JSON value after ',' (trailing commas are not allowed)"),
    ErrorCase("[1,\r2 3]", 2, 3, "expected ',' or ']'"),
    // Columns count Unicode scalars, not bytes: é is 2 bytes, 😀 is 4.
    ErrorCase("[\"é😀\" x]", 1, 7, "expected ',' or ']'"),
    ErrorCase("{\"é\":1,\n\"😀\":2 3}", 2, 7, "expected ',' or '}'"),
  ])
  func reportsErrors(_ testCase: ErrorCase) {
    let expected = JSONParseError(
      line: testCase.line, column: testCase.column, message: testCase.message)
    #expect(throws: expected) { try JSON.parse(testCase.text) }
    #expect(throws: expected) { try JSON.parse(Array(testCase.text.utf8)) }
  }

  @Test(arguments: [
    ByteErrorCase(
      bytes: [0x22, 0xC3, 0x28, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x22, 0xC0, 0x80, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x22, 0xE0, 0x80, 0x80, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(bytes: [0x22, 0x80, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(bytes: [0x22, 0xFF, 0x22], column: 2, message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x22, 0x61, 0xE2, 0x82], column: 3, message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x22, 0xC3, 0xA9, 0xE2, 0x82, 0x41, 0x22], column: 3,
      message: "invalid UTF-8 in string"),
    ByteErrorCase(
      bytes: [0x5B, 0xC3, 0xA9, 0x5D], column: 2, message: "expected a JSON value"),
  ])
  func refusesInvalidUTF8(_ testCase: ByteErrorCase) {
    #expect(throws: JSONParseError(line: 1, column: testCase.column, message: testCase.message)) {
      try JSON.parse(testCase.bytes)
    }
  }

  @Test func acceptsValidUTF8Bytes() throws {
    let bytes: [UInt8] = [0x22, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0x22]
    #expect(try JSON.parse(bytes) == .string("é€😀"))
  }

  @Test func duplicateKeysInLargeObjects() throws {
    // Past 16 members duplicates are found through a set; the position must still be exact.
    let members = (0..<40).map { "\"k\($0)\": \($0)" }
    let unique = "{" + members.joined(separator: ", ") + "}"
    #expect(try JSON.parse(unique).keys.count == 40)
    let text = "{" + members.joined(separator: ",\n") + ",\n\"k3\": 0}"
    #expect(throws: JSONParseError(line: 41, column: 1, message: "duplicate key \"k3\"")) {
      try JSON.parse(text)
    }
  }

  @Test(arguments: [2, 40])
  func keysCompareAsSwiftStrings(memberCount: Int) {
    // "é" precomposed and decomposed are equal Swift strings, so they are the same key, both in
    // small objects (linear scan) and large ones (set).
    let filler = (0..<memberCount).map { "\"f\($0)\": 0, " }.joined()
    let text = "{" + filler + "\"\\u00e9\": 1, \"e\\u0301\": 2}"
    let error = #expect(throws: JSONParseError.self) { try JSON.parse(text) }
    #expect(error?.message == "duplicate key \"e\u{301}\"")
    // The second key's quote follows "{", the filler and `"\u00e9": 1, ` (13 characters).
    #expect(error?.column == 1 + filler.unicodeScalars.count + 13 + 1)
  }

  @Test func errorDescription() {
    let error = JSONParseError(line: 3, column: 5, message: "expected ',' or '}'")
    #expect(error.description == "line 3, column 5: expected ',' or '}'")
    #expect("\(error)" == "line 3, column 5: expected ',' or '}'")
  }

  // MARK: Depth

  @Test func depthLimit() throws {
    let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect(try JSON.parse(ok).serialized == ok)
    let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(throws: JSONParseError(line: 1, column: 65, message: "nesting deeper than 64")) {
      try JSON.parse(deep)
    }
    let objects = String(repeating: "{\"a\":", count: 3) + "1" + String(repeating: "}", count: 3)
    #expect(try JSON.parse(objects, maxDepth: 3)["a"]?["a"]?["a"] == .number("1"))
    #expect(throws: JSONParseError(line: 1, column: 11, message: "nesting deeper than 2")) {
      try JSON.parse(objects, maxDepth: 2)
    }
    #expect(try JSON.parse("7", maxDepth: 0) == .number("7"))
    #expect(throws: JSONParseError(line: 1, column: 1, message: "nesting deeper than 0")) {
      try JSON.parse("[]", maxDepth: 0)
    }
  }

  @Test func deepNestingDoesNotRecurse() throws {
    // The parser keeps its own stack, so a huge maxDepth cannot overflow the call stack.
    let open = String(repeating: "[", count: 1_000_000)
    #expect(
      throws: JSONParseError(
        line: 1, column: 1_000_001, message: "unexpected end of input; expected a JSON value")
    ) {
      try JSON.parse(open, maxDepth: .max)
    }
    let nested = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
    #expect(try JSON.parse(nested, maxDepth: 2_000).serialized == nested)
  }

  // MARK: Robustness

  @Test func parsesLargeInputs() throws {
    // About 10 MB: a long array of route-like objects, a long escaped string and a wide object.
    let entry = #"{"path":"/users/:id/posts/\u00e9","n":-12.5e3,"ok":true},"#
    let entries = String(repeating: entry, count: 100_000)
    let array = try JSON.parse("[" + entries.dropLast() + "]")
    guard case .array(let elements) = array else {
      Issue.record("expected an array")
      return
    }
    #expect(elements.count == 100_000)
    #expect(elements.last?["path"] == .string("/users/:id/posts/é"))

    let escapes = "\"" + String(repeating: #"\n\u00e9\ud83d\ude00"#, count: 200_000) + "\""
    #expect(try JSON.parse(escapes) == .string(String(repeating: "\né😀", count: 200_000)))

    let wide = "{" + (0..<100_000).map { "\"key\($0)\":\($0)" }.joined(separator: ",") + "}"
    let object = try JSON.parse(wide)
    #expect(object.keys.count == 100_000)
    #expect(object["key99999"]?.intValue == 99_999)
  }

  @Test func survivesMutatedInput() throws {
    let seed = Array(
      #"""
      {"routes": [{"path": "/a/:id", "methods": ["GET", "PUT"], "weight": 1.5e2},
       {"path": "/b\u00e9\ud83d\ude00\n", "auth": null, "on": true, "off": false, "n": -0}]}
      """#.utf8)
    let alphabet: [UInt8] =
      Array(#"{}[]:,"\/ubfnrt0123456789-+.eEtruefalsenull "#.utf8) + [
        0x00, 0x0A, 0x0D, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF,
      ]
    var random = SeededGenerator(seed: 2_024)
    var accepted = 0
    var refused = 0
    for _ in 0..<3_000 {
      var bytes = seed
      for _ in 0...random.below(4) {
        let at = random.below(bytes.count)
        switch random.below(4) {
        case 0: bytes[at] = alphabet[random.below(alphabet.count)]
        case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: at)
        case 2: bytes.remove(at: at)
        default: bytes.removeSubrange(at...)
        }
        if bytes.isEmpty { break }
      }
      let value: JSON
      do {
        value = try JSON.parse(bytes)
      } catch {
        let lineBreaks = bytes.count { $0 == 0x0A || $0 == 0x0D }
        #expect(error.line >= 1 && error.line <= lineBreaks + 1)
        #expect(error.column >= 1 && error.column <= bytes.count + 1)
        #expect(!error.message.isEmpty)
        refused += 1
        continue
      }
      #expect(try JSON.parse(value.serialized) == value)
      accepted += 1
    }
    #expect(accepted > 0)
    #expect(refused > 0)
  }

  @Test func stringAndByteInputsAgree() throws {
    let text = "{\"a\": [1, \"é\", {\"b\": null}]}"
    #expect(try JSON.parse(text) == JSON.parse(Array(text.utf8)))
  }

  @Test func valuesAreSendable() async throws {
    let value = try JSON.parse(#"{"a": [1, "x"]}"#)
    let copy = await Task.detached { value.serialized }.value
    #expect(copy == #"{"a":[1,"x"]}"#)
  }
}

extension JSONTests {
  /// A document that must fail to parse, and where and why.
  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var column: Int
    var message: String

    init(_ text: String, _ line: Int, _ column: Int, _ message: String) {
      self.text = text
      self.line = line
      self.column = column
      self.message = message
    }

    var testDescription: String { text.debugDescription }
  }

  /// Raw bytes that must fail to parse, and the column of the offending byte (all on line 1).
  struct ByteErrorCase: Sendable, CustomTestStringConvertible {
    var bytes: [UInt8]
    var column: Int
    var message: String

    var testDescription: String { bytes.map { String($0, radix: 16) }.joined(separator: " ") }
  }
}
