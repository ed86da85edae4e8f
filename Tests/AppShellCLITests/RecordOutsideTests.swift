import Foundation
import TestSupport
import Testing

@testable import AppShellCLI

/// `appshell --record` under tmux with URLs and a push from outside and async work: the
/// recording has `<Open>`, `<Push>` and `<Wait>`, and replays to the screen the live app showed.
@Suite(.serialized) struct RecordOutsideTests {
  @Test func aSessionWithOutsideURLsAndAsyncWorkReplaysToTheSameScreen() throws {
    let tmux = try #require(TmuxSession.tmuxExecutable, TmuxSession.missing)
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    // The client's directories are the app's, so `openurl` and `push` reach it.
    let client = try HeadlessApp()
    let record = client.root + "/session.keys"
    let session = try TmuxSession(
      tmux: tmux, appshell: appshell, size: TerminalSize(columns: 60, rows: 16),
      arguments: ["--record", record], environment: client.directories.variables)
    defer { session.close() }
    func outside(_ arguments: [String]) throws {
      session.drainFrames()
      let result = try client.client(arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      try session.waitForFrame(after: arguments.joined(separator: " "))
    }
    try outside(["openurl", "myapp://orders/42"])
    try outside([
      "push", #"{"aps":{"alert":{"title":"Shipped","body":"Order 5"}},"url":"myapp://user/ann"}"#,
    ])
    try session.press(.key("C-o"), place: "opening the banner")
    for character in "myapp://lookup/order/A-7" {
      try session.press(.character(character), place: "typing")
    }
    try session.press(.key("Enter"), place: "the lookup")
    // The lookup's result comes 1.5 s later, in a frame of its own.
    try session.waitForFrame(after: "the lookup's result")
    try session.press(.key("F2"), place: "the log")
    let script = try String(contentsOfFile: record, encoding: .utf8)
    #expect(script.contains("<Open myapp://orders/42>"), "\(script)")
    #expect(
      script.contains(
        #"<Push {"aps":{"alert":{"title":"Shipped","body":"Order 5"}},"url":"myapp://user/ann"}>"#
      ), "\(script)")
    // The lookup's 1.5 s (and more, on a busy machine) before F2.
    #expect(
      script.range(of: "<Enter>\n<Wait [0-9.]+s><F2>", options: .regularExpression) != nil,
      "\(script)")
    let replayed = CapturedRun.run(["replay", "--screens", GoldenScripts.screens, record])
    #expect(replayed.status == 0, "\(replayed.stderr)")
    let last = try #require(Snapshots(replayed.stdout).screens.last)
    // The lookup's result (order 7) over the banner's user (ann) over the outside URL's order.
    #expect(last.contains(" Order number: 7"), "\(last)")
    #expect(last.first?.hasPrefix("‹ ann ") == true, "\(last)")
    let live = try session.capture(expecting: last)
    #expect(
      live == last,
      "live:\n\(live.joined(separator: "\n"))\nreplayed:\n\(last.joined(separator: "\n"))")
  }
}
