import Foundation
import TestSupport
import Testing

// The real ncurses front end under tmux, driven from outside: `appshell openurl` and
// `appshell push` reach it over its socket, SIGHUP and Ctrl-R reload its route table. Each
// step waits for the frame the app draws after it (the frame FIFO), never a sleep.

@Suite(.serialized) struct TmuxRemoteTests {
  /// A tmux session running the app with a private runtime directory, and a client that
  /// shares it.
  private struct Rig {
    let session: TmuxSession
    let client: HeadlessApp

    init() throws {
      let tmux = try #require(TmuxSession.tmuxExecutable, TmuxSession.missing)
      let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
      client = try HeadlessApp()
      session = try TmuxSession(
        tmux: tmux, appshell: appshell, size: TerminalSize(columns: 80, rows: 24),
        environment: ["XDG_RUNTIME_DIR": client.environment["XDG_RUNTIME_DIR"]!])
    }

    /// Runs a client command and waits for the frame the app draws after handling it.
    func send(_ arguments: [String]) throws -> ProcessResult {
      session.drainFrames()
      let result = try client.client(arguments)
      try session.waitForFrame(after: "appshell \(arguments.joined(separator: " "))")
      return result
    }

    /// The pane's text once it shows `text` (or the last capture after the settle time).
    func screen(showing text: String) throws -> String {
      let clock = ContinuousClock()
      let deadline = clock.now + TmuxSession.settleTime
      var screen: String
      repeat {
        screen = try session.capture()
      } while !screen.contains(text) && clock.now < deadline
      return screen
    }
  }

  @Test func openURLFromOutsidePushesOnTheRealScreen() throws {
    let rig = try Rig()
    defer { rig.session.close() }
    let result = try rig.send(["openurl", "myapp://user/42"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("pushed user-profile"))
    let screen = try rig.screen(showing: "‹ Home")
    #expect(screen.contains("‹ Home"), "\(screen)")
    #expect(screen.contains("42"), "\(screen)")
  }

  @Test func aPushShowsABannerThatCtrlOOpens() throws {
    let rig = try Rig()
    defer { rig.session.close() }
    let payload =
      #"{"aps":{"alert":{"title":"Order shipped","body":"Tap to see Alice"}},"url":"myapp://user/alice"}"#
    let result = try rig.send(["push", payload])
    #expect(result.status == 0, "\(result.stderr)")
    let banner = try rig.screen(showing: "Order shipped")
    #expect(banner.contains("Order shipped"), "\(banner)")
    #expect(banner.contains("Tap to see Alice"), "\(banner)")
    #expect(banner.contains("C-o open"), "\(banner)")
    try rig.session.press(.key("C-o"), place: "opening the banner")
    let opened = try rig.screen(showing: "‹ Home")
    #expect(!opened.contains("Order shipped"), "\(opened)")
    #expect(opened.contains("alice"), "\(opened)")
    let log = try #require(try rig.client.state()["log"] as? [[String: Any]])
    #expect(log.last?["source"] as? String == "banner")
  }

  @Test func sighupAndCtrlRReloadTheTableAndTheAppKeepsRunning() throws {
    let rig = try Rig()
    defer { rig.session.close() }
    _ = try rig.send(["openurl", "myapp://user/42"])
    rig.session.drainFrames()
    kill(try rig.session.appPID(), SIGHUP)
    try rig.session.waitForFrame(after: "SIGHUP")
    let afterHangup = try rig.screen(showing: "Loaded route table v1")
    #expect(
      afterHangup.contains("Loaded route table v1 from \(GoldenScripts.screens)/routes.json"),
      "\(afterHangup)")
    #expect(afterHangup.contains("‹ Home"), "open screens stay open: \(afterHangup)")
    try rig.session.press(.character("x"), place: "typing")  // clears the status line
    try rig.session.press(.key("BS"), place: "deleting")
    try rig.session.press(.key("C-r"), place: "Ctrl-R")
    let afterKey = try rig.screen(showing: "Loaded route table v1")
    #expect(
      afterKey.contains("Loaded route table v1 from \(GoldenScripts.screens)/routes.json"),
      "\(afterKey)")
    let state = try rig.client.state()
    let table = try #require(state["table"] as? [String: Any])
    #expect(table["version"] as? Int == 1)
  }
}
