import Foundation
import JSON
import TestSupport
import Testing

@testable import AppShellCLI
@testable import Interface
@testable import Render
@testable import Routing
@testable import Shell

// Terminal-escape injection: a URL, parameter or push payload carrying ESC, CSI/OSC sequences,
// BEL, backspaces, C1 controls, DEL, NUL, line breaks or bidi controls is shown inert everywhere
// it appears: the screen (navigation bar, body, modal, back label), the log pane, the status
// line, alerts, the push banner and the prompt, and in what `appshell replay` prints.
//
// Each case renders the whole console at 80x24 and checks (1) that no cell holds an unsafe
// scalar (`isUnsafeScalar`: C0, DEL, C1, bidi and invisible format characters, line and
// paragraph separators) and the grid is sound, and (2) that the hostile text is still there in
// its escaped, readable form (`\x1b`, `\u{202e}`) in each place it is shown, so dropping it
// silently fails too.

/// A hostile text, and how the console shows it.
struct HostileText: Sendable, CustomTestStringConvertible {
  /// What it is, for the test name.
  let name: String
  /// The text itself.
  let text: String
  /// How it is drawn: each unsafe scalar as `\xNN` or `\u{NNNN}` (printable ASCII only).
  let shown: String

  var testDescription: String { name }

  /// The text percent-encoded as a URL carries it: every UTF-8 byte but ALPHA, DIGIT and
  /// `-._~` as `%XX`.
  var percentEncoded: String {
    text.utf8.map { byte in
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        return String(UnicodeScalar(byte))
      default:
        return String(format: "%%%02X", byte)
      }
    }.joined()
  }
}

/// How a hostile text rides in a URL: as is, or percent-encoded.
enum URLForm: String, Sendable, CaseIterable, CustomTestStringConvertible {
  case raw
  case percentEncoded = "percent-encoded"

  var testDescription: String { rawValue }

  /// The text in this form, for a URL.
  func carrying(_ hostile: HostileText) -> String {
    self == .raw ? hostile.text : hostile.percentEncoded
  }

  /// How the console shows that part of the URL: the escaped text, or the `%XX` form as is.
  func shown(_ hostile: HostileText) -> String {
    self == .raw ? hostile.shown : hostile.percentEncoded
  }
}

