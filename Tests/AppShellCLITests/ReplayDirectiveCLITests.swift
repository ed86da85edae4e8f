import Foundation
import Testing

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
