import Testing

@testable import Interface
@testable import Routing
@testable import Shell

// The keys a user can rely on (Enter, Esc, Tab, Up/Down, F1, Ctrl-C), and the console's own
// keys (F2, readline).

@Suite struct ConsoleTests {
  // MARK: Readline keys

  @Test func readlineMovesAndDeletes() {
    var console = FrontEnd.console()
    console.type("myapp://orders")
    console.press(.control("a"))
    #expect(console.prompt.cursor == 0)
    console.press(.control("e"))
    #expect(console.prompt.cursor == 14)
    console.press(.home)
    #expect(console.prompt.cursor == 0)
    console.press(.end, .left, .left)
    #expect(console.prompt.cursor == 12)
    console.press(.right)
    #expect(console.prompt.cursor == 13)
    console.press(.backspace)
    #expect(console.prompt.text == "myapp://ordes")
    console.press(.home, .delete)
    #expect(console.prompt.text == "yapp://ordes")
    console.press(.control("f"), .control("d"))
    #expect(console.prompt.text == "ypp://ordes")
    console.press(.control("b"))
    #expect(console.prompt.cursor == 0)
  }

  @Test func readlineKills() {
    var console = FrontEnd.console()
    console.type("open myapp://orders/1")
    console.press(.control("w"))
    #expect(console.prompt.text == "open ")
    console.type("myapp://me")
    console.press(.home, .right, .right, .control("k"))
    #expect(console.prompt.text == "op")
    console.press(.end, .left, .control("u"))
    #expect(console.prompt.text == "p")
    #expect(console.prompt.cursor == 0)
  }

  @Test func backspaceOnTheLastCharacterEmptiesThePrompt() {
    var console = FrontEnd.console()
    console.type("x")
    console.press(.backspace)
    #expect(console.prompt.isEmpty)
    // Now empty: Down selects a link again.
    console.press(.down)
    #expect(console.selectedLink == 0)
  }

  // MARK: History

  @Test func controlPAndControlNWorkWithAnEmptyPrompt() {
    var console = FrontEnd.console()
    console.open("myapp://settings")
    console.open("myapp://orders/1")
    #expect(console.prompt.isEmpty)
    console.press(.control("p"))
    #expect(console.prompt.text == "myapp://orders/1")
    console.press(.control("p"))
    #expect(console.prompt.text == "myapp://settings")
    console.press(.control("n"), .control("n"))
    #expect(console.prompt.isEmpty)
    #expect(console.selectedLink == nil)
  }

  @Test func upAndDownBrowseTheHistoryWhileTextIsPresent() {
    var console = FrontEnd.console()
    console.open("myapp://settings")
    console.open("myapp://orders/1")
    console.type("my")
    console.press(.up)
    #expect(console.prompt.text == "myapp://orders/1")
    console.press(.up)
    #expect(console.prompt.text == "myapp://settings")
    console.press(.down)
    #expect(console.prompt.text == "myapp://orders/1")
    console.press(.down)
    #expect(console.prompt.text == "my")
    #expect(console.selectedLink == nil)
  }

  @Test func upAndDownSelectLinksWhenThePromptIsEmpty() {
    var console = FrontEnd.console()
    console.open("myapp://settings")
    console.press(.escape)
    #expect(console.stackNames == ["home"])
    console.press(.up)
    #expect(console.prompt.isEmpty)
    #expect(console.selectedLink == 2)
  }

  // MARK: Completion

  @Test func tabCompletesAUniqueCandidate() {
    var console = FrontEnd.console()
    console.type("navigator://u")
    console.press(.tab)
    #expect(console.prompt.text == "navigator://user/")
    #expect(console.prompt.cursor == 17)
    #expect(console.model.shell.selectedTab == 0)
  }

  @Test func tabCompletesTheCommonPrefixAndListsTheChoices() {
    var console = FrontEnd.console()
    console.type("myapp://or")
    console.press(.tab)
    #expect(console.prompt.text == "myapp://orders")
    #expect(console.statusLine.contains("2 completions"))
    #expect(console.statusLine.contains("myapp://orders/"))
  }

