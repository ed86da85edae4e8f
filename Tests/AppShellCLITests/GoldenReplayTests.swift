import Demo
import Foundation
import TestSupport
import Testing

@testable import AppShellCLI

// Golden screens: every `Goldens/NAME.keys` script is run by `appshell test` (the runner a
// team's CI uses) with the shipped `Screens/`, and its output must equal `Goldens/NAME.golden`
// byte for byte. A script's first lines may say `# size: COLSxROWS` (default 80x24).
//
// To re-record after an intended change: `APPSHELL_UPDATE_GOLDENS=1 swift test --filter
// GoldenReplay` (which runs `appshell test --update`), then read every changed golden
// (`git diff`) before committing. An update run always records an issue, so it never passes
// silently.

/// The golden scripts, their sizes, their steps, and `appshell replay` run over them.
enum GoldenScripts {
  /// `Tests/AppShellCLITests/Goldens`, found from this file.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Goldens")

  /// The shipped `Screens/` of this checkout (passed explicitly to every run).
  static let screens = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Screens")
    .path

  /// The scripts that must exist, one per behaviour the goldens cover (there may be more).
  static let required = [
    "alert-no-route", "alert-upgrade", "ccf-notifications", "control-chars", "guard-login",
    "help-f1", "jlroutes", "links", "log-f2", "navigateapp-urls", "navigator-push-present",
    "prompt-completion", "prompt-editing", "prompt-long", "resize", "result-address", "tabs",
    "wide-cjk", "wide-narrow", "xyw-pk-like",
  ]

  /// Every `*.keys` script in the directory, by name without the extension, sorted.
  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".keys") }.map { String($0.dropLast(".keys".count)) }
      .sorted()
  }

  static func scriptURL(_ name: String) -> URL {
    directory.appendingPathComponent(name + ".keys")
  }

  static func goldenURL(_ name: String) -> URL {
    directory.appendingPathComponent(name + ".golden")
  }

  static func text(_ name: String) throws -> String {
    try String(contentsOf: scriptURL(name), encoding: .utf8)
  }

  /// The terminal size a script runs at: its `# size: COLSxROWS` comment, else 80x24.
  static func size(ofScript text: String) -> TerminalSize {
    for line in text.split(separator: "\n") where line.hasPrefix("# size: ") {
      if let size = TerminalSize(String(line.dropFirst("# size: ".count))) { return size }
    }
    return TerminalSize(columns: 80, rows: 24)
  }

  /// `appshell replay --size S --screens SCREENS NAME.keys`, run in process.
  static func replay(_ name: String) throws -> CapturedRun {
    let size = size(ofScript: try text(name))
    return CapturedRun.run([
      "replay", "--size", "\(size)", "--screens", screens, scriptURL(name).path,
    ])
  }
}

/// A terminal size, `COLSxROWS`.
struct TerminalSize: Hashable, CustomStringConvertible {
  var columns: Int
  var rows: Int

  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  init?(_ text: String) {
    let parts = text.split(separator: "x")
    guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]) else {
      return nil
    }
    self.init(columns: columns, rows: rows)
  }

  var description: String { "\(columns)x\(rows)" }
}

/// One step of a key script, read independently of the app's own parser.
enum ScriptStep: Hashable {
  /// A character typed as it stands (`<lt>` gives `<`).
  case character(Character)
  /// A special key by its script name, e.g. `Enter`, `S-Tab`, `C-a`, `F1`.
  case key(String)
  /// `<Snap>`.
  case snap
  /// `<Resize COLSxROWS>`.
  case resize(TerminalSize)

  /// The steps of script text: comment lines and line breaks are skipped.
  static func parse(_ text: String) -> [ScriptStep] {
    var steps: [ScriptStep] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("#") { continue }
      var rest = Substring(line)
      while let first = rest.first {
        guard first == "<", let close = rest.firstIndex(of: ">") else {
          steps.append(.character(first))
          rest = rest.dropFirst()
          continue
        }
        let name = String(rest[rest.index(after: rest.startIndex)..<close])
        rest = rest[rest.index(after: close)...]
        if name == "Snap" {
          steps.append(.snap)
        } else if name == "lt" {
          steps.append(.character("<"))
        } else if name.hasPrefix("Resize "), let size = TerminalSize(String(name.dropFirst(7))) {
          steps.append(.resize(size))
        } else {
          steps.append(.key(name))
        }
      }
    }
    return steps
  }

  /// The terminal size at each snapshot (every `<Snap>`, then the end) of a script.
  static func snapshotSizes(_ steps: [ScriptStep], start: TerminalSize) -> [TerminalSize] {
    var size = start
    var sizes: [TerminalSize] = []
    for step in steps {
      switch step {
      case .snap: sizes.append(size)
      case .resize(let new): size = new
      case .character, .key: break
      }
    }
    return sizes + [size]
  }
}

