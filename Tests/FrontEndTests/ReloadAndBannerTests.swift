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
private func table(version: Int?, fresh: Bool = true, extra: [String] = []) -> RouteTable {
  var head = #"{"routes":["#
  if let version { head = #"{"version":\#(version),"routes":["# }
  let added = (fresh ? [#"{"pattern":"myapp://fresh","screen":"settings"}"#] : []) + extra
  let text = FrontEnd.routes.replacing(
    #"{"routes":["#, with: head + added.map { $0 + "," }.joined())
  return try! RouteTable(json: text)
}

/// A table with only a home and a settings route.
private func smallTable(version: Int?) -> RouteTable {
  let versionMember = version.map { #""version":\#($0),"# } ?? ""
  return try! RouteTable(
    json:
      #"{\#(versionMember)"routes":[{"pattern":"myapp://home","screen":"home"},{"pattern":"myapp://settings","screen":"settings"}]}"#
  )
}

/// A console showing a banner for `url` (expiry effects dropped).
private func consoleWithBanner(
  _ url: String?, title: String = "Shipped", body: String = "Your order is on its way",
  size: Size = Size(columns: 80, rows: 24)
) -> Console {
  var console = FrontEnd.console(size)
  console.send(.pushReceived(title: title, body: body, url: url))
  return console
}

/// The rows of the console's grid.
private func drawn(_ console: Console) -> [String] { rows(ConsoleView.render(console)) }

/// The first row holding `text`, if any.
private func row(containing text: String, in lines: [String]) -> Int? {
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
    #expect(entry.source == .banner)
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
    #expect(entry.source == .banner)
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
    #expect(console.press(.control("r")).isEmpty)
    #expect(console.wantsReload)
    #expect(console.notice == "Reloading the route table…")
    // The console does no I/O: the model and the table are untouched.
    #expect(console.model == before)
    #expect(console.app.table.version == nil)
    let first = console.takeReloadRequest()
    #expect(first)
    #expect(!console.wantsReload)
    let second = console.takeReloadRequest()
    #expect(!second)
  }

  @Test func twoControlRsAreOneRequest() {
    var console = FrontEnd.console()
    console.press(.control("r"), .control("r"))
    let first = console.takeReloadRequest()
    #expect(first)
    let second = console.takeReloadRequest()
    #expect(!second)
  }

  @Test func controlRWorksWithTextInThePrompt() {
    var console = FrontEnd.console()
    console.type("myapp://")
    console.press(.control("r"))
    let taken = console.takeReloadRequest()
    #expect(taken)
    #expect(console.prompt.text == "myapp://")
  }

  @Test func anAlertBlocksControlR() {
    var console = FrontEnd.console()
    console.open("nope://x")
    console.press(.control("r"))
    #expect(!console.wantsReload)
    let taken = console.takeReloadRequest()
    #expect(!taken)
    #expect(console.model.shell.alert != nil)
  }

  @Test func noReloadIsWantedAtFirst() {
    var console = FrontEnd.console()
    #expect(!console.wantsReload)
    let taken = console.takeReloadRequest()
    #expect(!taken)
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
    #expect(note.text == "Route table v2 loaded from routes.json (24 routes)")
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
    #expect(note.text == "Route table unversioned loaded from plain.json (24 routes)")
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
        .deliverResult(token: 9, value: nil),
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

  // MARK: Drawing the banner

  @Test func theBannerIsDrawnAtTheTop() {
    let console = consoleWithBanner("myapp://orders/7")
    let grid = ConsoleView.render(console)
    expectSound(grid, size: console.size)
    let lines = rows(grid)
    // A 60-column box centred at the top, over the navigation bar.
    #expect(lines[0].hasPrefix(String(repeating: " ", count: 10) + "┌"))
    #expect(lines[0].hasSuffix("┐"))
    #expect(TextWidth.of(lines[0]) == 70)
    #expect(lines[1].contains("│Shipped"))
    #expect(lines[2].contains("│Your order is on its way"))
    #expect(lines[3].contains(" C-o open ┘"))
    #expect(lines[3].contains("└"))
    // The screen below still shows.
    #expect(lines.contains { $0.contains("Welcome.") })
    // The title is bold in the title role.
    let titleCell = grid[1, 11]
    #expect(titleCell.text == "S")
    #expect(titleCell.style == Style(.title, bold: true))
  }

  @Test func aBannerWithoutAURLOffersToDismiss() {
    let lines = drawn(consoleWithBanner(nil, title: "", body: "Just so you know"))
    #expect(lines[3].contains(" C-o dismiss "))
    #expect(!lines[3].contains("C-o open"))
    // No title: a generic one.
    #expect(lines[1].contains("│Notification"))
    #expect(lines[2].contains("│Just so you know"))
  }

  @Test func theBannerGoesAwayFromTheScreen() {
    var console = consoleWithBanner(nil)
    #expect(drawn(console)[1].contains("Shipped"))
    console.send(.bannerExpired(id: 1))
    let lines = drawn(console)
    #expect(!lines.joined().contains("Shipped"))
    #expect(!lines[0].contains("┌"))
  }

  @Test func aLongBannerIsClippedInsideItsBox() {
    let long = String(repeating: "长标题", count: 40)
    let console = consoleWithBanner("myapp://orders/7", title: long, body: long + "tail")
    let grid = ConsoleView.render(console)
    expectSound(grid, size: console.size)
    let lines = rows(grid)
    #expect(lines[1].contains("…"))
    #expect(lines[2].contains("…"))
    #expect(!lines[2].contains("tail"))
    // The box's right edge is intact.
    #expect(grid[1, 69].text == "│")
    #expect(grid[2, 69].text == "│")
  }

  @Test(
    arguments: [
      Size(columns: 20, rows: 6), Size(columns: 21, rows: 7), Size(columns: 30, rows: 8),
      Size(columns: 40, rows: 12), Size(columns: 61, rows: 10), Size(columns: 200, rows: 6),
      Size(columns: 20, rows: 60), Size(columns: 80, rows: 24),
    ])
  func theBannerFitsEverySize(size: Size) {
    var console = consoleWithBanner(
      "myapp://orders/7", title: "Order 7 shipped", body: "Arrives tomorrow", size: size)
    console.open("navigator://modal/user/bob")
    let grid = ConsoleView.render(console)
    #expect(grid.width == size.columns)
    #expect(grid.height == size.rows)
    expectSound(grid, size: size)
    let lines = rows(grid)
    #expect(lines[0].contains("┌"))
    #expect(lines[1].contains("│Order"))
    // The status line and prompt stay below it.
    #expect(lines[size.rows - 1].hasPrefix("URL›"))
  }

  @Test func theBannerAtTheMinimumSize() {
    let console = consoleWithBanner(
      "myapp://orders/7", title: "Hi", body: "Body", size: Size(columns: 20, rows: 6))
    let grid = ConsoleView.render(console)
    expectSound(grid, size: Size(columns: 20, rows: 6))
    let lines = rows(grid)
    #expect(lines[0] == "┌" + String(repeating: "─", count: 18) + "┐")
    #expect(lines[1] == "│Hi" + String(repeating: " ", count: 16) + "│")
    #expect(lines[2] == "│Body" + String(repeating: " ", count: 14) + "│")
    #expect(lines[3] == "└────────" + " C-o open " + "┘")
  }

  @Test func controlCharactersInABannerComeOutInert() {
    let console = consoleWithBanner(
      "myapp://orders/7", title: "\u{1b}[2J\u{1b}]0;pwned\u{07}Hi\u{9b}31m",
      body: "\u{202e}evil\u{0}\u{85}\r\nnext\u{7f}")
    let grid = ConsoleView.render(console)
    expectSound(grid, size: console.size)
    let lines = rows(grid)
    #expect(!lines.contains(where: hasUnsafeScalar))
    #expect(!hasUnsafeScalar(grid.text.replacing("\n", with: "")))
    #expect(lines[1].contains(#"\x1b[2J\x1b]0;pwned\x07Hi\x9b31m"#))
    #expect(lines[2].contains(#"\u{202e}evil\x00\x85\x0d\x0anext\x7f"#))
  }

  @Test(arguments: [Size(columns: 20, rows: 6), Size(columns: 33, rows: 13)])
  func controlCharactersInABannerStayInertWhenCut(size: Size) {
    let console = consoleWithBanner(
      nil, title: String(repeating: "\u{1b}[31m", count: 20),
      body: String(repeating: "\u{9b}\u{202e}", count: 20), size: size)
    let grid = ConsoleView.render(console)
    expectSound(grid, size: size)
    #expect(!rows(grid).contains(where: hasUnsafeScalar))
  }

  @Test func anAlertIsDrawnOverTheBanner() {
    var console = consoleWithBanner(nil)
    console.open("nope://x")
    let grid = ConsoleView.render(console)
    expectSound(grid, size: console.size)
    let lines = rows(grid)
    #expect(lines[0].contains("┌"))
    #expect(lines.contains { $0.contains("No route") })
  }

  // MARK: Notes in the log pane

  @Test func notesShowInTheLogBetweenURLEntries() throws {
    var console = FrontEnd.console()
    console.open("myapp://orders/7")
    let accepted = console.replaceTable(table(version: 2), from: "fresh.json")
    #expect(accepted)
    console.open("myapp://settings")
    console.refuseTable("bad signature")
    console.press(.function(2))
    let grid = ConsoleView.render(console)
    expectSound(grid, size: console.size)
    let lines = rows(grid)
    let first = try #require(row(containing: "[prompt] myapp://orders/7", in: lines))
    let loaded = try #require(
      row(containing: "! Route table v2 loaded from fresh.json (24 routes)", in: lines))
    let second = try #require(row(containing: "[prompt] myapp://settings", in: lines))
    let refused = try #require(
      row(containing: "! Route table refused: bad signature; keeping the one in force", in: lines))
    #expect(first < loaded)
    #expect(loaded < second)
    #expect(second < refused)
    // The entry's detail line comes right after its head, before the note.
    #expect(loaded == first + 2)
    #expect(refused == second + 2)
    // A problem in the alert role, the rest in the success role.
    #expect(grid[loaded, 1].text == "!")
    #expect(grid[loaded, 1].style.role == .success)
    #expect(grid[refused, 1].style.role == .alert)
  }

  @Test func notesAreNotInTheLogWhenItIsHidden() {
    var console = FrontEnd.console()
    console.refuseTable("bad signature")
    #expect(!drawn(console).contains { $0.contains("! Route table") })
    console.press(.function(2))
    #expect(drawn(console).contains { $0.contains("! Route table refused: bad signature") })
  }

  @Test func aNoteBeforeAnyURLShowsFirst() throws {
    var console = FrontEnd.console()
    console.refuseTable("first")
    console.open("myapp://settings")
    console.press(.function(2))
    let lines = drawn(console)
    let note = try #require(row(containing: "! Route table refused: first", in: lines))
    let entry = try #require(row(containing: "[prompt] myapp://settings", in: lines))
    #expect(note == entry - 1)
  }

  @Test func oldNotesScrollOutWithTheirEntries() throws {
    var console = FrontEnd.console()
    console.refuseTable("oldest")
    for number in 1...10 { console.open("myapp://orders/\(number)") }
    console.refuseTable("newest")
    console.press(.function(2))
    let lines = drawn(console)
    #expect(!lines.contains { $0.contains("oldest") })
    let newest = try #require(row(containing: "! Route table refused: newest", in: lines))
    let last = try #require(row(containing: "[prompt] myapp://orders/10", in: lines))
    #expect(newest == last + 2)
  }

  @Test func aNoteWithControlCharactersIsInertInTheLog() {
    var console = FrontEnd.console()
    console.refuseTable("bad \u{1b}[2J\u{07} table")
    console.press(.function(2))
    let grid = ConsoleView.render(console)
    expectSound(grid, size: console.size)
    #expect(rows(grid).contains { $0.contains(#"bad \x1b[2J\x07 table"#) })
  }

  // MARK: Replayer

  @Test func replayingControlRWithoutAHookNotesThatReloadingIsUnavailable() throws {
    var replayer = Replayer(console: FrontEnd.console())
    replayer.press(.control("r"))
    let note = try #require(replayer.console.model.notes.last)
    #expect(
      note
        == Note(
          text: "Route table refused: reloading is not available here; keeping the one in force",
          isProblem: true, position: 0))
    #expect(replayer.console.model.notes.count == 1)
    #expect(replayer.console.model.status == note.text)
    #expect(replayer.console.app.table.version == nil)
    #expect(!replayer.console.wantsReload)
  }

  @Test func replayingControlRCallsTheHookOnce() throws {
    var replayer = Replayer(console: FrontEnd.console())
    var calls = 0
    replayer.reloadTable = { console in
      calls += 1
      console.replaceTable(table(version: calls + 1), from: "hook \(calls)")
    }
    let script = try KeyScript(
      parsing: "myapp://settings<Enter><C-r><Esc>myapp://fresh<Enter><F2><Snap>", file: "r.keys")
    let snapshots = replayer.run(script)
    #expect(calls == 1)
    #expect(replayer.console.app.table.version == 2)
    #expect(
      replayer.console.model.notes.map(\.text) == ["Route table v2 loaded from hook 1 (24 routes)"])
    #expect(replayer.console.model.notes.first?.position == 1)
    // Esc went back from settings; the fresh route opened.
    #expect(replayer.console.stackNames == ["home", "settings"])
    #expect(replayer.console.model.log.last?.url == "myapp://fresh")
    #expect(replayer.console.model.shell.alert == nil)
    let lines = rows(snapshots[0].grid)
    #expect(lines.contains { $0.contains("! Route table v2 loaded from hook 1") })
  }

  @Test func theHookIsNotCalledWithoutControlRNorUnderAnAlert() throws {
    var replayer = Replayer(console: FrontEnd.console())
    var calls = 0
    replayer.reloadTable = { _ in calls += 1 }
    _ = replayer.run(
      try KeyScript(parsing: "myapp://settings<Enter><F2><Esc><C-o>", file: "a.keys"))
    #expect(calls == 0)
    _ = replayer.run(try KeyScript(parsing: "nope://x<Enter><C-r>", file: "b.keys"))
    #expect(replayer.console.model.shell.alert != nil)
    #expect(calls == 0)
    _ = replayer.run(try KeyScript(parsing: "<Enter><C-r><C-r>", file: "c.keys"))
    #expect(calls == 2)
  }

  @Test func replayingControlOOpensTheBanner() throws {
    var replayer = Replayer(console: consoleWithBanner("myapp://user/ann"))
    let snapshots = replayer.run(try KeyScript(parsing: "<Snap><C-o>", file: "o.keys"))
    #expect(rows(snapshots[0].grid)[1].contains("│Shipped"))
    #expect(replayer.console.model.banner == nil)
    #expect(replayer.console.stackNames == ["home", "user-profile"])
    #expect(replayer.console.model.log.last?.source == .banner)
    #expect(!rows(snapshots[1].grid)[1].contains("Shipped"))
  }

  @Test func theReloadOutcomeReplacesTheReloadingNotice() throws {
    // The reload is done by the time the screen is drawn: the status line should say how it
    // went (the note), not that it is still reloading.
    var refused = Replayer(console: FrontEnd.console())
    let refusedLines = rows(refused.run(try KeyScript(parsing: "<C-r>", file: "r.keys"))[0].grid)
    #expect(refusedLines[22].contains("reloading is not available here"), "\(refusedLines[22])")
    #expect(refused.console.statusLine == refused.console.model.notes.last?.text)

    var loaded = Replayer(console: FrontEnd.console())
    loaded.reloadTable = { console in console.replaceTable(table(version: 2), from: "hook") }
    _ = loaded.run(try KeyScript(parsing: "<C-r>", file: "r.keys"))
    #expect(loaded.console.statusLine == "Route table v2 loaded from hook (24 routes)")
  }
}