  @Test func tabIsCaseInsensitive() {
    var console = FrontEnd.console()
    console.type("xywapp://pk")
    console.press(.tab)
    #expect(console.prompt.text == "XYWAPP://pkdetail/")
  }

  @Test func tabWithNoMatchKeepsTheText() {
    var console = FrontEnd.console()
    console.type("zzz")
    console.press(.tab)
    #expect(console.prompt.text == "zzz")
    #expect(console.statusLine == "No completion")
    #expect(console.model.shell.selectedTab == 0)
    // The notice lasts one key.
    console.press(.end)
    #expect(console.statusLine != "No completion")
  }

  @Test func completionCandidatesStopAtTheFirstPlaceholder() {
    let candidates = FrontEnd.console().completer.candidates
    #expect(candidates.contains("myapp://orders/"))
    #expect(candidates.contains("myapp://old-orders/"))
    #expect(candidates.contains("XYWAPP://pkdetail/open?pkID="))
    #expect(candidates.contains("myapp://"))
    #expect(!candidates.contains { $0.contains("<") || $0.contains("(") || $0.hasSuffix("/:") })
    #expect(candidates == candidates.sorted())
  }

  // MARK: Enter

  @Test func enterOpensAndEmptiesThePrompt() {
    var console = FrontEnd.console()
    console.type("myapp://orders/7")
    let effects = console.press(.enter)
    #expect(effects.isEmpty)
    #expect(console.prompt.isEmpty)
    #expect(console.stackNames == ["home", "order-detail"])
    #expect(console.model.log.last?.origin == .prompt)
  }

  @Test(arguments: ["nope://x", "myapp://orders/abc", "myapp://live/1", "myapp://gone", "x"])
  func enterEmptiesThePromptWhenTheURLFails(url: String) {
    var console = FrontEnd.console()
    console.open(url)
    #expect(console.prompt.isEmpty)
    #expect(console.model.shell.alert != nil)
    #expect(console.stackNames == ["home"])
    #expect(console.prompt.history.last == url)
  }

  @Test func enterOpensFromInsideTheApp() {
    var console = FrontEnd.console()
    // `external: false` routes work from the prompt.
    console.open("myapp://session/sign-in")
    #expect(console.model.shell.alert == nil)
    #expect(console.model.session.signedIn)
  }

  @Test func enterReturnsTheEffectsOfAnAsyncAction() {
    var console = FrontEnd.console()
    console.type("myapp://lookup/order/A-77")
    let effects = console.press(.enter)
    #expect(effects.count == 1)
    guard case .finishLater(let token, _, _)? = effects.first else {
      Issue.record("expected finishLater, got \(effects)")
      return
    }
    #expect(console.statusLine.contains("Esc cancels"))
    #expect(console.press(.escape) == [.cancelWork(token: token)])
    #expect(console.model.pending == nil)
  }

  @Test func enterWithAnEmptyPromptAndNoSelectionDoesNothing() {
    var console = FrontEnd.console()
    let before = console.model
    #expect(console.press(.enter).isEmpty)
    #expect(console.model == before)
  }

  // MARK: Esc

  @Test func escClearsThePromptWhenItHasText() {
    var console = FrontEnd.console()
    console.open("myapp://orders/7")
    console.type("myapp://x")
    let before = console.model
    console.press(.escape)
    #expect(console.prompt.isEmpty)
    #expect(console.model == before)
  }

  @Test func escGoesBackWhenThePromptIsEmpty() {
    var console = FrontEnd.console()
    console.open("myapp://orders/7")
    console.open("myapp://settings")
    console.press(.escape)
    #expect(console.stackNames == ["home", "order-detail"])
    console.press(.escape, .escape, .escape)
    #expect(console.stackNames == ["home"])
  }

