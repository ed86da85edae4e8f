import Foundation
import TestSupport
import Testing

@testable import Interface
@testable import Render
@testable import Replay

// Key scripts and `appshell replay`'s errors for them.

/// Parses a script named `s.keys`.
private func parse(_ text: String) throws(KeyScriptError) -> [KeyScript.Step] {
  try KeyScript(parsing: text, file: "s.keys").steps
}

/// The error text of a script that must not parse.
private func parseError(
  _ text: String, sourceLocation: SourceLocation = #_sourceLocation
) -> String? {
  do {
    let steps = try parse(text)
    Issue.record("parsed into \(steps.count) steps", sourceLocation: sourceLocation)
    return nil
  } catch {
    return error.description
  }
}

private func keys(_ text: String) -> [KeyScript.Step] {
  text.map { .key(.character($0)) }
}

/// The special keys of key scripts, written out here rather than taken from the code.
private let specialKeys: [(String, Key)] = {
  var table: [(String, Key)] = [
    ("Enter", .enter), ("Esc", .escape), ("Tab", .tab), ("S-Tab", .backTab), ("Up", .up),
    ("Down", .down), ("Left", .left), ("Right", .right), ("Home", .home), ("End", .end),
    ("BS", .backspace), ("Del", .delete), ("PageUp", .pageUp), ("PageDown", .pageDown),
    ("lt", .character("<")),
  ]
  for number in 1...12 { table.append(("F\(number)", .function(number))) }
  for letter in "abcdefghijklmnopqrstuvwxyz" { table.append(("C-\(letter)", .control(letter))) }
  return table
}()

@Suite struct KeyScriptTests {
  // MARK: Keys

  @Test(arguments: specialKeys)
  func everyNamedKeyParses(name: String, key: Key) throws {
    #expect(try parse("<\(name)>") == [.key(key)])
    #expect(key.scriptName == (name == "lt" ? "<lt>" : "<\(name)>"))
  }

  @Test func theNamedKeysAreExactlyThoseOfTheSpec() {
    #expect(Key.named.count == specialKeys.count)
    for (name, key) in specialKeys { #expect(Key.named[name] == key, "\(name)") }
  }

  @Test func charactersAreTypedAsTheyStand() throws {
    let text = "myapp://user/张三?x=1 é😀 > ＡＢ"
    #expect(try parse(text) == keys(text))
  }

  @Test func ltIsALiteralLessThan() throws {
    #expect(try parse("a<lt>b") == keys("a<b"))
    #expect(try parse("<lt>Enter>") == keys("<Enter>"))
  }

  @Test func keysAndTextMix() throws {
    #expect(
      try parse("ab<Enter><C-a><F12>c") == [
        .key(.character("a")), .key(.character("b")), .key(.enter), .key(.control("a")),
        .key(.function(12)), .key(.character("c")),
      ])
  }

  // MARK: Directives

  @Test func snapTakesASnapshot() throws {
    #expect(try parse("<Snap>a<Snap>") == [.snapshot, .key(.character("a")), .snapshot])
  }

  @Test(arguments: [
    ("<Resize 100x30>", Size(columns: 100, rows: 30)), ("<Resize 1x1>", Size(columns: 1, rows: 1)),
    ("<Resize 200x60>", Size(columns: 200, rows: 60)),
    ("<Resize 19x5>", Size(columns: 19, rows: 5)),
  ])
  func resizeResizes(text: String, size: Size) throws {
    #expect(try parse(text) == [.resize(size)])
  }

  // MARK: Lines and comments

  @Test func lineBreaksAreNotKeys() throws {
    #expect(try parse("ab\ncd\n\n<Enter>\n") == keys("abcd") + [.key(.enter)])
    #expect(try parse("\n\n\n") == [])
    #expect(try parse("") == [])
  }

  @Test func aCommentIsALineWhoseFirstCharacterIsHash() throws {
    #expect(try parse("# a comment <Nope>\nab") == keys("ab"))
    #expect(try parse("x\n#\ny") == keys("xy"))
    #expect(try parse("#only") == [])
  }

  @Test func aHashElsewhereIsTyped() throws {
    #expect(try parse(" #x") == keys(" #x"))
    #expect(try parse("a#b") == keys("a#b"))
    #expect(try parse("<Enter>#x") == [.key(.enter)] + keys("#x"))
    #expect(try parse("\t#x") == keys("\t#x"))
  }

  @Test func aCarriageReturnEndingTheFileIsNotTyped() throws {
    #expect(try parse("ab\r") == keys("ab"))
  }

