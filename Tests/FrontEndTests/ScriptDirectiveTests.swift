import Foundation
import Testing

@testable import Interface
@testable import Replay

/// The directives a key script uses to drive the app from outside and to say what the screen
/// must show: each is read, written back, played, and fails with its message when it should.
@Suite struct ScriptDirectiveTests {
  /// Plays `text` (as `s.keys`) in the front-end app; the failure's line, or nil.
  static func play(_ text: String, size: Size = Size(columns: 80, rows: 24)) throws -> (
    failure: String?, replayer: Replayer, playback: Replayer.Playback
  ) {
    var replayer = Replayer(console: FrontEnd.console(size))
    let playback = replayer.play(try KeyScript(parsing: text, file: "s.keys"))
    return (playback.failure?.line, replayer, playback)
  }

  static func parseError(_ text: String) -> String? {
    do {
      _ = try KeyScript(parsing: text, file: "s.keys")
      return nil
    } catch {
      return error.description
    }
  }

  // MARK: - Reading and writing

  @Test func eachDirectiveReadsAndWritesBackAsWritten() throws {
    let text = #"""
      <Open myapp://orders/7><Push {"aps":{"alert":"Hi > there"},"url":"myapp://me"}><Wait .5s><Wait 2s><Wait 1.25s><Expect "say \"hi\" \\ <ok>"><ExpectNot "x"><ExpectScreen order-detail><WaitFor "Order"><WaitFor "Order" 10s>
      """#
    let script = try KeyScript(parsing: text, file: "s.keys")
    #expect(script.steps.count == 10)
    #expect(script.steps[0] == .open("myapp://orders/7"))
    guard case .push(let push) = script.steps[1] else {
      Issue.record("not a push: \(script.steps[1])")
      return
    }
    #expect(push.body == "Hi > there")
    #expect(push.url == "myapp://me")
    guard case .wait(let wait) = script.steps[2], case .wait(let long) = script.steps[4] else {
      Issue.record("not waits")
      return
    }
    #expect(wait.duration == .milliseconds(500))
    #expect(long.duration == .milliseconds(1250))
    guard case .expect(let expect) = script.steps[5], case .contains(let quoted) = expect.kind
    else {
      Issue.record("not an expect")
      return
    }
    #expect(quoted.text == #"say "hi" \ <ok>"#)
    #expect(expect.place == "s.keys:1:111")
    #expect(script.text == text)
    #expect(try KeyScript(parsing: script.text, file: "s.keys") == script)
  }

  @Test(arguments: [
    ("<Open>", "s.keys:1:1: bad directive <Open> (write <Open URL>)"),
    ("<Open >", "s.keys:1:1: bad directive <Open > (write <Open URL>)"),
    ("<Push [1]>", "s.keys:1:1: <Push> needs one JSON object on one line"),
    (#"<Push {"aps":{}}>"#, #"s.keys:1:1: bad <Push> payload: the payload has no "aps.alert""#),
    (
      #"<Push {"aps":{"alert":"x"}} >"#,
      "s.keys:1:1: <Push {...}> must end with > right after the object"
    ),
    (
      #"<Push {"aps":{"alert":"x"}"#, "s.keys:1:1: <Push> needs one JSON object on one line, then >"
    ),
    (
      #"ab<Push {"aps":{"alert":"x"},}>"#,
      "s.keys:1:3: bad <Push> payload: not JSON: line 1, column 22: expected a string key after ',' (trailing commas are not allowed)"
    ),
    (
      "<Wait 1.5>",
      "s.keys:1:1: bad directive <Wait 1.5> (write <Wait 1.5s>, from 0 to 3600 seconds)"
    ),
    (
      "<Wait 3600.1s>",
      "s.keys:1:1: bad directive <Wait 3600.1s> (write <Wait 1.5s>, from 0 to 3600 seconds)"
    ),
    (
      "<Wait -1s>",
      "s.keys:1:1: bad directive <Wait -1s> (write <Wait 1.5s>, from 0 to 3600 seconds)"
    ),
    (
      "<Wait 1.2.3s>",
      "s.keys:1:1: bad directive <Wait 1.2.3s> (write <Wait 1.5s>, from 0 to 3600 seconds)"
    ),
    (
      "<Wait .s>", "s.keys:1:1: bad directive <Wait .s> (write <Wait 1.5s>, from 0 to 3600 seconds)"
    ),
    ("<Expect Home>", #"s.keys:1:1: bad directive <Expect Home> (write <Expect "TEXT">)"#),
    (#"<Expect "Home>"#, #"s.keys:1:1: unclosed " (the text must end on the same line)"#),
    (#"<Expect "a\nb">"#, #"s.keys:1:1: bad escape in "TEXT" (only \" and \\ are escapes)"#),
    (#"<Expect "a" >"#, #"s.keys:1:1: write <Expect "TEXT"> (nothing after the closing quote)"#),
    (
      #"<ExpectNot "a"x>"#,
      #"s.keys:1:1: write <ExpectNot "TEXT"> (nothing after the closing quote)"#
    ),
    ("<ExpectScreen>", "s.keys:1:1: bad directive <ExpectScreen> (write <ExpectScreen NAME>)"),
    (
      "<ExpectScreen a b>",
      "s.keys:1:1: bad directive <ExpectScreen a b> (write <ExpectScreen NAME>)"
    ),
    (
      #"<WaitFor "x" 5>"#,
      #"s.keys:1:1: bad directive <WaitFor> (write <WaitFor "TEXT"> or <WaitFor "TEXT" 10s>)"#
    ),
    (#"<WaitFor "x""#, "s.keys:1:1: unclosed < (write <lt> for a literal <)"),
    ("<WaitFor x>", #"s.keys:1:1: bad directive <WaitFor x> (write <WaitFor "TEXT">)"#),
  ])
  func aMalformedDirectiveIsAScriptError(text: String, message: String) {
    #expect(Self.parseError(text) == message)
  }

  @Test func waitTakesZeroToAnHourInEveryDecimalForm() throws {
    for (text, milliseconds) in [
      ("0s", 0), ("0.5s", 500), (".5s", 500), ("2s", 2000), ("3600s", 3_600_000), ("2.s", 2000),
    ] {
      let script = try KeyScript(parsing: "<Wait \(text)>", file: "s.keys")
      guard case .wait(let seconds) = script.steps.first else {
        Issue.record("\(text) is not a wait")
        continue
      }
      #expect(seconds.duration == .milliseconds(milliseconds), "\(text)")
    }
  }

  // MARK: - Playing

  @Test func openArrivesFromOutside() throws {
    let opened = try Self.play("<Open myapp://orders/7><ExpectScreen order-detail>")
    #expect(opened.failure == nil)
    #expect(opened.replayer.console.model.log.last?.origin == .external)
    // From outside, a route closed to outside URLs is refused, as `appshell openurl` is.
    let refused = try Self.play(
      #"<Open myapp://session/sign-in><Expect "Refused"><ExpectScreen sign-in>"#)
    #expect(refused.failure == "s.keys:1:49: expected screen sign-in, the top screen is home")
    // `%3E` is an ordinary percent escape, decoded by the router.
    let escaped = try Self.play(#"<Open myapp://user/a%3Eb><Expect "a>b">"#)
    #expect(escaped.failure == nil)
  }

  @Test func pushShowsABannerThatOpensItsURL() throws {
    let pushed = try Self.play(
      #"<Push {"aps":{"alert":{"title":"Shipped","body":"Order 7"}},"url":"myapp://orders/7"}><Expect "Shipped"><C-o><ExpectScreen order-detail>"#
    )
    #expect(pushed.failure == nil)
    let missing = try Self.play(#"<Push {"aps":{"alert":"Hello"}}><Expect "Goodbye">"#)
    #expect(missing.failure == #"s.keys:1:33: expected "Goodbye" on the screen"#)
  }

  @Test func waitLetsVirtualTimePass() throws {
    // A banner stays 5 s.
    let push = #"<Push {"aps":{"alert":"Hello"}}>"#
    let kept = try Self.play(push + #"<Wait 4.9s><Expect "Hello">"#)
    #expect(kept.failure == nil)
    #expect(kept.replayer.now == .milliseconds(4900))
    let gone = try Self.play(push + #"<Wait 5s><Expect "Hello">"#)
    #expect(gone.failure == #"s.keys:1:42: expected "Hello" on the screen"#)
  }

  @Test func expectLooksWithinOneLineOfTheScreen() throws {
    #expect(try Self.play(#"<Expect "Welcome.">"#).failure == nil)
    // Two words on different lines are not one text.
    let split = try Self.play(#"<Expect "Welcome. Type">"#)
    #expect(split.failure == #"s.keys:1:1: expected "Welcome. Type" on the screen"#)
    // The text is written back as written, escapes and all.
    let escaped = try Self.play(#"ab<Expect "say \"hi\"">"#)
    #expect(escaped.failure == #"s.keys:1:3: expected "say \"hi\"" on the screen"#)
  }

  @Test func expectNotFailsWhenTheTextIsThere() throws {
    #expect(try Self.play(#"<ExpectNot "Orders 7">"#).failure == nil)
    let there = try Self.play("\n" + #"<ExpectNot "Welcome">"#)
    #expect(there.failure == #"s.keys:2:1: "Welcome" is on the screen"#)
  }

  @Test func expectScreenNamesTheTopScreen() throws {
    // The top modal's top screen when a modal is shown.
    let modal = try Self.play("myapp://login<Enter><ExpectScreen login>")
    #expect(modal.failure == nil)
    let wrong = try Self.play("myapp://orders/7<Enter><ExpectScreen order-list>")
    #expect(
      wrong.failure == "s.keys:1:24: expected screen order-list, the top screen is order-detail")
  }

  @Test func waitForLooksEveryTenthOfASecond() throws {
    // The lookup takes 1.5 s after its key.
    let found = try Self.play(#"myapp://lookup/order/A-7<Enter><WaitFor "Order number: 7">"#)
    #expect(found.failure == nil)
    #expect(found.replayer.now == .milliseconds(2500 + 1400))
    // Already on the screen: no time passes.
    let shown = try Self.play(#"<WaitFor "Welcome">"#)
    #expect(shown.failure == nil)
    #expect(shown.replayer.now == .zero)
    let short = try Self.play(#"myapp://lookup/order/A-7<Enter><WaitFor "Order number: 7" 1s>"#)
    #expect(short.failure == #"s.keys:1:32: "Order number: 7" did not appear within 1 s"#)
    let never = try Self.play(#"<WaitFor "Never">"#)
    #expect(never.failure == #"s.keys:1:1: "Never" did not appear within 5 s"#)
    #expect(never.replayer.now == .seconds(5))
    let given = try Self.play(#"<WaitFor "Never" 0.5s>"#)
    #expect(given.failure == #"s.keys:1:1: "Never" did not appear within 0.5 s"#)
  }

  /// While nothing is due, time passing cannot change the screen: a long `<WaitFor>` does not
  /// look at it every tenth of a second, and ends as stepping would.
  @Test func waitForDoesNotDrawWhileNothingIsDue() throws {
    let never = try Self.play(#"<WaitFor "Never" 3600s>"#)
    #expect(never.failure == #"s.keys:1:1: "Never" did not appear within 3600 s"#)
    #expect(never.replayer.now == .seconds(3600))
    #expect(never.replayer.device.presented < 10)
    // A banner expires after 5 s: the look after it still comes at the step it would.
    let banner = try Self.play(
      #"<Push {"aps":{"alert":"Zebra"}}><WaitFor "Zebra" 1s><WaitFor "Never" 60s>"#)
    #expect(banner.failure == #"s.keys:1:53: "Never" did not appear within 60 s"#)
    #expect(banner.replayer.now == .seconds(60))
    #expect(banner.replayer.device.presented < 20)
    #expect(!(banner.playback.failure?.snapshot.grid.text.contains("Zebra") ?? true))
  }

  @Test func aFailureEndsTheRunWithTheScreenAtThatMoment() throws {
    let run = try Self.play(#"<Snap>myapp://orders/7<Enter><Snap><Expect "Nope">myapp://me<Enter>"#)
    #expect(run.playback.snapshots.count == 2)
    let failure = try #require(run.playback.failure)
    #expect(failure.place == "s.keys:1:36")
    #expect(failure.snapshot.state.topScreen.name == "order-detail")
    #expect(failure.snapshot.grid.text.contains("Order 7"))
  }
}