  @Test func escPopsAModalThenDismissesIt() {
    var console = FrontEnd.console()
    console.open("navigator://modal/user/bob")
    console.open("myapp://settings")
    #expect(
      console.model.shell.modals.map { $0.stack.map(\.name) } == [["user-profile", "settings"]])
    console.press(.escape)
    #expect(console.model.shell.modals.map { $0.stack.map(\.name) } == [["user-profile"]])
    console.press(.escape)
    #expect(console.model.shell.modals.isEmpty)
    #expect(console.stackNames == ["home"])
  }

  // MARK: Alerts

  @Test func anAlertSwallowsOtherKeys() {
    var console = FrontEnd.console()
    console.open("nope://x")
    let before = console.model
    for key: Key in [
      .character("a"), .tab, .backTab, .down, .up, .function(1), .function(2), .control("p"),
      .backspace, .delete, .home, .pageDown, .control("w"),
    ] {
      #expect(console.handle(key).isEmpty)
    }
    #expect(console.model == before)
    #expect(console.prompt.isEmpty)
    #expect(console.selectedLink == nil)
    #expect(!console.showsHelp)
    #expect(!console.showsLog)
  }

  @Test(arguments: [Key.enter, .escape])
  func enterAndEscDismissAnAlert(key: Key) {
    var console = FrontEnd.console()
    console.open("nope://x")
    #expect(console.model.shell.alert?.title == "No route")
    console.press(key)
    #expect(console.model.shell.alert == nil)
    #expect(console.stackNames == ["home"])
    // The key only dismissed: nothing was followed or popped.
    #expect(console.selectedLink == nil)
  }

  @Test func anAlertOverAModalIsDismissedFirst() {
    var console = FrontEnd.console()
    console.open("navigator://modal/user/bob")
    console.open("myapp://gone")
    #expect(console.model.shell.alert?.title == "Upgrade required")
    console.press(.escape)
    #expect(console.model.shell.alert == nil)
    #expect(console.model.shell.modals.count == 1)
  }

  // MARK: Tabs

  @Test func tabAndShiftTabWrap() {
    var console = FrontEnd.console()
    var seen: [Int] = []
    for _ in 0..<4 {
      console.press(.tab)
      seen.append(console.model.shell.selectedTab)
    }
    #expect(seen == [1, 2, 0, 1])
    seen = []
    for _ in 0..<4 {
      console.press(.backTab)
      seen.append(console.model.shell.selectedTab)
    }
    #expect(seen == [0, 2, 1, 0])
  }

  @Test func eachTabKeepsItsStack() {
    var console = FrontEnd.console()
    console.open("myapp://orders/7")
    console.press(.tab)
    #expect(console.stackNames == ["order-list"])
    console.press(.backTab)
    #expect(console.stackNames == ["home", "order-detail"])
  }

  // MARK: Links

  @Test func downSelectsTheFirstLinkThenTheNextClamped() {
    var console = FrontEnd.console()
    #expect(console.selectedLink == nil)
    var seen: [Int?] = []
    for _ in 0..<5 {
      console.press(.down)
      seen.append(console.selectedLink)
    }
    #expect(seen == [0, 1, 2, 2, 2])
  }

  @Test func upSelectsTheLastLinkThenThePreviousClamped() {
    var console = FrontEnd.console()
    var seen: [Int?] = []
    for _ in 0..<5 {
      console.press(.up)
      seen.append(console.selectedLink)
    }
    #expect(seen == [2, 1, 0, 0, 0])
  }

  @Test func aScreenWithoutLinksSelectsNothing() {
    var console = FrontEnd.console()
    console.open("myapp://settings")
    console.press(.down, .up, .enter)
    #expect(console.selectedLink == nil)
    #expect(console.stackNames == ["home", "settings"])
  }

  @Test func enterFollowsTheSelectedLink() {
    var console = FrontEnd.console()
    console.press(.down, .enter)
    #expect(console.stackNames == ["home", "order-detail"])
    #expect(console.model.shell.topScreen.params["orderid"] == .int(7))
    #expect(console.model.log.last?.origin == .link)
    #expect(console.selectedLink == nil)
  }

  @Test func enterFollowsALinkIntoAModalAndLinksThereAreSelectable() {
    var console = FrontEnd.console()
    console.press(.up, .enter)
    #expect(console.model.shell.modals.count == 1)
    #expect(console.selectedLink == nil)
    console.press(.down)
    #expect(console.selectedLink == 0)
    console.press(.enter)
    #expect(console.model.shell.modals.first?.stack.map(\.name) == ["user-profile", "order-list"])
  }

  @Test func theSelectionResetsWhenTheTopScreenChanges() {
    var console = FrontEnd.console()
    console.press(.down, .down)
    #expect(console.selectedLink == 1)
    console.press(.tab)
    #expect(console.selectedLink == nil)
    console.press(.down)
    console.press(.backTab)
    #expect(console.selectedLink == nil)
    console.open("myapp://settings")
    console.press(.escape)
    console.press(.up)
    #expect(console.selectedLink == 2)
    console.open("myapp://orders/7")
    #expect(console.selectedLink == nil)
    console.press(.down)
    console.press(.escape)
    #expect(console.selectedLink == nil)
  }

  @Test func theSelectionStaysWhenTheTopScreenDoesNot() {
    var console = FrontEnd.console()
    console.press(.down)
    console.open("nope://x")
    console.press(.escape)
    #expect(console.selectedLink == 0)
  }

  // MARK: Help, log, quit

  @Test func f1ShowsHelpWhichSwallowsKeysUntilClosed() {
    for closer: Key in [.escape, .function(1), .enter] {
      var console = FrontEnd.console()
      console.press(.function(1))
      #expect(console.showsHelp)
      let before = console.model
      console.press(.character("a"), .tab, .down, .function(2))
      #expect(console.prompt.isEmpty)
      #expect(console.model == before)
      #expect(console.selectedLink == nil)
      console.press(closer)
      #expect(!console.showsHelp, "closed by \(closer)")
      #expect(console.model == before)
    }
  }

  @Test func f1ShowsHelpWithTextInThePrompt() {
    var console = FrontEnd.console()
    console.type("abc")
    console.press(.function(1))
    #expect(console.showsHelp)
    console.press(.escape)
    #expect(!console.showsHelp)
    #expect(console.prompt.text == "abc")
  }

  @Test func f2TogglesTheLog() {
    var console = FrontEnd.console()
    console.press(.function(2))
    #expect(console.showsLog)
    console.type("x")
    console.press(.function(2))
    #expect(!console.showsLog)
    #expect(console.prompt.text == "x")
  }

  @Test(arguments: ["", "text"])
  func controlCQuits(text: String) {
    var console = FrontEnd.console()
    console.type(text)
    #expect(!console.hasQuit)
    console.press(.control("c"))
    #expect(console.hasQuit)
  }

  @Test func controlCQuitsEvenOverAnAlertOrHelp() {
    var alert = FrontEnd.console()
    alert.open("nope://x")
    alert.press(.control("c"))
    #expect(alert.hasQuit)
    var help = FrontEnd.console()
    help.press(.function(1), .control("c"))
    #expect(help.hasQuit)
  }

  @Test func keysWithoutAMeaningChangeNothing() {
    var console = FrontEnd.console()
    let before = console.model
    for key: Key in [
      .function(3), .function(12), .left, .right, .home, .end, .backspace, .delete,
      .control("z"), .control("k"),
    ] {
      #expect(console.handle(key).isEmpty)
    }
    #expect(console.model == before)
    #expect(console.prompt.isEmpty)
  }

  // MARK: Scrolling

  @Test func pageDownAndPageUpScrollTheTopScreenWithinItsLines() {
    var console = FrontEnd.console(Size(columns: 40, rows: 12))
    console.open("myapp://many")
    #expect(console.scroll == 0)
    console.press(.pageUp)
    #expect(console.scroll == 0)
    console.press(.pageDown)
    #expect(console.scroll == 6)
    for _ in 0..<10 { console.press(.pageDown) }
    // 2 body lines, a blank line and 12 links: at most 14 lines down.
    #expect(console.scroll == 14)
    console.press(.pageUp)
    #expect(console.scroll == 8)
    console.press(.escape)
    #expect(console.scroll == 0)
  }
}
