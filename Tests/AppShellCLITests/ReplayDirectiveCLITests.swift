import Foundation
import Testing

@testable import AppRuntime
@testable import AppShellCLI
@testable import Interface
@testable import Replay

/// `appshell replay` with expectations, `--open`, `--format`; `appshell openurl --json` and
/// `--strict`; `--record` writing what arrived from outside and the pauses.
@Suite struct ReplayDirectiveCLITests {
  static func script(_ text: String, in directories: PrivateDirectories, name: String = "s.keys")
    throws -> String
  {
    let path = directories.root + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func replay(_ arguments: [String]) -> CapturedRun {
    CapturedRun.run(["replay", "--screens", GoldenScripts.screens] + arguments)
  }

  @Test func aFailedExpectationPrintsTheSnapshotsThenTheScreenAtThatMoment() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script(
      "myapp://orders/42<Enter><Snap>\n<Expect \"Order 43\">myapp://me<Enter>", in: directories)
    let run = Self.replay(["--size", "40x6", path])
    #expect(run.status == 1)
    #expect(run.stderr == "\(path):2:1: expected \"Order 43\" on the screen\n")
    let lines = run.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "=== snapshot 1 ===")
    #expect(lines[7] == "=== failed at \(path):2:1 ===")
    // Exactly ROWS lines after the header, and nothing else.
    #expect(lines.count == 7 + 1 + 6 + 1)
    #expect(lines[8] == "‹ Home          Order 42")
    #expect(lines.last == "")
    // With --state: the states so far, then one line with the state at the failure.
    let states = Self.replay(["--state", path])
    #expect(states.status == 1)
    let stateLines = states.text.split(separator: "\n")
    #expect(stateLines.count == 2)
    #expect(stateLines.allSatisfy { $0.hasPrefix("{\"tab\":") })
    // A golden is not compared (nor written) after a failure.
    let golden = directories.root + "/s.golden"
    let expect = Self.replay(["--expect", golden, "--update", path])
    #expect(expect.status == 1)
    #expect(!FileManager.default.fileExists(atPath: golden))
  }

  @Test func aMalformedDirectiveIsAScriptErrorAndNothingRuns() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script("abc<Wait 2>", in: directories)
    let run = Self.replay([path])
    #expect(run.status == 2)
    #expect(run.text == "")
    #expect(
      run.stderr
        == "\(path):1:4: bad directive <Wait 2> (write <Wait 1.5s>, from 0 to 3600 seconds)\n")
  }

  @Test func openStartsColdWithAURLFromOutside() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script("<ExpectScreen order-detail><Expect \"Orders\">", in: directories)
    #expect(Self.replay(["--open", "myapp://orders/42", path]).status == 0)
    let refused = Self.replay(["--open", "myapp://debug/reset", path])
    #expect(refused.status == 1)
    #expect(refused.stderr == "\(path):1:1: expected screen order-detail, the top screen is home\n")
    #expect(refused.text.contains("Refused"))
  }

  @Test func formatAnsiColoursTheScreensButNotTheHeaders() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script("myapp://orders/42<Enter>", in: directories)
    let run = Self.replay(["--format", "ansi", "--size", "40x6", path])
    #expect(run.status == 0)
    let lines = run.text.split(separator: "\n")
    #expect(lines[0] == "=== snapshot 1 ===")
    #expect(lines.count == 7)
    #expect(lines.dropFirst().allSatisfy { $0.hasSuffix("\u{1B}[0m") })
    // The bold title, cyan unless NO_COLOR is set.
    let title = ScreenFormat.colors ? "\u{1B}[0;1;36mOrder 42" : "\u{1B}[0;1mOrder 42"
    #expect(lines[1].contains(title), "\(lines[1])")
    // The text under the escapes is the text format's (where styled blanks may follow).
    let text = Self.replay(["--size", "40x6", path]).text
    let stripped = run.text.replacingOccurrences(
      of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression
    ).replacingOccurrences(of: " +\n", with: "\n", options: .regularExpression)
    #expect(stripped == text)
  }

  @Test func formatSvgWritesOneImagePerSnapshot() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script("<Snap>myapp://orders/42<Enter><Expect \"Nope\">", in: directories)
    let output = directories.root + "/images"
    let run = Self.replay(["--format", "svg", "--output", output, path])
    #expect(run.status == 1)
    #expect(run.text == "wrote \(output)/snapshot-1.svg\nwrote \(output)/failed.svg\n")
    let svg = try String(contentsOfFile: output + "/failed.svg", encoding: .utf8)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"432\""))
    #expect(svg.contains("Order 42"))
    #expect(
      Self.replay(["--format", "svg", path]).stderr.contains("--format svg needs --output DIR"))
  }

  @Test func formatCastIsARecordingOfEveryFrame() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script("myapp://me<Enter><Wait 3s>", in: directories)
    let run = Self.replay(["--format", "cast", "--size", "40x6", path])
    #expect(run.status == 0)
    let lines = run.text.split(separator: "\n")
    #expect(lines.first == #"{"version":2,"width":40,"height":6}"#)
    #expect(lines.count == 14, "the header, the first screen, one per key, one after the wait")
    #expect(lines[12].hasPrefix("[1.100,\"o\","), "\(lines[12])")
    #expect(lines[13].hasPrefix("[4.100,\"o\","), "\(lines[13])")
    #expect(lines[13].dropFirst(6) == lines[12].dropFirst(6), "the same screen, 3 s later")
  }

  @Test(arguments: [
    (["--format", "gif"], "--format is text, ansi, svg or cast, not 'gif'"),
    (["--output", "x"], "--output goes with --format svg or cast"),
    (["--format", "cast", "--expect", "g"], "--expect compares text or ansi screens, or states"),
    (["--open"], "--open needs a value"),
  ])
  func badReplayOptionsExit2(arguments: [String], message: String) {
    let run = Self.replay(["s.keys"] + arguments)
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("appshell replay: \(message)\n"), "\(run.stderr)")
  }

  @Test func theRecorderWritesOpenPushAndPausesOfASecondOrMore() throws {
    let directories = try PrivateDirectories()
    let path = directories.root + "/r.keys"
    let clock = TestClock()
    let recorder = try KeyRecorder(
      path: path, replayOptions: ["--open", "myapp://me"], now: { clock.now })
    recorder.record(.resize(Size(columns: 80, rows: 24)))
    clock.now += .milliseconds(999)
    recorder.record(.open("myapp://user/a>b\nc"))
    clock.now += .milliseconds(1049)
    recorder.record(
      .push(try KeyScript.Push(text: #"{"aps":{"alert":"Hi"},"url":"myapp://orders/1"}"#)))
    clock.now += .seconds(2)
    recorder.record(.key(.character("x")))
    clock.now += .seconds(5000)
    recorder.record(.key(.enter))
    recorder.record(.open(""))
    recorder.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines[0].hasSuffix("appshell replay --open myapp://me \(path)"))
    #expect(
      lines[1]
        == #"<Resize 80x24><Open myapp://user/a%3Eb%0Ac><Wait 1s><Push {"aps":{"alert":"Hi"},"url":"myapp://orders/1"}><Wait 2s>x<Wait 3600s><Enter>"#
    )
    let script = try KeyScript(parsing: text, file: path)
    #expect(script.steps.count == 8)
  }

  final class TestClock: @unchecked Sendable {
    var now: Duration = .zero
  }
}

