import Testing

@testable import Interface
@testable import Render
@testable import Replay
@testable import Shell

// Snapshot rows, the "too small" notice and the layout of ConsoleView.

/// Sizes from the minimum up to 200x60, and lopsided ones.
private let drawableSizes: [Size] = [
  (20, 6), (21, 7), (24, 8), (28, 9), (30, 10), (40, 11), (40, 12), (50, 16), (60, 20), (80, 24),
  (100, 30), (132, 43), (160, 50), (200, 60), (200, 6), (20, 60), (33, 13),
].map { Size(columns: $0.0, rows: $0.1) }

/// Sizes below 20x6.
private let tooSmallSizes: [Size] = [
  (19, 6), (20, 5), (19, 5), (1, 1), (1, 6), (20, 1), (5, 3), (10, 2), (18, 4), (200, 5), (19, 60),
].map { Size(columns: $0.0, rows: $0.1) }

/// Named states to draw, each reached from a fresh console.
private enum DrawState: String, CaseIterable {
  case home, pushed, deep, selected, manyLastLink, modal, modalPushedSelected, fiveModals
  case alert, alertOverModal, help, log, longPrompt, promptCursorInTheMiddle, controlText
  case notice, tabMe

  func apply(to console: inout Console) {
    switch self {
    case .home: break
    case .pushed: console.open("myapp://orders/7")
    case .deep:
      for url in ["myapp://orders/7", "myapp://user/张三", "myapp://many"] { console.open(url) }
    case .selected: console.press(.up)
    case .manyLastLink:
      console.open("myapp://many")
      console.press(.up)
    case .modal: console.open("navigator://modal/user/bob")
    case .modalPushedSelected:
      console.open("navigator://modal/user/bob")
      console.open("myapp://orders")
      console.press(.down)
    case .fiveModals:
      for name in ["a", "b", "c", "d", "e"] { console.open("navigator://modal/user/\(name)") }
    case .alert: console.open("nope://" + String(repeating: "long/", count: 30))
    case .alertOverModal:
      console.open("navigator://modal/user/bob")
      console.open("myapp://gone")
    case .help: console.press(.function(1))
    case .log:
      for url in ["myapp://orders/7", "nope://x", "myapp://orders"] { console.open(url) }
      console.press(.function(2))
    case .longPrompt: console.type("myapp://user/" + String(repeating: "张三ab", count: 30))
    case .promptCursorInTheMiddle:
      console.type(String(repeating: "x中", count: 40))
      for _ in 0..<25 { console.press(.left) }
    case .controlText:
      console.open("myapp://user/%1B%5B31m%E2%80%AE%07")
      console.type("\u{1b}[2J\u{202e}")
    case .notice:
      console.type("myapp://or")
      console.press(.tab)
    case .tabMe: console.press(.backTab)
    }
  }
}

private func render(_ console: Console) -> Grid { ConsoleView.render(console) }

/// Whether a tab-bar row marks `title` as selected: `[ Home ]`, or `[Home]` when narrow.
private func marksTab(_ line: String, _ title: String) -> Bool {
  line.contains("[ \(title) ]") || line.contains("[\(title)]")
}

/// A console of `size` after `state`.
private func console(_ size: Size, _ state: DrawState) -> Console {
  var console = FrontEnd.console(size)
  state.apply(to: &console)
  return console
}

@Suite struct RenderTests {
  // MARK: Layout invariants

  @Test(arguments: drawableSizes)
  func everyStateDrawsSoundlyAtEverySize(size: Size) {
    for state in DrawState.allCases {
      let grid = render(console(size, state))
      expectSound(grid, size: size, "\(state) at \(size):")
      #expect(grid.text.filter { $0 == "\n" }.count == size.rows)
      let lines = rows(grid)
      #expect(lines[size.rows - 1].hasPrefix("URL›"), "\(state) at \(size)")
      #expect(grid.cursor?.row == size.rows - 1, "\(state) at \(size)")
      if let column = grid.cursor?.column {
        #expect(column >= 5 && column < size.columns, "\(state) at \(size)")
      }
    }
  }

  @Test(arguments: drawableSizes)
  func barsAreWhereTheyBelong(size: Size) {
    let lines = rows(render(console(size, .pushed)))
    #expect(lines[0].contains("Order"))
    #expect(marksTab(lines[size.rows - 3], "Home"), "\(lines[size.rows - 3])")
    #expect(lines[size.rows - 2] == "Opened Order 7")
    #expect(lines[size.rows - 1] == "URL›")
    if size.rows >= 12 {
      #expect(lines[1].allSatisfy { $0 == "─" })
      #expect(lines[size.rows - 4].allSatisfy { $0 == "─" })
    }
  }

