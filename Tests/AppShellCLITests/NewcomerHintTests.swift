import Foundation
import Interface
import Platform
import TestSupport
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// What a newcomer reads on a fresh clone is true and can be run as printed: the commands
/// `init` and `--record` print start with the executable as it was invoked, and the demo's
/// texts hold for every route that shows them.
@Suite struct NewcomerHintTests {
  /// Started by a path (as `swift run` starts it), `init`'s commands start with that path.
  @Test func initNamesTheExecutableAsItWasInvoked() throws {
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    let directories = try PrivateDirectories()
    let directory = directories.root + "/app"
    let run = try runProcess(appshell, ["init", directory], environment: directories.environment)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Run it:               \(appshell) --screens \(directory)\n"))
    #expect(
      run.stdout.contains(
        "Replay its flow:      \(appshell) replay --screens \(directory) \(directory)/flows/first-run.keys\n"
      ), "\(run.stdout)")
    #expect(!run.stdout.contains(": appshell "), "\(run.stdout)")
  }

  /// The recording's header replays with the executable it names, quoted as one shell word.
  @Test func theRecordingsHeaderNamesTheExecutableItWasGiven() throws {
    let directories = try PrivateDirectories()
    let path = directories.root + "/session.keys"
    let recorder = try KeyRecorder(
      path: path, replayOptions: ["--screens", "Screens"], program: "/opt/my tools/appshell")
    recorder.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      text.hasPrefix(
        "# Recorded by appshell --record; replay it with: '/opt/my tools/appshell' replay --screens Screens \(path)\n"
      ), "\(text)")
  }

  /// The profile screen opens through several routes; its text names none of them.
  @Test(arguments: [
    "myapp://PEOPLE/Carol", "https://eu.appshell.example.com/u/lisi", "myapp://profile#user=wangwu",
    "navigator://user/zhangsan",
  ])
  func theProfileScreensTextHoldsForEveryRoute(url: String) throws {
    let directories = try PrivateDirectories()
    let script = directories.root + "/open.keys"
    // Typed at the prompt: from inside, as the Settings screen's links open them.
    try Data("\(url)<Enter>".utf8).write(to: URL(fileURLWithPath: script))
    let run = CapturedRun.run([
      "replay", "--screens", GoldenScripts.screens, "--size", "100x24", script,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Profile of "), "\(run.stdout)")
    #expect(!run.stdout.contains("navigator://user/<username>"), "\(run.stdout)")
    #expect(run.stdout.contains("F2 shows which one did"), "\(run.stdout)")
  }

  /// Without a terminal, the app says what runs without one.
  @Test func withoutATerminalTheAppNamesHeadlessAndReplay() throws {
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    let directories = try PrivateDirectories()
    let run = try runProcess(appshell, [], environment: directories.environment)
    #expect(run.status == 1)
    #expect(
      run.stderr
        == "appshell: standard input and output must be a terminal; without one, run"
        + " 'appshell --headless' (driven over the socket by openurl, push, state and reload)"
        + " or 'appshell replay SCRIPT' (a key script, screens printed)\n")
  }

  /// On a terminal that cannot move the cursor (`TERM=dumb`), the app does not start, and says
  /// what to set; `script` gives it a terminal.
  @Test(.timeLimit(.minutes(1))) func aDumbTerminalIsRefused() throws {
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    let script = try #require(ChildProcess.find("script"), "util-linux's script is not on PATH")
    let directories = try PrivateDirectories()
    var environment = directories.environment
    environment["TERM"] = "dumb"
    let run = try runProcess(
      script, ["-qec", "'\(appshell)'", "/dev/null"], environment: environment)
    #expect(run.status == 1, "\(run.stdout)")
    #expect(run.stdout.contains("TERM=dumb cannot move the cursor"), "\(run.stdout)")
  }

  /// A size out of bounds is refused with the bounds.
  @Test(arguments: [
    ["replay", "--size", "2000x10", "x.keys"], ["--headless", "--size", "2000x10"],
  ])
  func aSizeOutOfBoundsSaysTheBounds(arguments: [String]) {
    let run = CapturedRun.run(arguments)
    #expect(run.status == 2)
    #expect(
      run.stderr.contains(
        "--size needs COLSxROWS such as 80x24, from 1x1 to 1000x1000, not '2000x10'\n"),
      "\(run.stderr)")
  }

  /// A relative PATH that does not exist says where it was looked for, and what no PATH runs.
  @Test func aMissingRelativePathSaysWhereItWasTakenFrom() {
    let run = CapturedRun.run(["test", "no-such-flows/"])
    let directory = FileManager.default.currentDirectoryPath
    #expect(run.status == 2)
    #expect(
      run.stdout
        == "FAIL no-such-flows/: no-such-flows/: no such file or directory (a PATH is taken from"
        + " the current directory, \(directory); with no PATH, the app's own flows/ run)\n"
        + "0 passed, 1 failed\n", "\(run.stdout)")
  }
}