/// `appshell openurl --json` and `--strict` against a running app.
@Suite struct OpenURLJSONTests {
  @Test func jsonSaysWhatOpeningTheURLDidAndStrictFailsWhenItDidNotOpen() throws {
    let app = try HeadlessApp()
    try app.start()
    defer { _ = app.stop() }
    let opened = try app.client(["openurl", "--json", "--strict", "myapp://orders/42"])
    #expect(opened.status == 0, "\(opened.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(opened.stdout.utf8)) as? [String: Any])
    #expect(object["ok"] as? Bool == true)
    #expect(object["opens"] as? String == "app")
    #expect(object["matched"] as? Bool == true)
    #expect(object["pattern"] as? String == "myapp://orders/<int:id>")
    #expect((object["params"] as? [String: Any])?["orderid"] as? Int == 42)
    #expect((object["outcome"] as? String)?.hasSuffix("pushed order-detail") == true)
    #expect(object["screen"] as? String == "order-detail")
    #expect(object["tab"] as? String == "Home")
    #expect(object["refused"] is NSNull)
    #expect(
      opened.stdout.hasPrefix(#"{"ok":true,"opens":"app","matched":true,"pattern":"#),
      "members in order: \(opened.stdout)")

    let refused = try app.client(["openurl", "--json", "--strict", "myapp://debug/reset"])
    #expect(refused.status == 1, "refused: --strict exits 1 and still prints")
    let why = try #require(
      try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])
    #expect((why["refused"] as? String)?.contains("came from an outside URL") == true)
    #expect(why["matched"] as? Bool == false)

    let safari = try app.client(
      ["openurl", "--json", "--strict", "https://appshell.example.com/help"])
    #expect(safari.status == 1, "opened in Safari: --strict exits 1 and still prints")
    let elsewhere = try #require(
      try JSONSerialization.jsonObject(with: Data(safari.stdout.utf8)) as? [String: Any])
    #expect(elsewhere["opens"] as? String == "safari")
    #expect(elsewhere["screen"] as? String == "order-detail", "the app stayed where it was")

    let unmatched = try app.client(["openurl", "--strict", "myapp://nowhere"])
    #expect(unmatched.status == 1)
    #expect(unmatched.stdout.contains("No route"), "the usual line: \(unmatched.stdout)")
    let plain = try app.client(["openurl", "myapp://nowhere"])
    #expect(plain.status == 0, "without --strict an unmatched URL is not an error")
  }

  @Test func jsonWithoutARunningAppSaysSo() throws {
    let app = try HeadlessApp()
    let result = try app.client(["openurl", "--json", "myapp://orders/1"])
    #expect(result.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["ok"] as? Bool == false)
    #expect((object["error"] as? String)?.isEmpty == false, "\(result.stdout)")
    #expect(result.stderr.hasPrefix("appshell openurl: "))
  }
}