/// Replay output cut into snapshots: `=== snapshot N ===` then the screen's lines.
struct Snapshots {
  /// The header numbers, in order.
  var numbers: [Int] = []
  /// Each snapshot's lines (without newlines).
  var screens: [[String]] = []
  /// Lines before the first header, or headers out of order: each a problem.
  var problems: [String] = []

  init(_ text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" {
      lines.removeLast()
    } else {
      problems.append("the output does not end with a newline")
    }
    for (index, line) in lines.enumerated() {
      if line.hasPrefix("=== snapshot "), line.hasSuffix(" ==="),
        let number = Int(line.dropFirst("=== snapshot ".count).dropLast(" ===".count))
      {
        if number != numbers.count + 1 {
          problems.append("line \(index + 1): snapshot \(number) after \(numbers.count)")
        }
        numbers.append(number)
        screens.append([])
      } else if screens.isEmpty {
        problems.append("line \(index + 1) comes before the first snapshot header")
      } else {
        screens[screens.count - 1].append(line)
      }
    }
  }

  /// The text of one snapshot as `replay` prints it, header included.
  static func text(number: Int, lines: [String]) -> String {
    "=== snapshot \(number) ===\n" + lines.map { $0 + "\n" }.joined()
  }
}

/// A readable line diff of one snapshot, aligned on the longest common run of rows: each row
/// only in the golden (`expected`) or only in the output (`got`), with its line number in the
/// golden file (`firstLine` is the line of the snapshot's first row) and its row, framed by `|`
/// so spaces show.
func lineDiff(
  expected: [String], got: [String], snapshot: Int, firstLine: Int, limit: Int = 40
) -> String {
  // common[i][j]: the longest common subsequence of expected[i...] and got[j...].
  var common = Array(
    repeating: Array(repeating: 0, count: got.count + 1), count: expected.count + 1)
  for i in stride(from: expected.count - 1, through: 0, by: -1) {
    for j in stride(from: got.count - 1, through: 0, by: -1) {
      common[i][j] =
        expected[i] == got[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
    }
  }
  var out: [String] = []
  // A run of rows only in the golden and rows only in the output, shown in pairs (a changed
  // row is its expected text, then what came instead, under the same line number).
  var removed: [Int] = []
  var added: [Int] = []
  func flush(at insertion: Int) {
    for k in 0..<max(removed.count, added.count) {
      let line = firstLine + (k < removed.count ? removed[k] : insertion)
      let place = "line \(line) (snapshot \(snapshot), row"
      if k < removed.count {
        out.append("\(place) \(removed[k] + 1)) expected: |\(expected[removed[k]])|")
      }
      if k < added.count {
        out.append("\(place) \(added[k] + 1)) got:      |\(got[added[k]])|")
      }
    }
    removed = []
    added = []
  }
  var i = 0
  var j = 0
  while i < expected.count || j < got.count {
    if i < expected.count, j < got.count, expected[i] == got[j] {
      flush(at: i)
      i += 1
      j += 1
    } else if i < expected.count, j == got.count || common[i + 1][j] >= common[i][j + 1] {
      removed.append(i)
      i += 1
    } else {
      added.append(j)
      j += 1
    }
  }
  flush(at: i)
  if out.count > limit { out = out.prefix(limit) + ["… and \(out.count - limit) more rows"] }
  return out.joined(separator: "\n")
}

/// The display width of a character for the checks here: 2 for East Asian wide and fullwidth
/// characters (the blocks the goldens use and their neighbours), else 1. Written separately
/// from the renderer's table so the two can disagree.
func displayWidth(_ character: Character) -> Int {
  guard let value = character.unicodeScalars.first?.value else { return 1 }
  let wide: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
  ]
  return wide.contains { $0.contains(value) } ? 2 : 1
}

func displayWidth(_ text: String) -> Int {
  text.reduce(0) { $0 + displayWidth($1) }
}

