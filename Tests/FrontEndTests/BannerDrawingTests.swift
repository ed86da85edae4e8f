import Testing

@testable import Interface
@testable import Render
@testable import Replay
@testable import Routing
@testable import Shell

// Drawing the banner, notes in the log pane, and the replayer: part of ReloadAndBannerTests.

extension ReloadAndBannerTests {
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
      row(containing: "! Loaded route table v2 from fresh.json (24 routes)", in: lines))
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
      replayer.console.model.notes.map(\.text) == ["Loaded route table v2 from hook 1 (24 routes)"])
    #expect(replayer.console.model.notes.first?.position == 1)
    // Esc went back from settings; the fresh route opened.
    #expect(replayer.console.stackNames == ["home", "settings"])
    #expect(replayer.console.model.log.last?.url == "myapp://fresh")
    #expect(replayer.console.model.shell.alert == nil)
    let lines = rows(snapshots[0].grid)
    #expect(lines.contains { $0.contains("! Loaded route table v2 from hook 1") })
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
    #expect(replayer.console.model.log.last?.origin == .banner)
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
    #expect(loaded.console.statusLine == "Loaded route table v2 from hook (24 routes)")
  }
}