  @Test(arguments: drawableSizes)
  func theBodyAndLinksShowBelowTheBars(size: Size) {
    let lines = rows(render(console(size, .home)))
    let top = size.rows >= 12 ? 2 : 1
    #expect(lines[top].contains("Welcome."))
  }

  // MARK: Too small

  @Test(arguments: tooSmallSizes)
  func belowTheMinimumATooSmallNoticeShows(size: Size) {
    var drawn = FrontEnd.console(size)
    drawn.open("myapp://orders/7")
    let grid = render(drawn)
    expectSound(grid, size: size)
    #expect(grid.text.filter { $0 == "\n" }.count == size.rows)
    let text = rows(grid).joined(separator: "\n")
    #expect(!text.contains("Order 7"))
    if size.columns >= 18 && size.rows >= 2 {
      #expect(text.contains("Terminal too small"))
    }
    // Whole words only, whatever the size: the notice is never cut mid-word.
    let words = text.split(whereSeparator: \.isWhitespace)
    let known = ["Terminal", "too", "small", "Too", "Small", "need", "\(Size.minimum)", "!"]
    #expect(!words.isEmpty && words.allSatisfy { known.contains(String($0)) }, "\(text)")
  }

  @Test(arguments: tooSmallSizes)
  func drawingResumesWhenEnlarged(size: Size) {
    var drawn = FrontEnd.console(Size(columns: 80, rows: 24))
    drawn.open("myapp://orders/7")
    drawn.resize(size)
    #expect(!rows(render(drawn)).joined().contains("Order 7"))
    drawn.resize(Size(columns: 80, rows: 24))
    let lines = rows(render(drawn))
    #expect(lines[0].contains("Order 7"))
    #expect(lines[21].contains("[ Home ]"))
  }

  @Test func aReplayedResizeBelowTheMinimumAndBack() throws {
    let script = try KeyScript(
      parsing: "myapp://orders/7<Enter><Resize 10x3><Snap><Resize 80x24>", file: "r.keys")
    var replayer = Replayer(console: FrontEnd.console())
    let snapshots = replayer.run(script)
    #expect(snapshots.count == 2)
    #expect(snapshots[0].grid.height == 3)
    #expect(snapshots[0].grid.text.hasPrefix(" Terminal\n"))
    #expect(snapshots[1].grid.height == 24)
    #expect(snapshots[1].grid.text(ofRow: 0).contains("Order 7"))
  }

  @Test func aZeroSizeDrawsNothing() {
    let grid = render(FrontEnd.console(Size(columns: 0, rows: 0)))
    #expect(grid.text == "")
  }

  // MARK: Navigation bar

  @Test func theBackLabelNamesThePreviousScreen() {
    var drawn = FrontEnd.console()
    drawn.open("myapp://orders/7")
    #expect(rows(render(drawn))[0].hasPrefix("‹ Home"))
    drawn.open("myapp://user/张三")
    let bar = rows(render(drawn))[0]
    #expect(bar.hasPrefix("‹ Order 7"))
    #expect(bar.contains("张三"))
  }

  @Test func aRootScreenHasNoBackLabel() {
    let bar = rows(render(FrontEnd.console()))[0]
    #expect(!bar.contains("‹"))
    #expect(bar.drop { $0 == " " } == "Home")
  }

  @Test(arguments: drawableSizes)
  func aLongBackLabelIsClipped(size: Size) {
    var drawn = FrontEnd.console(size)
    drawn.open("myapp://user/" + String(repeating: "很长的名字", count: 20))
    drawn.open("myapp://orders/7")
    let bar = rows(render(drawn))[0]
    #expect(bar.hasPrefix("‹ 很"))
    #expect(bar.contains("…"))
    #expect(TextWidth.of(bar) <= size.columns)
  }

  // MARK: Tab bar

  @Test func theSelectedTabIsMarked() {
    var drawn = FrontEnd.console()
    #expect(rows(render(drawn))[21].contains("[ Home ]"))
    drawn.press(.tab)
    let bar = rows(render(drawn))[21]
    #expect(bar.contains("[ Orders ]"))
    #expect(bar.contains("  Home  "))
    #expect(!bar.contains("[ Home ]"))
  }