/// The hostile texts: one of each kind of terminal trick.
let hostileTexts: [HostileText] = [
  HostileText(name: "ESC", text: "\u{1b}", shown: #"\x1b"#),
  HostileText(name: "CSI colour", text: "\u{1b}[31mred", shown: #"\x1b[31mred"#),
  HostileText(name: "CSI clear screen", text: "\u{1b}[2J\u{1b}[H", shown: #"\x1b[2J\x1b[H"#),
  HostileText(name: "OSC title", text: "\u{1b}]0;pwned\u{07}", shown: #"\x1b]0;pwned\x07"#),
  HostileText(
    name: "OSC 52 clipboard", text: "\u{1b}]52;c;aGk=\u{07}", shown: #"\x1b]52;c;aGk=\x07"#),
  HostileText(name: "BEL", text: "ding\u{07}\u{07}", shown: #"ding\x07\x07"#),
  HostileText(
    name: "backspaces", text: "admin\u{08}\u{08}\u{08}\u{08}\u{08}guest",
    shown: #"admin\x08\x08\x08\x08\x08guest"#),
  HostileText(name: "C1 CSI", text: "\u{9b}31mred", shown: #"\x9b31mred"#),
  HostileText(name: "C1 NEL and ST", text: "a\u{85}b\u{9c}", shown: #"a\x85b\x9c"#),
  HostileText(name: "DEL", text: "del\u{7f}", shown: #"del\x7f"#),
  HostileText(name: "RLO override", text: "\u{202e}gpj.exe", shown: #"\u{202e}gpj.exe"#),
  HostileText(name: "LRO override", text: "\u{202d}ltr\u{202c}", shown: #"\u{202d}ltr\u{202c}"#),
  HostileText(
    name: "bidi isolates", text: "\u{2066}a\u{2067}b\u{2068}c\u{2069}",
    shown: #"\u{2066}a\u{2067}b\u{2068}c\u{2069}"#),
  HostileText(name: "LRM RLM", text: "l\u{200e}r\u{200f}", shown: #"l\u{200e}r\u{200f}"#),
  HostileText(name: "NUL", text: "nul\u{0}", shown: #"nul\x00"#),
  HostileText(name: "CR LF", text: "a\r\nb", shown: #"a\x0d\x0ab"#),
  HostileText(name: "CR alone", text: "safe\rEVIL", shown: #"safe\x0dEVIL"#),
  HostileText(
    name: "line and paragraph separators", text: "ls\u{2028}ps\u{2029}",
    shown: #"ls\u{2028}ps\u{2029}"#),
]

// MARK: - Rendering and checks

/// The console's size in every case.
private let consoleSize = Size(columns: 80, rows: 24)

/// Renders a console at 80x24 and checks (1): no cell and no line of the `replay` text holds an
/// unsafe scalar, and the grid is sound. Returns the rows.
private func renderChecked(
  _ console: Console, _ place: String, sourceLocation: SourceLocation = #_sourceLocation
) -> [String] {
  #expect(console.size == consoleSize, sourceLocation: sourceLocation)
  let grid = ConsoleView.render(console)
  if let index = grid.cells.firstIndex(where: {
    $0.text.unicodeScalars.contains(where: isUnsafeScalar)
  }) {
    let cell = grid.cells[index].text.debugDescription
    Issue.record(
      "\(place): cell (\(index / grid.width),\(index % grid.width)) holds \(cell)",
      sourceLocation: sourceLocation)
  }
  // What `appshell replay` prints for this screen: only "\n" may be a control.
  let printed = grid.text.unicodeScalars.filter { $0 != "\n" && isUnsafeScalar($0) }
  #expect(
    printed.isEmpty,
    "\(place): the replay text holds \(String(String.UnicodeScalarView(printed)).debugDescription)",
    sourceLocation: sourceLocation)
  expectSound(grid, size: consoleSize, place, sourceLocation: sourceLocation)
  return rows(grid)
}

/// Checks (2): `text` is shown on one of `lines`.
private func expectShown(
  _ text: String, in lines: [String], _ place: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    lines.contains { $0.contains(text) },
    "\(place): \(text) is not shown in\n\(lines.joined(separator: "\n"))",
    sourceLocation: sourceLocation)
}

/// The text inside the alert box (the rows between its corners, without the borders), its
/// wrapped lines joined (the space at a soft break is lost); nil when no alert is drawn.
private func alertText(_ lines: [String]) -> String? {
  guard let top = lines.firstIndex(where: { $0.contains("┌") }),
    let bottom = lines[top...].firstIndex(where: { $0.contains("└") })
  else { return nil }
  return lines[(top + 1)..<bottom].map { line in
    line.drop { $0 != "│" }.dropFirst().prefix { $0 != "│" }
      .trimmingCharacters(in: .whitespaces)
  }.joined()
}

/// Checks (2) for an alert: `text` (without spaces) is in the alert box, even when wrapped
/// over several rows.
private func expectInAlert(
  _ text: String, in lines: [String], _ place: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let shown = alertText(lines) else {
    Issue.record(
      "\(place): no alert in\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
    return
  }
  #expect(
    shown.contains(text), "\(place): \(text) is not in the alert: \(shown)",
    sourceLocation: sourceLocation)
}

/// The status line and the prompt rows.
private let statusRow = 22
private let promptRow = 23

extension Console {
  /// Opens the log pane (F2).
  fileprivate mutating func showLog() {
    if !showsLog { _ = handle(.function(2)) }
  }
}

// MARK: - Tests

@Suite struct EscapeInjectionTests {
  /// Typed at the prompt: the prompt while typing, then the screen's title and body, the
  /// status line and the log pane.
  @Test(arguments: hostileTexts, URLForm.allCases)
  func typedAtThePrompt(hostile: HostileText, form: URLForm) {
    var console = FrontEnd.console(consoleSize)
    let url = "myapp://user/" + form.carrying(hostile)
    console.type(url)
    let typing = renderChecked(console, "prompt")
    #expect(
      typing[promptRow] == "URL› myapp://user/" + form.shown(hostile),
      "prompt: \(typing[promptRow])")

    _ = console.handle(.enter)
    #expect(console.stackNames == ["home", "user-profile"])
    let screen = renderChecked(console, "screen")
    expectShown(hostile.shown, in: [screen[0]], "navigation bar")
    expectShown("Profile of \(hostile.shown).", in: screen, "body")
    expectShown("Modal \(hostile.shown)", in: screen, "link label")
    #expect(screen[statusRow] == "Opened \(hostile.shown)", "status: \(screen[statusRow])")

    console.showLog()
    let log = renderChecked(console, "log pane")
    expectShown("[prompt] myapp://user/" + form.shown(hostile), in: log, "log head")
    expectShown("{username=\(hostile.shown)}", in: log, "log parameters")
  }

  /// Opened from outside (`appshell openurl`): the screen, the status line and the log pane.
  @Test(arguments: hostileTexts, URLForm.allCases)
  func openedFromOutside(hostile: HostileText, form: URLForm) {
    var console = FrontEnd.console(consoleSize)
    let url = "myapp://user/" + form.carrying(hostile)
    console.send(.urlOpened(url, origin: .external))
    #expect(console.stackNames == ["home", "user-profile"])
    console.showLog()
    let lines = renderChecked(console, "external")
    expectShown(hostile.shown, in: [lines[0]], "navigation bar")
    expectShown("Profile of \(hostile.shown).", in: lines, "body")
    #expect(lines[statusRow] == "Opened \(hostile.shown)", "status: \(lines[statusRow])")
    expectShown("[external] myapp://user/" + form.shown(hostile), in: lines, "log head")
    expectShown("{username=\(hostile.shown)}", in: lines, "log parameters")
  }

  /// A push banner carrying the text in its title, body and URL; Ctrl-O opens the URL.
  @Test(arguments: hostileTexts, URLForm.allCases)
  func inAPushBanner(hostile: HostileText, form: URLForm) {
    var console = FrontEnd.console(consoleSize)
    let url = "myapp://user/" + form.carrying(hostile)
    console.send(.pushReceived(title: "Hi " + hostile.text, body: hostile.text + " body", url: url))
    let banner = renderChecked(console, "banner")
    expectShown("│Hi \(hostile.shown)", in: [banner[1]], "banner title")
    expectShown("│\(hostile.shown) body", in: [banner[2]], "banner body")

    _ = console.handle(.control("o"))
    #expect(console.model.banner == nil)
    #expect(console.stackNames == ["home", "user-profile"])
    console.showLog()
    let opened = renderChecked(console, "banner opened")
    expectShown(hostile.shown, in: [opened[0]], "navigation bar")
    expectShown("Profile of \(hostile.shown).", in: opened, "body")
    #expect(opened[statusRow] == "Opened \(hostile.shown)", "status: \(opened[statusRow])")
    expectShown("[banner] myapp://user/" + form.shown(hostile), in: opened, "log head")
  }

  /// A URL that matches nothing: the alert, typed and from outside, and the log pane; and a
  /// route refused from outside.
  @Test(arguments: hostileTexts, URLForm.allCases)
  func inAnAlert(hostile: HostileText, form: URLForm) {
    let url = "x://" + form.carrying(hostile)
    let urlShown = "x://" + form.shown(hostile)
    for origin in [URLOrigin.prompt, .external] {
      var console = FrontEnd.console(consoleSize)
      console.showLog()
      if origin == .prompt {
        console.open(url)
      } else {
        console.send(.urlOpened(url, origin: origin))
      }
      #expect(console.model.shell.alert?.title == "No route")
      let lines = renderChecked(console, "alert from \(origin)")
      expectInAlert(urlShown, in: lines, "alert from \(origin)")
      // The alert covers the log pane: dismissed, the log shows the URL and the failure.
      _ = console.handle(.enter)
      #expect(console.model.shell.alert == nil)
      let log = renderChecked(console, "log after the alert from \(origin)")
      expectShown("[\(origin.rawValue)] " + urlShown, in: log, "log head from \(origin)")
      expectShown("→ No route: No route for " + urlShown, in: log, "log outcome from \(origin)")
    }

    // A route that outside URLs may not open: refused, with the URL in the message.
    var console = FrontEnd.console(consoleSize)
    console.send(
      .urlOpened("myapp://session/sign-in?x=" + form.carrying(hostile), origin: .external))
    #expect(console.model.shell.alert?.title == "Refused")
    let refused = renderChecked(console, "refused alert")
    expectInAlert("sign-in?x=" + form.shown(hostile), in: refused, "refused alert")
  }

  /// The parameter in other places a screen shows it: a modal's navigation bar, the back label
  /// of the next screen, a notification's user info, and an action's status and alert.
  @Test(arguments: hostileTexts, URLForm.allCases)
  func inModalsBackLabelsNotificationsAndActions(hostile: HostileText, form: URLForm) {
    var modal = FrontEnd.console(consoleSize)
    modal.open("navigator://modal/user/" + form.carrying(hostile))
    #expect(modal.model.shell.modals.count == 1)
    let modalLines = renderChecked(modal, "modal")
    expectShown(hostile.shown, in: [modalLines[2]], "modal navigation bar")
    expectShown("Profile of \(hostile.shown).", in: modalLines, "modal body")

    var back = FrontEnd.console(consoleSize)
    back.open("myapp://user/" + form.carrying(hostile))
    back.open("myapp://settings")
    let backLines = renderChecked(back, "back label")
    // The back label is cut to a quarter of the width (20 columns, `…` last).
    let label =
      hostile.shown.count <= 20 ? hostile.shown : String(hostile.shown.prefix(19)) + "…"
    #expect(backLines[0].hasPrefix("‹ " + label), "back label: \(backLines[0])")

    var notified = FrontEnd.console(consoleSize)
    notified.open("ccfurlresponder://animal/\(form.carrying(hostile))/8.0")
    notified.open("myapp://notifications")
    let notifiedLines = renderChecked(notified, "notifications")
    expectShown("AnimalNotification name=\(hostile.shown) weight=8", in: notifiedLines, "user info")

    var action = FrontEnd.console(consoleSize)
    action.type("myapp://lookup/order/" + form.carrying(hostile))
    let effects = action.press(.enter)
    let started = renderChecked(action, "action started")
    #expect(
      started[statusRow] == "Looking up order \(hostile.shown)… (Esc cancels)",
      "status: \(started[statusRow])")
    // Without digits the look-up ends in an alert quoting the code.
    for case .finishLater(let token, _, let result) in effects {
      action.send(.workFinished(token: token, result: result))
      if case .alert = result {
        let finished = renderChecked(action, "action alert")
        expectInAlert("'\(hostile.shown)'", in: finished, "action alert")
      }
    }
  }

  /// What `appshell replay` prints (the shipped app, in process): no control character but the
  /// line breaks, and the escaped text on the profile screen, in the log and in the alert.
  @Test(arguments: hostileTexts, URLForm.allCases)
  func replayPrintsItInert(hostile: HostileText, form: URLForm) throws {
    let carried = form.carrying(hostile)
    // A key script cannot type a line break or `<` as a character.
    guard !carried.contains(where: { $0.isNewline || $0 == "<" }) else { return }
    let script = "navigator://user/\(carried)<Enter><F2><Snap>x://\(carried)<Enter>"
    try TemporaryDirectory.with("frontend-tests") { directory in
      let path = try writeFile(script, named: "hostile.keys", in: directory)
      let run = CapturedRun.run(["replay", path])
      #expect(run.status == 0, "\(run.stderr)")
      let unsafe = run.stdout.unicodeScalars.filter { $0 != "\n" && isUnsafeScalar($0) }
      #expect(unsafe.isEmpty, "replay printed \(unsafe.map(\.value))")
      let lines = run.stdout.split(separator: "\n").map(String.init)
      expectShown("Profile of \(hostile.shown).", in: lines, "replay screen")
      expectShown("[prompt] navigator://user/" + form.shown(hostile), in: lines, "replay log")
      expectShown("x://" + form.shown(hostile), in: lines, "replay alert")
    }
  }

  /// `appshell resolve` prints JSON: every control (C0, DEL, C1) and every bidi or invisible
  /// format character comes out as a JSON escape, and the parameter reads back as the very
  /// text. (Regression: the JSON writer used to write C1 and bidi controls raw, so they reached
  /// a terminal showing the output.)
  @Test(arguments: hostileTexts, URLForm.allCases)
  func resolvePrintsJSONEscapes(hostile: HostileText, form: URLForm) throws {
    let run = CapturedRun.run(["resolve", "--", "myapp://user/" + form.carrying(hostile)])
    #expect(run.status == 0, "\(run.stderr)")
    let output = run.stdout.unicodeScalars
    #expect(output.last == "\n")
    let controls = output.dropLast().filter { $0.value < 0x20 || $0.value == 0x7F }
    #expect(controls.isEmpty, "resolve printed C0 or DEL: \(controls.map(\.value))")
    let json = try JSON.parse(String(run.stdout.dropLast()))
    #expect(json["params"]?["username"] == .string(hostile.text))
    let others = output.filter { isUnsafeScalar($0) && $0.value >= 0x80 }
    #expect(others.isEmpty, "resolve printed \(others.map(\.value))")
  }
}
