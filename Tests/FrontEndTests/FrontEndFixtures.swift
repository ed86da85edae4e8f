import Foundation
import JSON
import TestSupport
import Testing

@testable import AppShellCLI
@testable import Interface
@testable import Render
@testable import Replay
@testable import Routing
@testable import Shell

/// The front-end tests' app (``FixtureApp`` `front-end`: a route table in the style of
/// `Screens/`, data screens with many links, CJK titles and parameters shown in titles, in the
/// shipped demo) and the URLs worth typing into it.
enum FrontEnd {
  /// The text of the app's `routes.json`.
  static var routes: String { FixtureApp.routes("front-end") }

  /// A fresh console of this size.
  static func console(_ size: Size = Size(columns: 80, rows: 24)) -> Console {
    Console(app: FixtureApp.app("front-end"), size: size)
  }

  /// URLs worth typing: routes of every kind, failures, and text that must come out inert.
  static let urls = [
    "myapp://home", "myapp://orders", "myapp://orders/1", "myapp://orders/2015032688",
    "myapp://orders/1/pay", "myapp://old-orders/5", "myapp://lookup/order/A-77",
    "myapp://lookup/order/zz", "myapp://user/alice", "myapp://user/%E5%BC%A0%E4%B8%89",
    "myapp://user/%1B%5B31m", "myapp://user/%E2%80%AEevil", "myapp://me", "myapp://settings",
    "myapp://many", "myapp://login", "myapp://session/sign-in", "myapp://session/sign-out",
    "myapp://address-picker", "myapp://notifications", "myapp://about", "myapp://live/42",
    "myapp://gone", "navigator://user/张三", "navigator://modal/user/bob",
    "XYWAPP://pkdetail/open?pkID=10010", "XYWAPP://pkdetail/like?id=10010",
    "ccfurlresponder://animal/platypus/8.0", "nope://x", "", "myapp://orders/abc",
    "myapp://user/" + String(repeating: "長", count: 120),
  ]
}

// MARK: - Keys

extension Console {
  /// Presses each key in turn and returns every effect.
  @discardableResult
  mutating func press(_ keys: Key...) -> [Effect] {
    var effects: [Effect] = []
    for key in keys { effects += handle(key) }
    return effects
  }

  /// Types text, one character key at a time.
  mutating func type(_ text: String) {
    for character in text { _ = handle(.character(character)) }
  }

  /// Types a URL and presses Enter.
  mutating func open(_ url: String) {
    type(url)
    _ = handle(.enter)
  }

  /// The names of the current stack, bottom to top.
  var stackNames: [String] { model.shell.currentStack.map(\.name) }
}

// MARK: - Grid checks

/// Whether a scalar is a C0 or C1 control character, DEL, or a bidi/invisible format character.
func isUnsafeScalar(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  if value < 0x20 || (0x7F..<0xA0).contains(value) { return true }
  return [0x061C, 0xFEFF].contains(value) || (0x200B...0x200F).contains(value)
    || (0x2028...0x202E).contains(value) || (0x2060...0x2069).contains(value)
    || (0xFFF9...0xFFFB).contains(value)
}

/// Whether text holds any control or bidi character.
func hasUnsafeScalar(_ text: String) -> Bool {
  text.unicodeScalars.contains(where: isUnsafeScalar)
}

/// The problems of a grid: wrong size, broken wide glyphs, unprintable cells, rows wider than
/// the grid. Empty when it is sound.
func gridProblems(_ grid: Grid, size: Size? = nil) -> [String] {
  var problems: [String] = []
  if let size, grid.width != max(0, size.columns) || grid.height != max(0, size.rows) {
    problems.append("grid is \(grid.width)x\(grid.height), console is \(size)")
  }
  if grid.cells.count != grid.width * grid.height {
    problems.append("\(grid.cells.count) cells for \(grid.width)x\(grid.height)")
    return problems
  }
  for row in 0..<grid.height {
    for column in 0..<grid.width {
      let cell = grid[row, column]
      switch cell.width {
      case 0:
        if !cell.text.isEmpty { problems.append("(\(row),\(column)): continuation with text") }
        if column == 0 || grid[row, column - 1].width != 2 {
          problems.append("(\(row),\(column)): continuation without a wide glyph before it")
        }
      case 1, 2:
        if cell.text.count != 1 {
          problems.append("(\(row),\(column)): \(cell.text.debugDescription) is not one grapheme")
        }
        if hasUnsafeScalar(cell.text) {
          problems.append("(\(row),\(column)): unprintable \(cell.text.debugDescription)")
        }
        if let character = cell.text.first, TextWidth.of(character) != Int(cell.width) {
          problems.append("(\(row),\(column)): width \(cell.width) for \(cell.text)")
        }
        if cell.width == 2 && (column + 1 >= grid.width || grid[row, column + 1].width != 0) {
          problems.append("(\(row),\(column)): wide glyph without its continuation")
        }
      default:
        problems.append("(\(row),\(column)): width \(cell.width)")
      }
    }
    let text = grid.text(ofRow: row)
    if TextWidth.of(text) > grid.width {
      problems.append("row \(row) is \(TextWidth.of(text)) columns wide: \(text)")
    }
    if text.last == " " { problems.append("row \(row) keeps a trailing space") }
    if hasUnsafeScalar(text) { problems.append("row \(row) holds a control character") }
  }
  let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false)
  if lines.count != grid.height + 1 || lines.last != "" {
    problems.append("text has \(lines.count - 1) lines for \(grid.height) rows")
  }
  return problems
}

/// Records an issue for each problem of a grid.
func expectSound(
  _ grid: Grid, size: Size? = nil, _ comment: String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for problem in gridProblems(grid, size: size).prefix(5) {
    Issue.record("\(comment) \(problem)", sourceLocation: sourceLocation)
  }
}

/// The rows of a grid as text.
func rows(_ grid: Grid) -> [String] { (0..<grid.height).map { grid.text(ofRow: $0) } }

/// Writes text to a file in `directory` and returns its path.
func writeFile(_ text: String, named name: String, in directory: URL) throws -> String {
  let file = directory.appendingPathComponent(name)
  try Data(text.utf8).write(to: file)
  return file.path
}