/// Whether text holds a C0 or C1 control character, or DEL.
func hasControlCharacter(_ text: String) -> Bool {
  text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

@Suite struct GoldenReplayTests {
  private var updating: Bool { Golden.updating }

  @Test func everyRequiredScriptIsThereAndHasAGolden() {
    let names = GoldenScripts.names
    for name in GoldenScripts.required {
      #expect(names.contains(name), "Goldens/\(name).keys is missing")
    }
    let files =
      (try? FileManager.default.contentsOfDirectory(atPath: GoldenScripts.directory.path))
      ?? []
    for file in files where file.hasSuffix(".golden") {
      let name = String(file.dropLast(".golden".count))
      #expect(names.contains(name), "Goldens/\(file) has no script \(name).keys")
    }
    for name in names {
      #expect(files.contains(name + ".golden"), "Goldens/\(name).keys has no golden")
    }
  }

  /// Every golden, through `appshell test`: one line per script, then the summary.
  @Test func everyScriptPrintsItsGoldenUnderAppshellTest() throws {
    let run = CapturedRun.run(
      ["test", "--screens", GoldenScripts.screens] + (updating ? ["--update"] : [])
        + [GoldenScripts.directory.path])
    #expect(run.stderr.isEmpty, "\(run.stderr)")
    if updating {
      Issue.record(
        """
        APPSHELL_UPDATE_GOLDENS=1: wrote every Goldens/NAME.golden; read them (git diff) and \
        run again without the variable
        """)
      return
    }
    #expect(run.status == 0, "\(run.stdout)")
    #expect(
      run.stdout.hasSuffix("\n\(GoldenScripts.names.count) passed, 0 failed\n"), "\(run.stdout)")
    for name in GoldenScripts.names {
      #expect(run.stdout.contains("ok   \(GoldenScripts.scriptURL(name).path)\n"), "\(name)")
    }
  }

  /// Replay's output: exactly ROWS lines per snapshot, none wider than COLS display
  /// columns, none with a control character; one snapshot per `<Snap>` and one at the end.
  @Test(arguments: GoldenScripts.names)
  func goldenHasTheShapeOfItsTerminal(_ name: String) throws {
    let script = try GoldenScripts.text(name)
    let sizes = ScriptStep.snapshotSizes(
      ScriptStep.parse(script), start: GoldenScripts.size(ofScript: script))
    let text = try String(contentsOf: GoldenScripts.goldenURL(name), encoding: .utf8)
    let golden = Snapshots(text)
    #expect(golden.problems.isEmpty, "Goldens/\(name).golden: \(golden.problems)")
    #expect(
      golden.screens.count == sizes.count,
      "\(name).golden: \(golden.screens.count) snapshots; the script takes \(sizes.count)"
    )
    for (index, (lines, size)) in zip(golden.screens, sizes).enumerated() {
      let place = "Goldens/\(name).golden snapshot \(index + 1) (\(size))"
      #expect(lines.count == size.rows, "\(place): \(lines.count) lines, not \(size.rows)")
      for (row, line) in lines.enumerated() {
        #expect(
          displayWidth(line) <= size.columns,
          "\(place) row \(row + 1) is \(displayWidth(line)) columns wide: |\(line)|")
        #expect(!hasControlCharacter(line), "\(place) row \(row + 1) holds a control character")
        #expect(line.last != " ", "\(place) row \(row + 1) keeps trailing spaces")
      }
    }
  }

  /// The helpers the tests above rely on.
  @Test func helpersMeasureAndParse() {
    #expect(displayWidth("个人中心") == 8)
    #expect(displayWidth("URL› a") == 6)
    #expect(hasControlCharacter("a\u{1B}b"))
    #expect(hasControlCharacter("\u{9B}"))
    #expect(!hasControlCharacter("\\x1b 中"))
    #expect(
      ScriptStep.parse("# c\na<lt><Enter>\n<Resize 20x6><Snap>")
        == [
          .character("a"), .character("<"), .key("Enter"),
          .resize(TerminalSize(columns: 20, rows: 6)), .snap,
        ])
    #expect(GoldenScripts.size(ofScript: "# size: 31x10\nx") == TerminalSize(columns: 31, rows: 10))
    #expect(GoldenScripts.size(ofScript: "x") == TerminalSize(columns: 80, rows: 24))
    let diff = lineDiff(
      expected: ["a", "b", "c"], got: ["a", "x", "c", "d"], snapshot: 2, firstLine: 7)
    #expect(
      diff
        == """
        line 8 (snapshot 2, row 2) expected: |b|
        line 8 (snapshot 2, row 2) got:      |x|
        line 10 (snapshot 2, row 4) got:      |d|
        """)
  }
}
