import Foundation
import TestSupport
import Testing

@testable import Interface
@testable import Render
@testable import Replay
@testable import Shell

// Random keys through the same console and renderer `replay` uses; the state is checked after
// every key and the screen after every resize and every eighth key.

/// Every special key a key script can name but Ctrl-C, which the storm presses on its own.
private let specialKeys: [Key] =
  [
    .enter, .escape, .tab, .backTab, .up, .down, .left, .right, .home, .end, .backspace, .delete,
    .pageUp, .pageDown,
  ] + (1...12).map { .function($0) }
  + "abdefghijklmnopqrstuvwxyz".map { .control($0) }

/// Characters a user might type, and some that must come out inert.
private let typedCharacters: [Character] =
  Array(
    "abcxyz0189:/?&=#%-_.~ <>ABC张三中文ＡＢ가é😀") + [
    "e\u{301}", "\u{301}", "\u{1b}", "\u{202e}", "\u{7}", "\t",
  ]

/// What the storm does next: keys, a resize, or Ctrl-C.
private enum StormStep {
  case key(Key)
  case resize(Size)
}

/// Draws the storm's steps: typed characters, whole URLs (one key per character, then
/// usually Enter), special keys, resizes and, rarely, Ctrl-C.
private struct StormSource {
  var generator: SeededGenerator
  var queued: [Key] = []

  mutating func next() -> StormStep {
    if !queued.isEmpty { return .key(queued.removeFirst()) }
    let roll = Int.random(in: 0..<1000, using: &generator)
    switch roll {
    case 0..<5:
      return .resize(
        Size(
          columns: Int.random(in: 1...200, using: &generator),
          rows: Int.random(in: 1...60, using: &generator)))
    case 5..<7:
      return .key(.control("c"))
    case 7..<80:
      // Usually empty the prompt first (Ctrl-A, Ctrl-K), so the URL is opened as typed.
      let url = FrontEnd.urls.randomElement(using: &generator)!
      queued = Int.random(in: 0..<5, using: &generator) > 0 ? [.control("a"), .control("k")] : []
      queued += url.map { .character($0) }
      if Int.random(in: 0..<4, using: &generator) > 0 { queued.append(.enter) }
      return next()
    case 80..<330:
      return .key(.character(typedCharacters.randomElement(using: &generator)!))
    default:
      return .key(specialKeys.randomElement(using: &generator)!)
    }
  }
}

/// The problems of a console's state: empty stacks, a tab or link out of range, a cursor off
/// the text.
private func stateProblems(_ console: Console) -> [String] {
  var problems: [String] = []
  let shell = console.model.shell
  if shell.tabs.isEmpty { problems.append("no tabs") }
  if shell.tabs.contains(where: { $0.stack.isEmpty }) { problems.append("an empty tab stack") }
  if shell.modals.contains(where: { $0.stack.isEmpty }) { problems.append("an empty modal") }
  if !shell.tabs.indices.contains(shell.selectedTab) {
    problems.append("selected tab \(shell.selectedTab) of \(shell.tabs.count)")
  }
  if let link = console.selectedLink, !shell.topScreen.links.indices.contains(link) {
    problems.append("selected link \(link) of \(shell.topScreen.links.count)")
  }
  if console.scroll < 0 { problems.append("scroll \(console.scroll)") }
  if !(0...console.prompt.characters.count).contains(console.prompt.cursor) {
    problems.append("prompt cursor \(console.prompt.cursor) of \(console.prompt.characters.count)")
  }
  return problems
}

/// What the storm knows about a cell's text: its display width, and whether it is unsafe.
private struct CellFacts {
  var width: Int
  var unsafe: Bool
  var graphemes: Int
}

/// The checks of a rendered grid done after every key: its size, no control character in any
/// cell, each cell as wide as its text, wide glyphs followed by their continuation, and each
/// row's display width at most the columns. Written to be cheap in a debug build: blank and
/// ASCII cells take a fast path and other texts are looked at once and remembered. A row's
/// width is bounded by the sum of its cells' widths (joining cells into graphemes can only
/// narrow a row), which is what is compared with the columns.
private func quickGridProblems(
  _ grid: Grid, size: Size, facts: inout [String: CellFacts]
) -> [String] {
  guard grid.width == size.columns, grid.height == size.rows,
    grid.cells.count == size.columns * size.rows
  else { return ["grid \(grid.width)x\(grid.height) for \(size)"] }
  var problems: [String] = []
  var index = 0
  for row in 0..<grid.height {
    var rowWidth = 0
    var afterWide = false
    for _ in 0..<grid.width {
      let cell = grid.cells[index]
      index += 1
      if cell.width == 0 {
        if !afterWide || !cell.text.isEmpty { problems.append("stray continuation on row \(row)") }
        afterWide = false
        continue
      }
      if afterWide { problems.append("wide glyph without continuation on row \(row)") }
      if cell.text == " " {
        rowWidth += 1
        afterWide = false
        if cell.width != 1 { problems.append("blank of width \(cell.width) on row \(row)") }
        continue
      }
      let utf8 = cell.text.utf8
      let known: CellFacts
      if utf8.count == 1 {
        let byte = utf8.first!
        known = CellFacts(width: 1, unsafe: byte < 0x20 || byte == 0x7F, graphemes: 1)
      } else if let remembered = facts[cell.text] {
        known = remembered
      } else {
        known = CellFacts(
          width: cell.text.first.map(TextWidth.of) ?? 0,
          unsafe: cell.text.unicodeScalars.contains(where: isUnsafeScalar),
          graphemes: cell.text.count)
        facts[cell.text] = known
      }
      if known.unsafe { problems.append("unprintable cell \(cell.text.debugDescription)") }
      if known.graphemes != 1 || known.width != Int(cell.width) {
        problems.append("cell \(cell.text.debugDescription) of width \(cell.width) on row \(row)")
      }
      rowWidth += known.width
      afterWide = cell.width == 2
    }
    if afterWide { problems.append("wide glyph at the end of row \(row)") }
    if rowWidth > grid.width { problems.append("row \(row) is \(rowWidth) wide in \(grid.width)") }
    if problems.count > 3 { return problems }
  }
  if size.columns >= Size.minimum.columns && size.rows >= Size.minimum.rows {
    if let cursor = grid.cursor {
      if cursor.row != size.rows - 1 || !(0..<size.columns).contains(cursor.column) {
        problems.append("cursor at \(cursor) in \(size)")
      }
    } else {
      problems.append("no cursor")
    }
  }
  return problems
}