/// `appshell replay`: async work on the virtual clock, the size a script asks for, where
/// recordings go, what `ansi` shows, and the top-level help.
@Suite struct ReplayRunTests {
  static func script(_ text: String, in directories: PrivateDirectories) throws -> String {
    try ReplayDirectiveCLITests.script(text, in: directories)
  }

  static func replay(_ arguments: [String]) -> CapturedRun {
    ReplayDirectiveCLITests.replay(arguments)
  }

  /// An app whose actions start one another: `a1` then `a2`, a second each; `b1` then `b2`,
  /// 50 ms each (both within one key's tenth of a second).
  static let chain: [String: String] = [
    "app.json": #"""
    {"name":"Chain","version":"1.0","tabs":[{"title":"Home","root":"shop://home"}],
     "actions":{"a1":{"after":1,"status":"first done","then":"shop://a2"},
                "a2":{"after":1,"status":"second done"},
                "b1":{"after":0.05,"then":"shop://b2"},
                "b2":{"after":0.05,"status":"quick done"}}}
    """#,
    "routes.json": #"""
    {"routes":[{"pattern":"shop://home","screen":"home"},
      {"pattern":"shop://a1","action":"a1"},{"pattern":"shop://a2","action":"a2"},
      {"pattern":"shop://b1","action":"b1"},{"pattern":"shop://b2","action":"b2"}]}
    """#,
    "home.json": #"{"name":"home","title":"Home"}"#,
  ]

  /// Work started by work is timed from when that work finished: one long wait is the same as
  /// several short ones, and a key's tenth of a second runs a chain within it.
  @Test func workStartedByWorkRunsAtItsTimeWithinOneWait() throws {
    let directories = try PrivateDirectories()
    let app = try AppDirectoryTests.write(Self.chain, in: directories)
    for script in [
      #"shop://a1<Enter><Wait 2.5s><Expect "second done">"#,
      #"shop://a1<Enter><Wait 1.5s><Wait 1s><Expect "second done">"#,
      #"shop://b1<Enter><Expect "quick done">"#,
    ] {
      let run = try AppDirectoryTests.replay(app, script, state: false)
      #expect(run.status == 0, "\(script): \(run.stderr)")
    }
    let early = try AppDirectoryTests.replay(
      app, #"shop://a1<Enter><Wait 1.8s><ExpectNot "second done">"#, state: false)
    #expect(early.status == 0, "\(early.stderr)")
  }

  /// `replay` runs a script at the size its `# size:` comment asks for, as `test` does;
  /// `--size` wins.
  @Test func aSizeCommentSetsTheSizeUnlessSizeIsGiven() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script("# size: 40x10\nmyapp://orders/42<Enter>\n", in: directories)
    let golden = directories.root + "/s.golden"
    let updated = CapturedRun.run(["test", "--screens", GoldenScripts.screens, "--update", path])
    #expect(updated.status == 0, "\(updated.text)")
    let replayed = Self.replay(["--expect", golden, path])
    #expect(replayed.status == 0, "\(replayed.text)")
    let plain = Self.replay([path])
    #expect(plain.text.split(separator: "\n", omittingEmptySubsequences: false).count == 12)
    let sized = Self.replay(["--size", "50x6", path])
    let lines = sized.text.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 8)
    #expect(lines[1] != plain.text.split(separator: "\n")[1])
  }

  @Test func castMakesItsOutputDirectory() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script("myapp://orders/42<Enter>", in: directories)
    let output = directories.root + "/new/casts"
    let run = Self.replay(["--format", "cast", "--output", output, path])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.text == "wrote \(output)/replay.cast\n")
    #expect(FileManager.default.fileExists(atPath: output + "/replay.cast"))
  }

  /// Without its escapes, `ansi` output is the `text` output.
  @Test(arguments: ["tabs", "prompt-editing", "alert-no-route", "wide-cjk", "help-f1"])
  func ansiWithoutEscapesIsText(name: String) throws {
    let path = GoldenScripts.scriptURL(name).path
    let text = Self.replay([path])
    let ansi = Self.replay(["--format", "ansi", path])
    #expect(text.status == 0)
    #expect(ansi.text.replacing(#/\x1B\[[0-9;]*m/#, with: "") == text.text)
  }

  /// The top-level help lists each subcommand's usage as its own help gives it.
  @Test(arguments: [
    "resolve", "routes", "links", "replay", "test", "openurl", "push", "sign-table", "init",
  ])
  func theTopLevelHelpListsEachSubcommandsOptions(command: String) {
    func words(_ text: Substring) -> String {
      text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
    let top = words(Substring(CapturedRun.run(["--help"]).text))
    let help = CapturedRun.run([command, "--help"]).text
    let usage = help.split(separator: "\n\n").first { $0.hasPrefix("USAGE:") } ?? ""
    let forms = usage.dropFirst("USAGE:".count).split(separator: "appshell ")
    #expect(!forms.isEmpty)
    for form in forms {
      #expect(top.contains("appshell " + words(form)), "appshell \(form)")
    }
  }
}