  // Regression: the tab bar was centred but never narrowed, so at widths below its full width
  // (28 columns for Home, Orders, Me) the last tab fell off the right edge, selected or not.
  @Test(arguments: drawableSizes)
  func theSelectedTabIsVisibleAtEverySize(size: Size) {
    for tab in 0..<3 {
      var drawn = FrontEnd.console(size)
      for _ in 0..<tab { drawn.press(.tab) }
      let title = ["Home", "Orders", "Me"][tab]
      let bar = rows(render(drawn))[size.rows - 3]
      #expect(marksTab(bar, title), "\(title) at \(size): \(bar)")
      for other in ["Home", "Orders", "Me"] where other != title {
        #expect(bar.contains(other) && !marksTab(bar, other), "\(other) at \(size): \(bar)")
      }
    }
  }

  // MARK: Modals

  @Test func aModalIsDrawnOverTheTabsWithItsOwnTitle() {
    var drawn = FrontEnd.console()
    drawn.open("navigator://modal/user/bob")
    let lines = rows(render(drawn))
    #expect(lines[0].contains("Home"))
    #expect(lines[1].dropFirst().hasPrefix("┌"))
    #expect(lines[2].contains("✕ Close"))
    #expect(lines[2].contains("bob"))
    #expect(lines[21].hasPrefix(" └"))
    #expect(!lines[21].contains("Home"))
    #expect(lines.contains { $0.contains("Profile of bob.") })
  }

  @Test func aModalsOwnStackHasABackLabel() {
    var drawn = FrontEnd.console()
    drawn.open("navigator://modal/user/bob")
    drawn.open("myapp://settings")
    let lines = rows(render(drawn))
    #expect(lines[2].contains("‹ bob"))
    #expect(lines[2].contains("Settings"))
    #expect(!lines[2].contains("✕ Close"))
  }

  @Test func stackedModalsAreInsetAndTheTopOneIsWhole() {
    var drawn = FrontEnd.console()
    drawn.open("navigator://modal/user/bob")
    drawn.open("navigator://modal/user/carol")
    let lines = rows(render(drawn))
    #expect(lines[2].hasPrefix(" │┌"))
    #expect(lines[3].contains("carol"))
    #expect(lines.contains { $0.contains("Profile of carol.") })
    #expect(!lines.contains { $0.contains("Profile of bob.") })
  }

  // MARK: Alerts

  @Test func anAlertIsBoxedWithItsTitleAndMessage() throws {
    var drawn = FrontEnd.console()
    drawn.open("nope://x")
    let lines = rows(render(drawn))
    let titleRow = try #require(lines.firstIndex { $0.contains("No route") })
    #expect(lines[titleRow - 1].contains("┌"))
    #expect(lines[titleRow].contains("│"))
    #expect(lines[titleRow + 1].contains("No route for nope://x"))
    let buttonRow = try #require(lines.firstIndex { $0.contains("[ OK ]") })
    #expect(buttonRow > titleRow + 1)
    #expect(lines[buttonRow + 1].contains("└"))
  }

  @Test(arguments: drawableSizes.filter { $0.rows >= 8 })
  func aLongAlertMessageIsWrappedInsideTheBox(size: Size) {
    var drawn = FrontEnd.console(size)
    drawn.open("nope://" + String(repeating: "segment/", count: 12))
    let lines = rows(render(drawn))
    #expect(lines.contains { $0.contains("No route") }, "\(size)")
    #expect(lines.contains { $0.contains("No route for") }, "\(size)")
    #expect(lines.contains { $0.contains("[ OK ]") }, "\(size)")
  }

  // MARK: Cursor and prompt

  @Test func theCursorSitsInThePromptAfterTheText() {
    var drawn = FrontEnd.console()
    drawn.type("myapp://张三")
    #expect(render(drawn).cursor?.row == 23)
    #expect(render(drawn).cursor?.column == 5 + 8 + 4)
    drawn.press(.home)
    #expect(render(drawn).cursor?.column == 5)
    drawn.press(.right, .right)
    #expect(render(drawn).cursor?.column == 7)
  }