@Suite struct KeyStormTests {
  /// How many keys the storms press in all: `FRONTEND_STORM_KEYS` when set, else 100,000 (the
  /// brief's count). The state is checked after every key; the screen is drawn and checked
  /// after every resize and every `renderEvery`-th key, which keeps a debug run short.
  static let keyCount: Int = {
    if let text = ProcessInfo.processInfo.environment["FRONTEND_STORM_KEYS"], let count = Int(text),
      count > 0
    {
      return count
    }
    return 100_000
  }()

  /// Every how many keys the grid is drawn and checked (always after a resize).
  static let renderEvery = 8

  /// The storms run side by side, each with its own seed and a share of the keys.
  static let seeds: [UInt64] = [0x5354_4F52_4D21, 0x5241_494E, 0x4841_494C, 0x534E_4F57]

  @Test(arguments: seeds)
  func aStormOfRandomKeysKeepsEveryInvariant(seed: UInt64) {
    let keys = Self.keyCount / Self.seeds.count
    var source = StormSource(generator: SeededGenerator(seed: seed))
    var size = Size(columns: 80, rows: 24)
    var replayer = Replayer(console: FrontEnd.console(size))
    var recorded = 0
    var recent: [String] = []
    var quits = 0
    var alerts = 0
    var modals = 0
    var pushes = 0
    var facts: [String: CellFacts] = [:]
    for index in 0..<keys {
      let step = source.next()
      let scriptStep: KeyScript.Step
      switch step {
      case .key(let key):
        scriptStep = .key(key)
        recent.append(key.scriptName)
      case .resize(let newSize):
        size = newSize
        scriptStep = .resize(newSize)
        recent.append("<Resize \(newSize)>")
      }
      if recent.count > 40 { recent.removeFirst() }
      var snapshot: Replayer.Snapshot?
      if case .key(let key) = scriptStep, index % Self.renderEvery != 0 {
        replayer.press(key)
      } else {
        snapshot = replayer.run(KeyScript(steps: [scriptStep])).last!
      }
      let console = replayer.console
      var problems = stateProblems(console)
      if let snapshot {
        problems += quickGridProblems(snapshot.grid, size: size, facts: &facts)
        // Now and then, every check of the grid (wide glyphs, trailing spaces, line count).
        if index % 1999 == 0 { problems += gridProblems(snapshot.grid, size: size) }
        if snapshot.state != console.model.shell { problems.append("snapshot state is stale") }
      }
      if !problems.isEmpty {
        recorded += 1
        Issue.record(
          "key \(index): \(problems.prefix(3).joined(separator: "; ")); after \(recent.joined())")
        if recorded >= 5 { return }
      }
      if console.model.shell.alert != nil { alerts += 1 }
      if !console.model.shell.modals.isEmpty { modals += 1 }
      if console.model.shell.currentStack.count > 1 { pushes += 1 }
      if console.hasQuit {
        quits += 1
        // After Ctrl-C keys are ignored; then start again, as a user would.
        let before = (console.model, console.prompt)
        _ = replayer.run(KeyScript(steps: [.key(.character("q")), .key(.enter)]))
        #expect(replayer.console.model == before.0)
        #expect(replayer.console.prompt == before.1)
        replayer = Replayer(console: FrontEnd.console(size))
      }
    }
    // The storm went everywhere: alerts, modals, pushed screens and quits all happened.
    if keys >= 5000 {
      #expect(quits > 0)
      #expect(alerts > 0)
      #expect(modals > 0)
      #expect(pushes > 0)
    }
  }
}

/// The renderer reuses the last frame's scene while only the prompt changes
/// (``Console/sceneRevision``); after every key of a storm, the frame drawn that way must be
/// exactly the frame drawn from scratch.
@Suite struct RenderCacheTests {
  @Test(arguments: [UInt64(0xCAC4E), 0xF4A3E])
  func theReusedFrameIsAlwaysTheFullFrame(seed: UInt64) {
    var source = StormSource(generator: SeededGenerator(seed: seed))
    var console = FrontEnd.console(Size(columns: 80, rows: 24))
    var cache: ConsoleView.Cache?
    var reused = 0
    var mismatches = 0
    for index in 0..<8_000 {
      let revision = console.sceneRevision
      switch source.next() {
      case .key(let key):
        _ = console.handle(key)
      case .resize(let size):
        console.resize(size)
      }
      if console.hasQuit { console = FrontEnd.console(console.size) }
      if console.sceneRevision == revision { reused += 1 }
      let fast = ConsoleView.render(console, cache: &cache)
      let full = ConsoleView.render(console)
      if fast != full {
        mismatches += 1
        Issue.record("key \(index): the reused frame differs:\n\(fast.text)\n---\n\(full.text)")
        if mismatches >= 3 { return }
      }
    }
    // The cache was really used (typing) and really refreshed (navigation).
    #expect(reused > 1_000)
    #expect(8_000 - reused > 100)
  }
}
