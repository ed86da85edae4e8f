import Testing

@testable import Interface
@testable import Render
@testable import Replay
@testable import Routing
@testable import Shell

// The front end of push banners and live route tables: Ctrl-O and Ctrl-R in the console,
// `replaceTable`/`refuseTable`, banner expiry on the work scheduler, the banner and the notes
// on screen, and the replayer's reload hook.

/// The front-end table with a `version` (none when nil) and an extra route
/// `myapp://fresh` (a settings screen), plus `extra` entries.
func table(version: Int?, fresh: Bool = true, extra: [String] = []) -> RouteTable {
  var head = #"{"routes":["#
  if let version { head = #"{"version":\#(version),"routes":["# }
  let added = (fresh ? [#"{"pattern":"myapp://fresh","screen":"settings"}"#] : []) + extra
  let text = FrontEnd.routes.replacing(
    #"{"routes":["#, with: head + added.map { $0 + "," }.joined())
  return try! RouteTable(json: text)
}

/// A table with only a home and a settings route.
func smallTable(version: Int?) -> RouteTable {
  let versionMember = version.map { #""version":\#($0),"# } ?? ""
  return try! RouteTable(
    json:
      #"{\#(versionMember)"routes":[{"pattern":"myapp://home","screen":"home"},{"pattern":"myapp://settings","screen":"settings"}]}"#
  )
}

/// A console showing a banner for `url` (expiry effects dropped).
func consoleWithBanner(
  _ url: String?, title: String = "Shipped", body: String = "Your order is on its way",
  size: Size = Size(columns: 80, rows: 24)
) -> Console {
  var console = FrontEnd.console(size)
  console.send(.pushReceived(title: title, body: body, url: url))
  return console
}

/// The rows of the console's grid.
func drawn(_ console: Console) -> [String] { rows(ConsoleView.render(console)) }

/// The first row holding `text`, if any.
func row(containing text: String, in lines: [String]) -> Int? {
  lines.firstIndex { $0.contains(text) }
}

@Suite struct ReloadAndBannerTests {
  // MARK: Ctrl-O

  @Test func controlOWithoutABannerSaysSo() {
    var console = FrontEnd.console()
    console.open("myapp://settings")
    let before = console.model
    let effects = console.press(.control("o"))
    #expect(effects.isEmpty)
    #expect(console.model == before)
    #expect(console.notice == "No notification banner to open")
    #expect(console.statusLine == "No notification banner to open")
    // The notice lasts one key.
    console.press(.function(2))
    #expect(console.notice == nil)
  }

  @Test func controlOOpensTheBannersURL() throws {
    var console = consoleWithBanner("myapp://user/ann")
    let effects = console.press(.control("o"))
    #expect(effects.isEmpty)
    #expect(console.model.banner == nil)
    #expect(console.stackNames == ["home", "user-profile"])
    let entry = try #require(console.model.log.last)
    #expect(entry.origin == .banner)
    #expect(entry.url == "myapp://user/ann")
    #expect(console.statusLine == "Opened ann")
  }

  @Test func controlOWithoutAURLDismissesTheBanner() {
    var console = consoleWithBanner(nil)
    console.press(.control("o"))
    #expect(console.model.banner == nil)
    #expect(console.stackNames == ["home"])
    #expect(console.model.log.isEmpty)
    #expect(console.notice == nil)
  }

  @Test func controlOWorksWithTextInThePrompt() {
    var console = consoleWithBanner("myapp://settings")
    console.type("myapp://or")
    console.press(.control("o"))
    #expect(console.stackNames == ["home", "settings"])
    // The prompt keeps its text: C-o is not an editing key.
    #expect(console.prompt.text == "myapp://or")
  }

  @Test func controlOClearsTheLinkSelection() {
    var console = consoleWithBanner("myapp://settings")
    console.press(.down)
    #expect(console.selectedLink == 0)
    console.press(.control("o"))
    #expect(console.selectedLink == nil)
  }

  @Test func anAlertBlocksControlO() {
    var console = consoleWithBanner("myapp://settings")
    console.open("nope://x")
    #expect(console.model.shell.alert != nil)
    let before = console.model
    #expect(console.press(.control("o")).isEmpty)
    // Ignored, not noticed: the alert takes only Enter and Esc.
    #expect(console.model == before)
    #expect(console.notice == nil)
    #expect(console.model.banner != nil)
    console.press(.enter)
    #expect(console.model.shell.alert == nil)
    console.press(.control("o"))
    #expect(console.stackNames == ["home", "settings"])
    #expect(console.model.banner == nil)
  }

  @Test func anInternalOnlyURLFromTheBannerIsRefused() throws {
    var console = consoleWithBanner("myapp://session/sign-in")
    console.press(.control("o"))
    let alert = try #require(console.model.shell.alert)
    #expect(alert.title == "Refused")
    #expect(alert.message.contains("came from a push banner"))
    #expect(console.model.session.signedIn == false)
    let entry = try #require(console.model.log.last)
    #expect(entry.origin == .banner)
    guard case .refused = entry.outcome else {
      Issue.record("expected refused, got \(entry.outcome)")
      return
    }
  }

  // MARK: Ctrl-R

  @Test func controlRAsksForAReload() {
    var console = FrontEnd.console()
    console.open("myapp://settings")
    let before = console.model
    #expect(console.press(.control("r")) == [.reload])
    #expect(console.notice == "Reloading the route table…")
    // The console does no I/O: the model and the table are untouched.
    #expect(console.model == before)
    #expect(console.app.table.version == nil)
  }

  @Test func eachControlRAsksForAReload() {
    var console = FrontEnd.console()
    #expect(console.press(.control("r"), .control("r")) == [.reload, .reload])
  }

  @Test func controlRWorksWithTextInThePrompt() {
    var console = FrontEnd.console()
    console.type("myapp://")
    #expect(console.press(.control("r")) == [.reload])
    #expect(console.prompt.text == "myapp://")
  }

  @Test func anAlertBlocksControlR() {
    var console = FrontEnd.console()
    console.open("nope://x")
    #expect(console.press(.control("r")).isEmpty)
    #expect(console.model.shell.alert != nil)
  }

  @Test func otherKeysAskForNoReload() {
    var console = FrontEnd.console()
    #expect(!console.press(.escape, .tab, .function(2), .control("o")).contains(.reload))
  }

  // MARK: replaceTable

  @Test func aNewerTableIsPutInForce() throws {
    var console = FrontEnd.console()
    console.open("myapp://fresh")
    #expect(console.model.shell.alert?.title == "No route")
    console.press(.enter)
    let fresh = table(version: 2)
    #expect(fresh.entries.count == 24)
    let accepted = console.replaceTable(fresh, from: "routes.json")
    #expect(accepted)
    #expect(console.app.table.version == 2)
    let note = try #require(console.model.notes.last)
    #expect(note.text == "Loaded route table v2 from routes.json (24 routes)")
    #expect(!note.isProblem)
    #expect(note.position == 1)
    #expect(console.statusLine == note.text)
    // The new route opens, and Tab completes it.
    console.open("myapp://fresh")
    #expect(console.model.shell.alert == nil)
    #expect(console.stackNames == ["home", "settings"])
    #expect(console.completer.candidates.contains("myapp://fresh"))
    console.type("myapp://fr")
    console.press(.tab)
    #expect(console.prompt.text == "myapp://fresh")
  }

  @Test func anOlderTableIsRefusedAndTheOldOneKeepsWorking() throws {
    var console = FrontEnd.console()
    let newer = console.replaceTable(table(version: 3), from: "v3.json")
    #expect(newer)
    let completer = console.completer
    let older = console.replaceTable(table(version: 2, fresh: false), from: "v2.json")
    #expect(!older)
    #expect(console.app.table.version == 3)
    #expect(console.completer == completer)
    let note = try #require(console.model.notes.last)
    #expect(
      note.text
        == "Route table refused: v2.json: v2 is older than v3 in force (no rollback); keeping the one in force"
    )
    #expect(note.isProblem)
    #expect(console.model.notes.count == 2)
    #expect(console.statusLine == note.text)
    // The v3 route still opens.
    console.open("myapp://fresh")
    #expect(console.model.shell.alert == nil)
    #expect(console.stackNames == ["home", "settings"])
  }

  @Test(arguments: [0, 1, 7])
  func anEqualVersionIsAccepted(version: Int) {
    var console = FrontEnd.console()
    let first = console.replaceTable(table(version: version, fresh: false), from: "a.json")
    #expect(first)
    let second = console.replaceTable(table(version: version), from: "b.json")
    #expect(second)
    #expect(console.app.table.version == version)
    #expect(console.app.table.entries.count == 24)
    #expect(console.model.notes.map(\.isProblem) == [false, false])
  }

  @Test func anUnversionedTableAfterAVersionedOneIsRefused() throws {
    var console = FrontEnd.console()
    let versioned = console.replaceTable(table(version: 2, fresh: false), from: "v2.json")
    #expect(versioned)
    let unversioned = console.replaceTable(table(version: nil), from: "plain.json")
    #expect(!unversioned)
    #expect(console.app.table.version == 2)
    #expect(
      console.model.notes.last?.text
        == "Route table refused: plain.json: an unversioned table is older than v2 in force (no rollback); keeping the one in force"
    )
    console.open("myapp://fresh")
    #expect(console.model.shell.alert?.title == "No route")
  }

  @Test func unversionedTablesReplaceEachOther() throws {
    var console = FrontEnd.console()
    let accepted = console.replaceTable(table(version: nil), from: "plain.json")
    #expect(accepted)
    #expect(console.app.table.version == nil)
    let note = try #require(console.model.notes.last)
    #expect(note.text == "Loaded the route table from plain.json (24 routes)")
    #expect(!note.isProblem)
  }

  @Test func aTableWithAnUnknownGuardIsRefused() throws {
    var console = FrontEnd.console()
    let guarded = table(
      version: 5, extra: [#"{"pattern":"myapp://vault","screen":"settings","guard":"face-id"}"#])
    let completer = console.completer
    let accepted = console.replaceTable(guarded, from: "guarded.json")
    #expect(!accepted)
    #expect(console.app.table.version == nil)
    #expect(console.completer == completer)
    let note = try #require(console.model.notes.last)
    #expect(note.isProblem)
    #expect(
      note.text.hasPrefix(
        "Route table refused: guarded.json: routes[1].guard: unknown guard 'face-id'"))
    #expect(note.text.hasSuffix("; keeping the one in force"))
    // Neither the new route nor its guard is in force.
    console.open("myapp://vault")
    #expect(console.model.shell.alert?.title == "No route")
  }

  @Test func aTableGuardingTheGuardsOwnScreenIsRefused() throws {
    var console = FrontEnd.console()
    let looping = try RouteTable(
      json:
        #"{"version":9,"routes":[{"pattern":"myapp://login","screen":"login","presentation":"present","guard":"signed-in"}]}"#
    )
    let accepted = console.replaceTable(looping, from: "loop.json")
    #expect(!accepted)
    #expect(console.app.table.version == nil)
    #expect(console.model.notes.last?.isProblem == true)
    #expect(console.model.notes.last?.text.contains("cannot be guarded") == true)
  }

  @Test func openScreensStayOpenUnderANewTable() throws {
    var console = FrontEnd.console()
    console.open("myapp://orders/7")
    console.open("navigator://modal/user/bob")
    console.press(.down)
    let shell = console.model.shell
    let accepted = console.replaceTable(smallTable(version: 2), from: "small.json")
    #expect(accepted)
    #expect(console.model.shell == shell)
    #expect(console.selectedLink == 0)
    #expect(console.completer.candidates == ["myapp://", "myapp://home", "myapp://settings"])
    // Routes no longer in the table do not open.
    console.open("myapp://orders/8")
    #expect(console.model.shell.alert?.title == "No route")
  }

  @Test func refuseTableKeepsTheTableAndNotesAProblem() throws {
    var console = FrontEnd.console()
    console.open("myapp://settings")
    let shell = console.model.shell
    console.refuseTable("signature does not verify")
    let note = try #require(console.model.notes.last)
    #expect(
      note
        == Note(
          text: "Route table refused: signature does not verify; keeping the one in force",
          isProblem: true, position: 1))
    #expect(console.model.shell == shell)
    #expect(console.app.table.version == nil)
    #expect(console.statusLine == note.text)
  }

  // MARK: Banner expiry on the scheduler

  @Test func theSchedulerDeliversTheExpiryAtItsTime() {
    var scheduler = WorkScheduler<Duration>()
    scheduler.apply([.expireBanner(id: 3, after: .seconds(5))], now: .seconds(10), adding: +)
    #expect(scheduler.nextDue == .seconds(15))
    #expect(scheduler.popDue(now: .seconds(10)) == nil)
    #expect(scheduler.popDue(now: .milliseconds(14_999)) == nil)
    #expect(scheduler.popDue(now: .seconds(15)) == .bannerExpired(id: 3))
    #expect(scheduler.popDue(now: .seconds(100)) == nil)
    #expect(scheduler.nextDue == nil)
  }

  @Test func expiriesAndWorkComeOutInTimeOrder() {
    var scheduler = WorkScheduler<Int>()
    let adding: (Int, Duration) -> Int = { now, delay in now + Int(delay.components.seconds) }
    scheduler.apply(
      [
        .expireBanner(id: 1, after: .seconds(5)),
        .finishLater(token: 2, after: .seconds(2), result: .status("done")),
        .reload,
      ], now: 0, adding: adding)
    scheduler.apply([.expireBanner(id: 3, after: .seconds(5))], now: 3, adding: adding)
    #expect(scheduler.nextDue == 2)
    #expect(scheduler.popDue(now: 1) == nil)
    #expect(scheduler.popDue(now: 8) == .workFinished(token: 2, result: .status("done")))
    #expect(scheduler.popDue(now: 8) == .bannerExpired(id: 1))
    #expect(scheduler.popDue(now: 8) == .bannerExpired(id: 3))
    #expect(scheduler.popDue(now: 8) == nil)
  }

  @Test func cancellingWorkLeavesTheBannerExpiry() {
    var scheduler = WorkScheduler<Int>()
    let adding: (Int, Duration) -> Int = { now, delay in now + Int(delay.components.seconds) }
    scheduler.apply(
      [
        .finishLater(token: 1, after: .seconds(2), result: .status("x")),
        .expireBanner(id: 2, after: .seconds(5)),
      ], now: 0, adding: adding)
    scheduler.apply([.cancelWork(token: 1)], now: 1, adding: adding)
    #expect(scheduler.nextDue == 5)
    #expect(scheduler.popDue(now: 5) == .bannerExpired(id: 2))
  }

  @Test func aBannerGoesAwayAfterItsLifetimeOnTheVirtualClock() {
    var console = FrontEnd.console()
    var scheduler = WorkScheduler<Duration>()
    var clock = Duration.zero
    scheduler.apply(
      console.send(.pushReceived(title: "One", body: "1", url: nil)), now: clock, adding: +)
    clock = .seconds(3)
    scheduler.apply(
      console.send(.pushReceived(title: "Two", body: "2", url: nil)), now: clock, adding: +)
    // At 5 s the first banner's expiry arrives and is ignored: the second stays.
    clock = .seconds(5)
    while let event = scheduler.popDue(now: clock) { console.send(event) }
    #expect(console.model.banner?.title == "Two")
    clock = .milliseconds(7_999)
    #expect(scheduler.popDue(now: clock) == nil)
    clock = .seconds(8)
    while let event = scheduler.popDue(now: clock) { console.send(event) }
    #expect(console.model.banner == nil)
    #expect(scheduler.nextDue == nil)
  }
}

/// A reload's message as a person would write it, and a refused one shown whole.
@Suite struct ReloadMessageTests {
  @Test func aGoodReloadSaysWhatWasLoaded() {
    var console = FrontEnd.console()
    _ = console.replaceTable(smallTable(version: nil), from: "routes.json")
    #expect(console.statusLine == "Loaded the route table from routes.json (2 routes)")
    _ = console.replaceTable(smallTable(version: 3), from: "routes.json")
    #expect(console.statusLine == "Loaded route table v3 from routes.json (2 routes)")
  }

  @Test func aLongRefusalPointsToTheLogWhichShowsItWhole() {
    var console = FrontEnd.console()
    let reason =
      "routes.json:12:20: routes[7].screen: expected a string, not a number; fix the table and reload again"
    console.refuseTable(reason)
    let lines = drawn(console)
    #expect(lines[22].hasSuffix("… (F2: all)"), "\(lines[22])")
    _ = console.press(.function(2))
    let log = drawn(console).joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(log.contains("fix the table and reload again; keeping the one in force"), "\(log)")
  }
}
