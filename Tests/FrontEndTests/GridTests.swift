import TestSupport
import Testing

@testable import Render

// A grid of cells of width 1 or 2 with a continuation marker; overwriting half a wide glyph
// blanks it; text is made inert; widgets are tested on tiny grids.

/// Texts that exercise every path of `write`: empty, narrow, wide, mixed, controls.
private let sampleTexts = [
  "", "a", "abc", "中", "中文", "a中b", "ＡＢ", "\u{1b}[2J", "e\u{301}x", "가나", "😀x",
]

/// Grid sizes from nothing to one line or one column.
private let tinySizes: [(width: Int, height: Int)] = [
  (0, 0), (1, 1), (1, 5), (5, 1), (0, 3), (3, 0), (2, 1), (3, 2), (-2, -1),
]

@Suite struct GridTests {
  // MARK: Tiny grids

  @Test(arguments: tinySizes)
  func writingAnywhereStaysInsideTheGrid(width: Int, height: Int) {
    var grid = Grid(width: width, height: height)
    #expect(grid.width == max(0, width))
    #expect(grid.height == max(0, height))
    for row in -2...(max(0, height) + 2) {
      for column in -3...(max(0, width) + 3) {
        for text in sampleTexts {
          grid.write(text, row: row, column: column)
          grid.write(text, row: row, column: column, limit: column + 1)
          grid.write(text, row: row, column: column, limit: -1)
        }
      }
    }
    #expect(grid.cells.count == max(0, width) * max(0, height))
    expectSound(grid, "\(width)x\(height):")
  }

  @Test(arguments: tinySizes)
  func fillAndRestyleInsideOrOverlappingTheGridNeverCrash(width: Int, height: Int) {
    var grid = Grid(width: width, height: height)
    let w = max(0, width)
    let h = max(0, height)
    // Rectangles that start inside the grid (or at its top-left corner) and may run past it.
    for row in -1..<max(1, h) {
      for column in -1..<max(1, w) {
        for size in 0...(max(w, h) + 2) {
          let rect = Rect(row: row, column: column, width: size, height: size)
          guard row + size >= 0, column + size >= 0, row <= h, column <= w else { continue }
          grid.fill(rect, with: "x")
          grid.restyle(rect, Style(.alert))
          grid.fill(rect, with: "\u{1b}")
        }
      }
    }
    expectSound(grid, "\(width)x\(height):")
  }