  @Test func aLongPromptScrollsToKeepTheCursorVisible() {
    var drawn = FrontEnd.console(Size(columns: 20, rows: 6))
    drawn.type(String(repeating: "abcdefghij", count: 5) + "XYZ")
    let grid = render(drawn)
    let line = grid.text(ofRow: 5)
    #expect(line.hasSuffix("XYZ"))
    #expect(grid.cursor?.column == 5 + TextWidth.of(String(line.dropFirst(5))))
    #expect(grid.cursor.map { $0.column < 20 } == true)
  }

  @Test func theCursorSitsInThePromptUnderAnAlertOrHelp() {
    var alert = FrontEnd.console()
    alert.open("nope://x")
    #expect(render(alert).cursor?.row == 23)
    var help = FrontEnd.console()
    help.press(.function(1))
    #expect(render(help).cursor?.row == 23)
  }

  // Regression: a combining mark typed as its own key (the terminal's decoder yields one key
  // per scalar, e.g. "e" then U+0301) was kept as its own Character in the prompt and drawn in
  // its own cell, so the grid said 2 columns where a terminal shows 1, and the cursor was one
  // column right of the text.
  @Test func aCombiningMarkTypedAloneJoinsTheCharacterBeforeIt() {
    var drawn = FrontEnd.console()
    drawn.type("caf")
    drawn.press(.character("e"), .character("\u{301}"))
    #expect(drawn.prompt.text == "cafe\u{301}")
    let grid = render(drawn)
    let line = grid.text(ofRow: 23)
    #expect(line == "URL› cafe\u{301}")
    #expect(grid.cursor?.column == TextWidth.of(line))
    expectSound(grid)
  }

  // MARK: Status, selection, help, log

  @Test func theStatusLineShowsNotices() {
    var drawn = FrontEnd.console()
    drawn.type("zzz")
    drawn.press(.tab)
    #expect(rows(render(drawn))[22] == "No completion")
  }

  @Test func theSelectedLinkIsMarkedAndScrolledIntoView() throws {
    var drawn = FrontEnd.console(Size(columns: 40, rows: 12))
    drawn.open("myapp://many")
    var lines = rows(render(drawn))
    #expect(!lines.contains { $0.contains("L12") })
    drawn.press(.up)
    lines = rows(render(drawn))
    #expect(lines.contains { $0.hasPrefix(" ▸ L12") })
    drawn.press(.up)
    lines = rows(render(drawn))
    #expect(lines.contains { $0.hasPrefix(" ▸ L11") })
  }

  @Test func helpListsEveryBinding() {
    var drawn = FrontEnd.console(Size(columns: 100, rows: 30))
    drawn.press(.function(1))
    let text = rows(render(drawn)).joined(separator: "\n")
    #expect(text.contains("Keys (Esc or F1 closes)"))
    for binding in Console.bindings {
      #expect(text.contains(binding.keys), "\(binding.keys)")
    }
  }

  @Test func theLogShowsEachURLAndItsOutcome() {
    var drawn = FrontEnd.console()
    drawn.open("myapp://orders/7")
    drawn.open("nope://x")
    // F2 is swallowed while the alert is up: dismiss it first.
    drawn.press(.function(2))
    #expect(!drawn.showsLog)
    drawn.press(.escape, .function(2))
    let text = rows(render(drawn)).joined(separator: "\n")
    #expect(text.contains("Event log"))
    #expect(text.contains("[prompt] myapp://orders/7"))
    #expect(text.contains("pushed order-detail"))
    #expect(text.contains("[prompt] nope://x"))
  }

  // Regression: the log pane was at least 3 rows, taken from the bottom of the content area;
  // at 6 rows the content area is 2 rows, so the pane started at row 0 and covered the
  // navigation bar.
  @Test(arguments: drawableSizes)
  func theLogPaneLeavesTheNavigationBar(size: Size) {
    var drawn = FrontEnd.console(size)
    drawn.press(.function(2))
    #expect(rows(render(drawn))[0].contains("Home"), "\(size)")
  }

  // MARK: Inert text

  @Test func controlCharactersFromURLsAndTypingAreDrawnEscaped() {
    var drawn = FrontEnd.console()
    drawn.open("myapp://user/%1B%5B31m%E2%80%AEx")
    drawn.type("\u{1b}[2J")
    let grid = render(drawn)
    let text = rows(grid).joined(separator: "\n")
    #expect(drawn.model.shell.topScreen.name == "user-profile")
    #expect(text.contains(#"\x1b[31m\u{202e}x"#))
    #expect(rows(grid)[23] == #"URL› \x1b[2J"#)
    expectSound(grid)
  }
}
