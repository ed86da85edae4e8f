import Demo
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

/// A shipped-like app for the front-end tests: a route table in the style of `Screens/`, data
/// screens made in code (some with many links, CJK titles and parameters shown in titles), and
/// the shipped demo's `app.json` with its Swift screens and actions (`DemoApp`).
enum FrontEnd {
  static let routes = #"""
    {"routes":[
      {"pattern":"myapp://home","screen":"home"},
      {"pattern":"myapp://orders","screen":"order-list"},
      {"pattern":"myapp://orders/<int:id>","screen":"order-detail","rename":{"id":"orderid"},"parent":"myapp://orders"},
      {"pattern":"myapp://orders/<int:id>/pay","screen":"payment","rename":{"id":"orderid"},"guard":"signed-in","parent":"myapp://orders"},
      {"pattern":"myapp://old-orders/:id","redirect":"myapp://orders/:id"},
      {"pattern":"myapp://lookup/order/:code","action":"lookup-order"},
      {"pattern":"myapp://user/<username>","screen":"user-profile"},
      {"pattern":"myapp://me","screen":"personal-center"},
      {"pattern":"myapp://settings","screen":"settings"},
      {"pattern":"myapp://many","screen":"many-links"},
      {"pattern":"myapp://login","screen":"login","presentation":"present"},
      {"pattern":"myapp://session/sign-in","action":"sign-in","external":false},
      {"pattern":"myapp://session/sign-out","action":"sign-out","external":false},
      {"pattern":"myapp://address-picker","screen":"address-picker","presentation":"present"},
      {"pattern":"myapp://notifications","screen":"notifications"},
      {"pattern":"myapp://about","screen":"about"},
      {"pattern":"myapp://live/:room","screen":"live-room","minVersion":"9.0"},
      {"pattern":"myapp://gone","screen":"no-such-screen"},
      {"pattern":"navigator://user/<username>","screen":"user-profile"},
      {"pattern":"navigator://modal/user/<username>","screen":"user-profile","presentation":"present"},
      {"pattern":"XYWAPP://pkdetail/open?pkID=<int:pkID>","screen":"pk-detail"},
      {"pattern":"XYWAPP://pkdetail/like?id=<int:id>","action":"like"},
      {"pattern":"ccfurlresponder://animal/:name/<float:weight>","notification":"AnimalNotification"}
    ]}
    """#

  static func screen(_ json: String) -> ScreenDefinition {
    try! ScreenDefinition(json: try! JSON.parse(json))
  }

  static let screens: [ScreenDefinition] = [
    screen(
      #"{"name":"home","title":"Home","body":["Welcome.","Type a URL or pick a link."],"links":[{"label":"Order 7","url":"myapp://orders/7"},{"label":"User 张三","url":"navigator://user/张三"},{"label":"Modal alice","url":"navigator://modal/user/alice"}]}"#
    ),
    screen(
      #"{"name":"order-list","title":"Orders","body":["Your orders."],"links":[{"label":"Order 1","url":"myapp://orders/1"},{"label":"Order 2","url":"myapp://orders/2"},{"label":"Old order 3","url":"myapp://old-orders/3"},{"label":"Pay order 1","url":"myapp://orders/1/pay"},{"label":"Look up A-77","url":"myapp://lookup/order/A-77"}]}"#
    ),
    screen(
      #"{"name":"personal-center","title":"Me","links":[{"label":"Settings","url":"myapp://settings"},{"label":"Sign out","url":"myapp://session/sign-out"}]}"#
    ),
    screen(#"{"name":"settings","title":"Settings","body":["Nothing to set."]}"#),
    screen(
      #"{"name":"login","title":"Sign in","body":["Demo account."],"links":[{"label":"Sign in as demo","url":"myapp://session/sign-in"}]}"#
    ),
    screen(
      #"{"name":"user-profile","title":"{{username}}","params":{"username":{"type":"string","required":true}},"body":["Profile of {{username}}."],"links":[{"label":"Orders","url":"myapp://orders"},{"label":"Modal {{username}}","url":"navigator://modal/user/{{username}}"},{"label":"Pick an address","url":"myapp://address-picker","resultKey":"place"}]}"#
    ),
    screen(
      #"{"name":"payment","title":"Pay {{orderid}}","params":{"orderid":{"type":"int","required":true}}}"#
    ),
    screen(
      #"{"name":"address-picker","title":"Choose address","links":[{"label":"Road A","result":"Road A"},{"label":"Road B","result":"Road B"},{"label":"Settings","url":"myapp://settings"}]}"#
    ),
    screen(
      #"{"name":"many-links","title":"Many 多 links","body":["A screen taller than a small terminal.","全角テキスト：ＡＢＣ"],"links":[{"label":"L1","url":"myapp://orders/1"},{"label":"L2","url":"myapp://orders/2"},{"label":"L3","url":"myapp://orders/3"},{"label":"L4","url":"myapp://orders/4"},{"label":"L5","url":"myapp://orders/5"},{"label":"L6","url":"myapp://orders/6"},{"label":"L7","url":"myapp://orders/7"},{"label":"L8","url":"myapp://orders/8"},{"label":"L9","url":"myapp://orders/9"},{"label":"L10","url":"myapp://orders/10"},{"label":"L11","url":"myapp://orders/11"},{"label":"L12 中文标签很长很长很长很长很长很长很长很长很长很长","url":"myapp://nowhere"}]}"#
    ),
  ]

  /// A fresh app.
  static func app() -> ShellApp {
    let table = try! RouteTable(json: routes)
    return try! demoDefinition.makeApp(
      table: table, screens: screens, registry: DemoApp.setup.registry)
  }

  /// The shipped demo's `Screens/app.json`: tabs, flags, the `signed-in` guard, signing in
  /// and out.
  static let demoDefinition: AppDefinition = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Screens/app.json")
    return try! AppDefinition(bytes: Array(try! Data(contentsOf: file)))
  }()

  /// A fresh console of this size.
  static func console(_ size: Size = Size(columns: 80, rows: 24)) -> Console {
    Console(app: app(), size: size)
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

// MARK: - Random numbers

/// SplitMix64: a small, fast generator with a fixed seed, so every run sees the same input.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }
}

// MARK: - Command line

/// A `CommandIO` that records standard output and standard error; standard input is empty.
final class CapturedIO {
  var output: [UInt8] = []
  var errors = ""

  var io: CommandIO {
    CommandIO(
      read: { nil }, write: { [self] bytes in output += bytes },
      writeError: { [self] text in errors += text })
  }

  var stdout: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `appshell ARGUMENTS` in process; returns the status and what was written.
func runAppShell(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
  DemoApp.register()
  let captured = CapturedIO()
  let status = AppShellCommand.run(arguments, io: captured.io)
  return (status, captured.stdout, captured.errors)
}

/// A fresh temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
  let directory = try TemporaryDirectory("frontend-tests")
  return try withExtendedLifetime(directory) { try body(directory.url) }
}

/// Writes text to a file in `directory` and returns its path.
func writeFile(_ text: String, named name: String, in directory: URL) throws -> String {
  let file = directory.appendingPathComponent(name)
  try Data(text.utf8).write(to: file)
  return file.path
}
