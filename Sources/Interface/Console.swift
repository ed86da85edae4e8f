import Routing
import Shell

/// The interactive app: the shell model plus what the terminal front end adds (the URL prompt,
/// the selected link, the log pane, the help overlay, the size). Keys go in, effects come out;
/// no I/O happens here, so the real terminal and `replay` run the same code.
package struct Console: Sendable {
  /// The app definition (route table, screens, actions).
  package var app: ShellApp { didSet { sceneRevision &+= 1 } }
  /// The shell model.
  package private(set) var model: AppModel { didSet { sceneRevision &+= 1 } }
  /// The URL prompt.
  package private(set) var prompt = Prompt()
  /// The selected link of the top screen, if any.
  package private(set) var selectedLink: Int? { didSet { sceneRevision &+= 1 } }
  /// How many lines the top screen is scrolled down (PageDown/PageUp).
  package private(set) var scroll = 0 { didSet { sceneRevision &+= 1 } }
  /// Whether the event-log pane is shown (F2).
  package private(set) var showsLog = false { didSet { sceneRevision &+= 1 } }
  /// Whether the help overlay is shown (F1).
  package private(set) var showsHelp = false { didSet { sceneRevision &+= 1 } }
  /// The terminal size.
  package private(set) var size: Size { didSet { sceneRevision &+= 1 } }
  /// Set by Ctrl-C: the app should restore the terminal and exit.
  package private(set) var hasQuit = false
  /// A one-off message for the status line (cleared by the next key).
  package private(set) var notice: String?
  /// Tab completion from the route table.
  package private(set) var completer: Completer
  /// Changes whenever anything drawn other than the status line and the prompt may have
  /// changed, so a renderer can reuse the rest of the last frame while the user types.
  package private(set) var sceneRevision = 0

  /// Makes the console of a fresh app.
  package init(app: ShellApp, size: Size) {
    self.app = app
    model = app.initialModel()
    self.size = size
    completer = Completer(table: app.table)
  }

  /// The status line: a notice, else the model's status.
  package var statusLine: String { notice ?? model.status }

  /// Applies a shell event; another screen on top clears the link selection and scrolling.
  @discardableResult
  package mutating func send(_ event: ShellEvent) -> [Effect] {
    let modalsBefore = model.shell.modals.count
    let before = model.shell.topScreen
    let effects = app.reduce(&model, event)
    // Another screen on top (not the same one re-made with new data) starts unselected.
    let after = model.shell.topScreen
    if !(after.isSameScreen(as: before) && after.url == before.url)
      || model.shell.modals.count != modalsBefore
    {
      selectedLink = nil
      scroll = 0
    }
    return effects
  }

  /// Resizes the terminal.
  package mutating func resize(_ size: Size) { self.size = size }

  /// Puts a new route table in force (live reload); open screens stay open. A table older than
  /// the one in force (its `version`; none counts as 0) or one that does not fit the app (an
  /// unknown guard, say) is refused and the old one stays.
  /// `description` says where it came from, for the status line and the log.
  @discardableResult
  package mutating func replaceTable(_ table: RouteTable, from description: String) -> Bool {
    notice = nil  // "Reloading…" gives way to the outcome
    guard !refusesOlder(table, from: description) else { return false }
    var candidate = app
    candidate.table = table
    do {
      try candidate.validate()
    } catch {
      refuseTable("\(description): \(error)")
      return false
    }
    app = candidate
    noteLoaded(table, from: description)
    return true
  }

  /// ``replaceTable(_:from:)`` for a table already checked against the app: `candidate` is
  /// the app in force with the new table (``ShellApp/validate()`` passed). Only a table older
  /// than the one in force is refused.
  @discardableResult
  package mutating func replaceTable(checked candidate: ShellApp, from description: String)
    -> Bool
  {
    notice = nil
    guard !refusesOlder(candidate.table, from: description) else { return false }
    app = candidate
    noteLoaded(candidate.table, from: description)
    return true
  }

  /// Refuses `table` when it is older than the one in force (its `version`; none counts as
  /// 0), and says so; false when it is not older.
  private mutating func refusesOlder(_ table: RouteTable, from description: String) -> Bool {
    guard let current = app.table.version, table.version ?? 0 < current else { return false }
    let shown = table.version.map { "v\($0)" } ?? "an unversioned table"
    refuseTable("\(description): \(shown) is older than v\(current) in force (no rollback)")
    return true
  }

  /// A table just put in force: completion follows it, and the log says where it came from.
  private mutating func noteLoaded(_ table: RouteTable, from description: String) {
    completer = Completer(table: table)
    let what = table.version.map { "route table v\($0)" } ?? "the route table"
    send(
      .noted(
        "Loaded \(what) from \(description) (\(table.entries.count) routes)", isProblem: false))
  }

  /// Puts a new app in force (a reload that read `app.json` again) with the table it was
  /// built around. Flags keep their values where the new app has the same flag with the same
  /// type; open screens stay open, unless the tabs changed: then every tab starts again at its
  /// root. A table older than the one in force is refused.
  @discardableResult
  package mutating func replaceApp(_ candidate: ShellApp, from description: String) -> Bool {
    notice = nil
    let table = candidate.table
    guard !refusesOlder(table, from: description) else { return false }
    var flags = candidate.flags
    for name in flags.names {
      if let value = model.session.flags[name], value.hasSameType(as: flags[name]!) {
        flags[name] = value
      }
    }
    model.session.flags = flags
    model.session.initialFlags = candidate.flags
    if candidate.tabs != app.tabs {
      model.shell = candidate.initialModel(session: model.session).shell
      model.continuation = nil
    }
    app = candidate
    noteLoaded(table, from: description)
    return true
  }

  /// Notes that the app's files (`app.json`, screens) were refused on reload; the app in
  /// force stays.
  package mutating func refuseApp(_ reason: String) {
    notice = nil
    send(.noted("App refused: \(reason); keeping the one in force", isProblem: true))
  }

  /// Notes that a new route table was refused; the one in force stays.
  package mutating func refuseTable(_ reason: String) {
    notice = nil
    send(.noted("Route table refused: \(reason); keeping the one in force", isProblem: true))
  }

  /// Handles one key (the keys are listed under F1), and returns the effects to run.
  package mutating func handle(_ key: Key) -> [Effect] {
    notice = nil
    if key == .control("c") {
      hasQuit = true
      return []
    }
    if model.shell.alert != nil {
      if key == .enter || key == .escape { return send(.alertDismissed) }
      if case .character = key {
        notice = "Not typed: an alert is up; Enter or Esc dismisses it"
      }
      return []
    }
    if showsHelp {
      if key == .escape || key == .function(1) || key == .enter { showsHelp = false }
      return []
    }
    switch key {
    case .control("o"):
      guard model.banner != nil else {
        notice = "No notification banner to open"
        return []
      }
      return send(.bannerOpened)
    case .control("r"):
      notice = "Reloading the route table…"
      return [.reload]
    case .function(1):
      showsHelp = true
      return []
    case .function(2):
      showsLog.toggle()
      return []
    case .pageDown:
      scroll = min(scroll + max(1, size.rows / 2), scrollLimit)
      return []
    case .pageUp:
      scroll = max(0, scroll - max(1, size.rows / 2))
      return []
    default:
      break
    }
    return prompt.isEmpty ? handleWithEmptyPrompt(key) : handleWithText(key)
  }

  private mutating func handleWithEmptyPrompt(_ key: Key) -> [Effect] {
    switch key {
    case .character(let character):
      prompt.insert(character)
    case .escape:
      return send(.backRequested)
    case .tab:
      return selectTab(model.shell.selectedTab + 1)
    case .backTab:
      return selectTab(model.shell.selectedTab - 1)
    case .down:
      let count = model.shell.topScreen.links.count
      guard count > 0 else { break }
      selectedLink = selectedLink.map { min($0 + 1, count - 1) } ?? 0
    case .up:
      let count = model.shell.topScreen.links.count
      guard count > 0 else { break }
      selectedLink = selectedLink.map { max($0 - 1, 0) } ?? count - 1
    case .enter:
      guard let link = selectedLink else { break }
      return send(.linkFollowed(link))
    case .control("p"):
      prompt.historyPrevious()
    case .control("n"):
      prompt.historyNext()
    default:
      break
    }
    return []
  }

  private mutating func selectTab(_ index: Int) -> [Effect] {
    let count = model.shell.tabs.count
    return send(.tabSelected(((index % count) + count) % count))
  }

  private mutating func handleWithText(_ key: Key) -> [Effect] {
    switch key {
    case .character(let character): prompt.insert(character)
    case .enter:
      let url = prompt.submit()
      return send(.urlOpened(url, origin: .prompt))
    case .escape: prompt.clear()
    case .tab:
      let before = prompt.text
      let (completed, choices) = completer.complete(before)
      prompt.setText(completed)
      if choices.count > 1 {
        let shown = choices.prefix(6).joined(separator: "  ")
        notice = "\(choices.count) completions: \(shown)\(choices.count > 6 ? "  …" : "")"
      } else if choices.isEmpty && completed == before {
        notice = "No completion"
      }
    case .backspace: prompt.deleteBackward()
    case .delete, .control("d"): prompt.deleteForward()
    case .left, .control("b"): prompt.moveLeft()
    case .right, .control("f"): prompt.moveRight()
    case .home, .control("a"): prompt.moveToStart()
    case .end, .control("e"): prompt.moveToEnd()
    case .control("u"): prompt.killToStart()
    case .control("k"): prompt.killToEnd()
    case .control("w"): prompt.deleteWordBackward()
    case .up, .control("p"): prompt.historyPrevious()
    case .down, .control("n"): prompt.historyNext()
    default: break
    }
    return []
  }

  /// The top screen's line count (body, a blank line, links): the most it can scroll.
  private var scrollLimit: Int {
    let screen = model.shell.topScreen
    return max(0, screen.body.count + (screen.links.isEmpty ? 0 : 1 + screen.links.count) - 1)
  }

  /// Every key binding, for the help overlay (F1).
  package static let bindings: [(keys: String, action: String)] = [
    ("text, Enter", "type a URL and open it"),
    ("Tab", "complete the URL (with text); next tab (empty)"),
    ("S-Tab", "previous tab"),
    ("Esc", "clear the prompt; else go back / dismiss"),
    ("Down / Up", "select a link (empty prompt); history (text)"),
    ("Enter", "follow the selected link (empty prompt)"),
    ("C-a C-e", "start / end of the line"),
    ("C-u C-k C-w", "delete to start / to end / a word"),
    ("C-p C-n", "previous / next URL in the history"),
    ("Left Right", "move the cursor"),
    ("BS Del", "delete before / under the cursor"),
    ("F1", "this help"),
    ("F2", "show or hide the event log"),
    ("C-o", "open the notification banner"),
    ("C-r", "reload the route table (also SIGHUP)"),
    ("PageUp PageDown", "scroll the screen"),
    ("C-c", "quit"),
  ]
}
