import Foundation
import Interface
import Replay
import TestSupport
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// `appshell --record FILE` under tmux: a live session's keys, replayed with `appshell replay`,
/// give the screen the live app showed.
@Suite(.serialized) struct RecordReplayTests {
  @Test func aRecordedSessionReplaysToTheSameScreen() throws {
    let tmux = try #require(TmuxSession.tmuxExecutable, TmuxSession.missing)
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    let directory = try TemporaryDirectory("appshell-record")
    defer { withExtendedLifetime(directory) {} }
    let record = directory.path + "/session.keys"
    let session = try TmuxSession(
      tmux: tmux, appshell: appshell, size: TerminalSize(columns: 72, rows: 20),
      arguments: ["--record", record])
    defer { session.close() }
    // Typing, completion, a link, tabs, the log pane, an alert and a resize.
    func typed(_ text: String) -> [ScriptStep] { text.map { .character($0) } }
    let steps: [ScriptStep] =
      typed("myapp://user/alice") + [.key("Enter"), .key("Down"), .key("Enter"), .key("Esc")]
      + [.key("Tab")] + typed("myapp://nowhere#x") + [.key("Enter"), .key("Enter"), .key("F2")]
      + typed("navigator://user/张三") + [.key("Enter")]
    for (index, step) in steps.enumerated() {
      try session.press(step, place: "step \(index + 1)")
    }
    try session.resize(to: TerminalSize(columns: 64, rows: 18), place: "the resize")
    // Each key is written to the recording before the app handles it, and the frame after
    // the last one has been drawn, so the recording is complete here.
    let script = try String(contentsOfFile: record, encoding: .utf8)
    // The app was started by its path, which the replay command starts with.
    #expect(
      script.hasPrefix(
        "# Recorded by appshell --record; replay it with: \(KeyRecorder.shellQuoted(appshell)) replay "
      ), "\(script)")
    #expect(script.contains("<Resize 72x20>myapp://user/alice<Enter>\n<Down><Enter>\n<Esc>"))
    #expect(script.contains("<Resize 64x18>"))
    let replayed = CapturedRun.run(["replay", "--screens", GoldenScripts.screens, record])
    #expect(replayed.status == 0, "\(replayed.stderr)")
    let last = try #require(Snapshots(replayed.stdout).screens.last)
    let live = try session.capture(expecting: last)
    #expect(
      live == last,
      "live:\n\(live.joined(separator: "\n"))\nreplayed:\n\(last.joined(separator: "\n"))")
  }

  /// A pause under a second is written only when delayed work ran in it (the init app's
  /// `save` runs 0.5 s after Enter; Esc 0.6 s later must replay after it), rounded up.
  @Test func aShortPauseInWhichWorkRanIsWrittenRoundedUp() throws {
    let directories = try PrivateDirectories()
    let path = directories.root + "/short.keys"
    let clock = ManualTime()
    let recorder = try KeyRecorder(path: path, replayOptions: [], now: { clock.now })
    recorder.record(.key(.enter))
    clock.now += .milliseconds(400)
    recorder.record(.key(.down))
    clock.now += .milliseconds(520)
    recorder.noteWorkRan()
    recorder.record(.key(.escape))
    recorder.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasSuffix("<Enter>\n<Down><Wait 0.6s><Esc>\n"), "\(text)")
  }

  /// The header says how to replay: each word shell-quoted and inert, and a note when the
  /// table cannot be given to `replay` as it was given to the app.
  @Test func theHeaderQuotesTheReplayCommandAndCarriesANote() throws {
    let directory = try TemporaryDirectory("appshell-record")
    defer { withExtendedLifetime(directory) {} }
    let path = directory.path + "/appshell record.keys"
    let recorder = try KeyRecorder(
      path: path, replayOptions: ["--routes", "SAVED-TABLE.json", "--screens", "my screens"],
      note: "the table came from https://x.example/t\u{1b}[2J.json: save it first")
    recorder.record(.resize(Size(columns: 2000, rows: 30)))
    recorder.record(.key(.character("#")))
    recorder.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines[0]
        == "# Recorded by appshell --record; replay it with: appshell replay --routes SAVED-TABLE.json --screens 'my screens' '\(path)'"
    )
    #expect(lines[1] == "# the table came from https://x.example/t\\x1b[2J.json: save it first")
    // A size over what replay accepts is recorded as the largest it does.
    #expect(lines[2] == "<Resize 1000x30>#")
    let script = try KeyScript(parsing: text, file: path)
    #expect(script.steps == [.resize(Size(columns: 1000, rows: 30)), .key(.character("#"))])
  }
}

/// A clock a test moves by hand.
private final class ManualTime: @unchecked Sendable {
  var now: Duration = .zero
}