  // Regression (found by the fuzz-keyscript target, input "\r\r"): a lone "\r" was typed as
  // a character unless it ended a line, so the script written back ("\r") read as nothing.
  // A lone "\r" is a line break (old Mac files), like "\n" and "\r\n".
  @Test func aLoneCarriageReturnIsALineBreak() throws {
    #expect(try parse("\r\r") == [])
    #expect(try parse("a\rb") == keys("ab"))
    #expect(try parse("a\r# comment\rb") == keys("ab"))
    #expect(parseError("ok\r<Nope>") == "s.keys:2:1: unknown key <Nope>")
    // Also found by fuzz-keyscript: a combining mark that starts a line is a key of its own,
    // and must not join the previous key when the script is written back.
    for text in [
      "\r\r", "a\rb\r", "\r<Enter>\r\r#x", "\u{744}\u{55A}\n\u{744}\u{55A}\n", "\u{600}\n<Enter>",
    ] {
      let script = try KeyScript(parsing: text, file: "s.keys")
      #expect(
        try KeyScript(parsing: script.text, file: "again.keys") == script,
        "\(text.debugDescription)")
    }
  }

  // Regression: the script is cut into lines with `split(separator: "\n")` on a String, whose
  // elements are grapheme clusters; "\r\n" is one cluster, not "\n", so a CRLF file is one
  // long line: every line break is typed as the character "\r\n", comment lines after the
  // first are typed, and error lines are wrong.
  @Test func crlfFilesAreReadLikeLFFiles() throws {
    let text = "ab\r\ncd\r\n# comment <Nope>\r\n<Enter>\r\n"
    #expect(try parse(text) == keys("abcd") + [.key(.enter)])
  }

  // Regression (found by the escape-injection tests): an unknown key's name was echoed to
  // stderr as it stood, so a script could send terminal escapes through the error.
  @Test func anUnknownKeyNameIsEchoedInert() {
    #expect(
      parseError("<\u{1b}]0;pwned\u{7}>") == "s.keys:1:1: unknown key <\\x1b]0;pwned\\x07>")
    #expect(
      parseError("<Resize \u{202e}9x9>")
        == "s.keys:1:1: bad directive <Resize \\u{202e}9x9> (write <Resize 100x30>)")
  }

  @Test func crlfFilesReportTheRightLine() {
    #expect(parseError("ok\r\n<Nope>\r\n") == "s.keys:2:1: unknown key <Nope>")
  }

  // MARK: Errors

  @Test(arguments: [
    ("<Nope>", "s.keys:1:1: unknown key <Nope>"),
    ("abc<Nope>", "s.keys:1:4: unknown key <Nope>"),
    ("abc\n\nxy<Enter>z<Bad>", "s.keys:3:11: unknown key <Bad>"),
    ("<Enter><Snap><Resize 80x24><F13>", "s.keys:1:28: unknown key <F13>"),
    ("<F0>", "s.keys:1:1: unknown key <F0>"),
    ("<C-1>", "s.keys:1:1: unknown key <C-1>"),
    ("<>", "s.keys:1:1: unknown key <>"),
    ("<A><B>", "s.keys:1:1: unknown key <A>"),
    ("# <Fine>\n  <Nope>", "s.keys:2:3: unknown key <Nope>"),
  ])
  func unknownKeysAreReportedWithTheirPlace(text: String, message: String) {
    #expect(parseError(text) == message)
  }

  @Test(arguments: [
    ("张三<Nope>", "s.keys:1:3: unknown key <Nope>"),
    ("ＡＢＣ<Nope>", "s.keys:1:4: unknown key <Nope>"),
    ("中<lt>文<Nope>", "s.keys:1:7: unknown key <Nope>"),
    ("😀é<Nope>", "s.keys:1:3: unknown key <Nope>"),
    ("x\n가나다라<Nope>", "s.keys:2:5: unknown key <Nope>"),
  ])
  func theColumnIsCountedInCharacters(text: String, message: String) {
    #expect(parseError(text) == message)
  }

  @Test(arguments: [
    ("<", "s.keys:1:1: unclosed < (write <lt> for a literal <)"),
    ("ab<Enter", "s.keys:1:3: unclosed < (write <lt> for a literal <)"),
    ("<Ent\ner>", "s.keys:1:1: unclosed < (write <lt> for a literal <)"),
    ("ok\n张<", "s.keys:2:2: unclosed < (write <lt> for a literal <)"),
  ])
  func anUnclosedLessThanIsAnError(text: String, message: String) {
    #expect(parseError(text) == message)
  }

  @Test(arguments: [
    "Resize 0x5", "Resize abc", "Resize", "Resize 100x", "Resize x30", "Resize -1x5",
    "Resize 100X30", "Resize  100x30", "Resize 100x30 ", "Resize 100x0", "Resize 1x2x3",
    "Resize100x30", "Resize 100000x30",
  ])
  func aBadResizeIsAnError(directive: String) {
    #expect(
      parseError("ab\n<\(directive)>")
        == "s.keys:2:1: bad directive <\(directive)> (write <Resize 100x30>)")
  }

  @Test func anErrorMeansNoSteps() {
    // All or nothing: a script with an error late in it is refused whole.
    #expect(throws: KeyScriptError.self) {
      try KeyScript(parsing: "abc<Enter><Snap>\n<Nope>", file: "s.keys")
    }
  }

  // MARK: Round trip

  @Test func textParsesBackToTheSameSteps() throws {
    let source = "myapp://张三<lt>x><Enter><Snap>\n<Resize 100x30><C-a><F1><S-Tab> #<BS><Del>"
    let script = try KeyScript(parsing: source, file: "s.keys")
    let again = try KeyScript(parsing: script.text, file: "again.keys")
    #expect(again.steps == script.steps)
    #expect(again.text == script.text)
  }

  @Test func everyStepRoundTrips() throws {
    var steps: [KeyScript.Step] = specialKeys.map { .key($0.1) }
    steps += [.snapshot, .resize(Size(columns: 100, rows: 30)), .resize(Size(columns: 1, rows: 1))]
    steps += keys("a<>#中😀 ")
    #expect(try parse(KeyScript(steps: steps).text) == steps)
  }

  @Test func randomScriptsRoundTrip() throws {
    var generator = SeededGenerator(seed: 0x7363_7269)
    let typed = Array("abcXYZ019 :/?&=#<>~张三ＡＢ😀é-_.")
    for _ in 0..<300 {
      var steps: [KeyScript.Step] = []
      for _ in 0..<Int.random(in: 0...40, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: steps.append(.snapshot)
        case 1:
          steps.append(
            .resize(
              Size(
                columns: Int.random(in: 1...300, using: &generator),
                rows: Int.random(in: 1...100, using: &generator))))
        case 2...4: steps.append(.key(specialKeys.randomElement(using: &generator)!.1))
        default: steps.append(.key(.character(typed.randomElement(using: &generator)!)))
        }
      }
      // A script cannot start by typing `#`: that line would be a comment (see the report).
      if steps.first == .key(.character("#")) { steps.removeFirst() }
      let text = KeyScript(steps: steps).text
      #expect(try parse(text) == steps, "\(text)")
    }
  }

  // MARK: Through the command line

  @Test func aBadScriptExitsTwoWithItsPlaceOnStderrAndNothingOnStdout() throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let path = try writeFile(
        "# test\nmyapp://张三<Enter><Nope>\n<Snap>", named: "bad.keys", in: directory)
      let run = CapturedRun.run(["replay", path])
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr.hasSuffix("\(path):2:18: unknown key <Nope>\n"), "\(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1)
    }
  }

  @Test(arguments: [
    ("ab<Enter", ":1:3: unclosed <"), ("<Resize 0x5>", ":1:1: bad directive <Resize 0x5>"),
    ("x\n<Resize abc>", ":2:1: bad directive <Resize abc>"),
  ])
  func badScriptsThroughTheCommandLine(text: String, place: String) throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let path = try writeFile(text, named: "s.keys", in: directory)
      let run = CapturedRun.run(["replay", "--size", "40x10", path])
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr.contains(path + place), "\(run.stderr)")
    }
  }

  @Test(arguments: ["0x5", "abc", "80x", "x24", "80x24x1", "-80x24", "80 x24", "0x0", "", "80X24"])
  func aBadSizeExitsTwo(size: String) throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let path = try writeFile("<Snap>", named: "s.keys", in: directory)
      let run = CapturedRun.run(["replay", "--size", size, path])
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr.contains("--size"), "\(run.stderr)")
    }
  }

  @Test func aMissingSizeValueExitsTwo() {
    let run = CapturedRun.run(["replay", "--size"])
    #expect(run.status == 2)
    #expect(run.stdout == "")
    #expect(!run.stderr.isEmpty)
  }

  @Test(arguments: [
    ("not json", "routes.json"),
    (#"{"routes":[{"pattern":"myapp://x","screen":"home","guard":"no-such-guard"}]}"#, "guard"),
    (#"{"routes":[{"pattern":"myapp://<int:","screen":"home"}]}"#, "routes.json"),
    (#"{"routes":"many"}"#, "routes.json"),
  ])
  func anUnusableRouteTableExitsTwo(table: String, mention: String) throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let script = try writeFile("<Snap>", named: "s.keys", in: directory)
      let routes = try writeFile(table, named: "routes.json", in: directory)
      let run = CapturedRun.run(["replay", "--routes", routes, script])
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr.contains(mention), "\(run.stderr)")
    }
  }

  @Test func aMissingRouteTableExitsTwo() throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let script = try writeFile("<Snap>", named: "s.keys", in: directory)
      let run = CapturedRun.run(["replay", "--routes", directory.path + "/none.json", script])
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr.contains("none.json"))
    }
  }

  @Test func aMissingScriptExitsTwo() throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let run = CapturedRun.run(["replay", directory.path + "/none.keys"])
      #expect(run.status == 2)
      #expect(run.stdout == "")
      #expect(run.stderr.contains("none.keys"))
    }
  }

  @Test func aGoodScriptPrintsOneSnapshotPerSnapAndOneAtTheEnd() throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let path = try writeFile(
        "# open an order\nmyapp://orders/7<Enter><Snap>\n<Resize 30x8><Esc>", named: "ok.keys",
        in: directory)
      let run = CapturedRun.run(["replay", "--size", "40x10", path])
      #expect(run.status == 0)
      #expect(run.stderr == "")
      let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.last == "")
      #expect(lines.count == 1 + 10 + 1 + 8 + 1)
      #expect(lines.first == "=== snapshot 1 ===")
      #expect(lines.count > 11 && lines[11] == "=== snapshot 2 ===")
      for (index, line) in lines.enumerated() where !line.hasPrefix("===") {
        #expect(TextWidth.of(String(line)) <= (index < 11 ? 40 : 30), "\(line)")
        #expect(!hasUnsafeScalar(String(line)))
        #expect(line.last != " ")
      }
      #expect(lines.contains { $0.contains("Order 7") })
    }
  }

  @Test func stateModePrintsOneJSONLinePerSnapshot() throws {
    try TemporaryDirectory.with("frontend-tests") { directory in
      let path = try writeFile("<Snap><Tab><Snap>", named: "ok.keys", in: directory)
      let run = CapturedRun.run(["replay", "--state", path])
      #expect(run.status == 0)
      let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.count == 4)
      #expect(lines.last == "")
      #expect(lines.dropLast().allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") })
      #expect(lines.first?.contains(#""tab":0"#) == true)
      #expect(lines.count > 1 && lines[1].contains(#""tab":1"#))
    }
  }

  // MARK: Writing scripts (`appshell --record`)

  @Test func aRecordingPutsEachURLOnItsOwnLine() {
    var writer = KeyScriptWriter(breaksAfterEnter: true)
    let steps: [KeyScript.Step] =
      [.resize(Size(columns: 80, rows: 24))] + keys("ab") + [.key(.enter)] + keys("cd")
      + [.key(.enter), .key(.enter)] + keys("#x")
    let text = steps.map { writer.text(for: $0) }.joined()
    #expect(text == "<Resize 80x24>ab<Enter>\ncd<Enter>\n<Enter>#x")
  }

  @Test func aTypedHashNeverStartsALine() throws {
    var writer = KeyScriptWriter(breaksAfterEnter: true)
    let steps: [KeyScript.Step] = keys("a") + [.key(.enter)] + keys("#b")
    let text = steps.map { writer.text(for: $0) }.joined()
    #expect(text == "a<Enter>#b")
    #expect(try KeyScript(parsing: text, file: "r.keys").steps == steps)
  }

  /// Random steps, written one at a time, parse back to the same steps: every key, `<` and
  /// `#`, combining marks and other characters that join their neighbours, resizes, snaps.
  /// (Not a prepend character such as U+0600 before `#`: the `#` would have to start a line,
  /// which makes a comment, so that pair cannot be written.)
  @Test func writtenScriptsParseBackToTheSameSteps() throws {
    let characters: [Character] = [
      "a", "#", "<", ">", " ", "\u{301}", "\u{744}", "\u{55A}", "🇺", "🇸", "\u{200D}",
      "👩", "\u{1F3FD}", "ᄀ", "ᅡ", "ᆨ", "\t", "中",
    ]
    let special: [Key] = [
      .enter, .escape, .tab, .backTab, .up, .down, .home, .end, .backspace, .delete, .pageUp,
      .function(1), .function(12), .control("a"), .control("z"),
    ]
    var generator = SeededGenerator(seed: 0x5C21_7E57)
    for round in 0..<500 {
      var steps: [KeyScript.Step] = []
      for _ in 0..<Int.random(in: 1...30, using: &generator) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0: steps.append(.snapshot)
        case 1:
          steps.append(.resize(Size(columns: Int.random(in: 20...200, using: &generator), rows: 9)))
        case 2...4: steps.append(.key(special.randomElement(using: &generator)!))
        default: steps.append(.key(.character(characters.randomElement(using: &generator)!)))
        }
      }
      // A script starts with a resize when recorded; a '#' can then never start it.
      steps.insert(.resize(Size(columns: 80, rows: 24)), at: 0)
      var writer = KeyScriptWriter(breaksAfterEnter: round % 2 == 0)
      let text = steps.map { writer.text(for: $0) }.joined()
      let parsed = try KeyScript(parsing: text, file: "r.keys").steps
      #expect(parsed == steps, "\(text.debugDescription)")
      if parsed != steps { return }
    }
  }
}