  // Regression: `fill` and `restyle` build `max(0, rect.row)..<min(height, rect.row +
  // rect.height)`; a rectangle wholly below, right of, or above the grid makes a range whose
  // lower bound exceeds its upper bound, and the process traps. Each case runs in a child
  // process so that the trap fails this test instead of ending the run.
  @Test func fillBelowTheGridDoesNotCrash() async {
    await #expect(processExitsWith: .success) {
      var grid = Grid(width: 1, height: 1)
      grid.fill(Rect(row: 5, column: 0, width: 1, height: 1))
    }
  }

  @Test func fillRightOfTheGridDoesNotCrash() async {
    await #expect(processExitsWith: .success) {
      var grid = Grid(width: 3, height: 3)
      grid.fill(Rect(row: 0, column: 7, width: 2, height: 1), with: "x")
    }
  }

  @Test func fillAboveTheGridDoesNotCrash() async {
    await #expect(processExitsWith: .success) {
      var grid = Grid(width: 3, height: 1)
      grid.fill(Rect(row: -5, column: 0, width: 3, height: 2), with: "x")
    }
  }

  @Test func restyleOutsideTheGridDoesNotCrash() async {
    await #expect(processExitsWith: .success) {
      var grid = Grid(width: 0, height: 0)
      grid.restyle(Rect(row: 1, column: 1, width: 1, height: 1), Style(.alert))
    }
  }

  @Test func zeroByZeroGridHasNoText() {
    var grid = Grid(width: 0, height: 0)
    grid.write("hello", row: 0, column: 0)
    #expect(grid.cells.isEmpty)
    #expect(grid.text == "")
  }

  @Test func oneByOneGridHoldsOneNarrowCharacter() {
    var grid = Grid(width: 1, height: 1)
    #expect(grid.write("xyz", row: 0, column: 0) == 1)
    #expect(grid.text == "x\n")
    var wide = Grid(width: 1, height: 1)
    #expect(wide.write("中", row: 0, column: 0) == 0)
    #expect(wide[0, 0] == .blank)
    #expect(wide.text == "\n")
  }

  @Test func oneColumnGridNeverHoldsAWideGlyph() {
    var grid = Grid(width: 1, height: 4)
    for row in 0..<4 { grid.write("中a", row: row, column: 0) }
    #expect(grid.cells.allSatisfy { $0.width == 1 && $0.text == " " })
    expectSound(grid)
  }

  @Test func writeReturnsTheColumnAfterTheLastWritten() {
    var grid = Grid(width: 10, height: 1)
    #expect(grid.write("ab", row: 0, column: 0) == 2)
    #expect(grid.write("中文", row: 0, column: 2) == 6)
    #expect(grid.write("abcdef", row: 0, column: 6) == 10)
    #expect(grid.write("x", row: 5, column: 3) == 3)
  }

  @Test func writeFromANegativeColumnDrawsOnlyWhatIsInside() {
    var grid = Grid(width: 4, height: 1)
    #expect(grid.write("abcdef", row: 0, column: -2) == 4)
    #expect(grid.text(ofRow: 0) == "cdef")
    var wide = Grid(width: 4, height: 1)
    wide.write("中文x", row: 0, column: -1)
    // 中 straddles column -1 and 0: not drawn; 文 is at 1-2; x at 3.
    #expect(wide.text(ofRow: 0) == " 文x")
    expectSound(wide)
  }

  // MARK: Wide glyphs

  @Test(arguments: ["中", "Ａ", "가", "😀", "ｶ"])
  func wideCharactersTakeTwoCells(text: String) {
    var grid = Grid(width: 4, height: 1)
    let end = grid.write(text, row: 0, column: 1)
    let character = text.first!
    if TextWidth.of(character) == 2 {
      #expect(end == 3)
      #expect(grid[0, 1] == Cell(text: text, width: 2, style: .plain))
      #expect(grid[0, 2].width == 0)
      #expect(grid[0, 2].text == "")
    } else {
      #expect(end == 2)
      #expect(grid[0, 1].width == 1)
      #expect(grid[0, 2] == .blank)
    }
    #expect(grid.text(ofRow: 0) == " " + text)
    expectSound(grid)
  }

  @Test(arguments: 1...6)
  func aWideCharacterThatDoesNotFitAtTheEdgeIsNotDrawn(width: Int) {
    var grid = Grid(width: width, height: 1)
    let end = grid.write(String(repeating: "中", count: 10), row: 0, column: 0)
    #expect(end == width / 2 * 2)
    #expect(TextWidth.of(grid.text(ofRow: 0)) == width / 2 * 2)
    if width % 2 == 1 { #expect(grid[0, width - 1] == .blank) }
    expectSound(grid)
  }

  @Test func aWideCharacterIsCutAtTheLimitNotSplit() {
    var grid = Grid(width: 10, height: 1)
    #expect(grid.write("a中b", row: 0, column: 0, limit: 2) == 1)
    #expect(grid.text(ofRow: 0) == "a")
    #expect(grid[0, 1] == .blank)
    #expect(grid[0, 2] == .blank)
  }

  @Test func overwritingTheFirstHalfOfAWideGlyphBlanksTheSecond() {
    var grid = Grid(width: 4, height: 1)
    grid.write("中文", row: 0, column: 0)
    grid.write("x", row: 0, column: 0)
    #expect(grid[0, 0].text == "x")
    #expect(grid[0, 1] == .blank)
    #expect(grid.text(ofRow: 0) == "x 文")
    expectSound(grid)
  }

  @Test func overwritingTheSecondHalfOfAWideGlyphBlanksTheFirst() {
    var grid = Grid(width: 4, height: 1)
    grid.write("中文", row: 0, column: 0)
    grid.write("x", row: 0, column: 1)
    #expect(grid[0, 0] == .blank)
    #expect(grid[0, 1].text == "x")
    #expect(grid.text(ofRow: 0) == " x文")
    expectSound(grid)
  }

  @Test func aWideGlyphOverlappingTwoOthersBlanksBothRemainders() {
    var grid = Grid(width: 6, height: 1)
    grid.write("中文字", row: 0, column: 0)
    grid.write("名", row: 0, column: 1)
    // 中 (0-1) and 文 (2-3) each lose a half: their other halves are blanked.
    #expect(grid.text(ofRow: 0) == " 名 字")
    expectSound(grid)
  }

  @Test func fillingHalfOfAWideGlyphBlanksTheOtherHalf() {
    var grid = Grid(width: 4, height: 2)
    grid.write("中文", row: 0, column: 0)
    grid.write("中文", row: 1, column: 0)
    grid.fill(Rect(row: 0, column: 1, width: 2, height: 2), with: "-")
    #expect(grid.text(ofRow: 0) == " --")
    #expect(grid.text(ofRow: 1) == " --")
    expectSound(grid)
  }

  @Test func fillWithAWideCharacterDrawsNothing() {
    var grid = Grid(width: 4, height: 1)
    grid.write("ab", row: 0, column: 0)
    grid.fill(Rect(row: 0, column: 0, width: 4, height: 1), with: "中")
    #expect(grid.text(ofRow: 0) == "ab")
  }

  @Test func restyleKeepsTheText() {
    var grid = Grid(width: 4, height: 1)
    grid.write("a中", row: 0, column: 0)
    grid.restyle(Rect(row: 0, column: 0, width: 4, height: 1), Style(.selection, reverse: true))
    #expect(grid.text(ofRow: 0) == "a中")
    #expect(grid.cells.allSatisfy { $0.style == Style(.selection, reverse: true) })
    expectSound(grid)
  }

  // MARK: Text of a row

  @Test func textOfRowCutsTrailingSpacesOnly() {
    var grid = Grid(width: 12, height: 2)
    grid.write("  a  b   ", row: 0, column: 0)
    #expect(grid.text(ofRow: 0) == "  a  b")
    #expect(grid.text(ofRow: 1) == "")
    #expect(grid.text == "  a  b\n\n")
  }

  @Test func textOfRowShowsAWideGlyphOnce() {
    var grid = Grid(width: 5, height: 1)
    grid.write("中x文", row: 0, column: 0)
    #expect(grid.text(ofRow: 0) == "中x文")
  }

  // MARK: Inert text

  @Test(arguments: [
    ("\u{1b}[31mred\u{1b}[0m", #"\x1b[31mred\x1b[0m"#),
    ("\u{1b}]0;title\u{07}", #"\x1b]0;title\x07"#),
    ("\u{1b}]8;;http://x\u{1b}\\link", #"\x1b]8;;http://x\x1b\link"#),
    ("bell\u{07}", #"bell\x07"#),
    ("back\u{08}\u{08}x", #"back\x08\x08x"#),
    ("a\rb\nc\td", #"a\x0db\x0ac\x09d"#),
    ("nul\u{0}", #"nul\x00"#),
    ("del\u{7f}", #"del\x7f"#),
    ("c1\u{9b}31m\u{85}", #"c1\x9b31m\x85"#),
    ("\u{202e}evil", #"\u{202e}evil"#),
    ("a\u{2066}b\u{2069}c", #"a\u{2066}b\u{2069}c"#),
    ("lrm\u{200e}rlm\u{200f}", #"lrm\u{200e}rlm\u{200f}"#),
    ("zw\u{200b}\u{feff}", #"zw\u{200b}\u{feff}"#),
    ("ls\u{2028}ps\u{2029}", #"ls\u{2028}ps\u{2029}"#),
  ])
  func controlAndBidiCharactersComeOutInert(input: String, shown: String) {
    var grid = Grid(width: 120, height: 1)
    grid.write(input, row: 0, column: 0)
    #expect(grid.text(ofRow: 0) == shown)
    #expect(!rows(grid).contains(where: hasUnsafeScalar))
    expectSound(grid)
  }

  @Test func inertIsTheIdentityOnOrdinaryText() {
    for text in ["", "myapp://orders/1?x=y#z", "张三 ＡＢＣ é e\u{301} 😀", "\\x1b literal"] {
      #expect(inert(text) == text)
    }
  }

  @Test func controlsCutAtTheEdgeStayInert() {
    // The escaped form is several cells wide; cut anywhere it still holds no control.
    for width in 0...12 {
      var grid = Grid(width: width, height: 1)
      grid.write("\u{1b}[2J\u{202e}", row: 0, column: 0)
      #expect(!rows(grid).contains(where: hasUnsafeScalar))
      expectSound(grid, "width \(width):")
    }
  }

  @Test func fillWithAControlCharacterFillsSomethingPrintable() {
    var grid = Grid(width: 3, height: 2)
    grid.fill(Rect(row: 0, column: 0, width: 3, height: 2), with: "\u{1b}")
    #expect(!rows(grid).contains(where: hasUnsafeScalar))
    expectSound(grid)
  }

  @Test func everyCellIsPrintableAfterARandomBarrage() {
    var generator = SeededGenerator(seed: 0x6772_6964)
    let pieces = [
      "\u{1b}", "[", "31m", "\u{07}", "\u{08}", "\u{202e}", "\u{9b}", "中", "Ａ", "a", " ",
      "\u{301}", "\u{7f}", "\r\n", "😀", "\u{2067}",
    ]
    var grid = Grid(width: 17, height: 5)
    for _ in 0..<2000 {
      var text = ""
      for _ in 0..<Int.random(in: 0...6, using: &generator) {
        text += pieces.randomElement(using: &generator)!
      }
      let row = Int.random(in: -1...5, using: &generator)
      let column = Int.random(in: -3...18, using: &generator)
      grid.write(text, row: row, column: column, limit: Int.random(in: 0...20, using: &generator))
    }
    expectSound(grid)
  }

  // MARK: Cursor and sizes

  @Test func cursorIsKeptAndCleared() {
    var grid = Grid(width: 3, height: 3)
    #expect(grid.cursor == nil)
    grid.cursor = (2, 1)
    #expect(grid.cursor?.row == 2)
    #expect(grid.cursor?.column == 1)
    grid.cursor = nil
    #expect(grid.cursor == nil)
  }

  @Test func negativeSizesMakeAnEmptyGrid() {
    let grid = Grid(width: -4, height: 3)
    #expect(grid.width == 0)
    #expect(grid.height == 3)
    #expect(grid.text == "\n\n\n")
  }
}
