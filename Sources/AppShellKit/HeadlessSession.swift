import AppRuntime
import Interface
import Render
import Replay
import Routing
import Shell

/// An app that could not be loaded, or a key script that could not be read.
public struct AppShellError: Error, CustomStringConvertible {
  /// `FILE: member: problem`.
  public var description: String
}

/// Where a URL opened in a ``HeadlessSession`` comes from (a link contract's `from`).
public enum LinkOrigin: Sendable {
  /// From inside the app (the URL prompt): routes with `"external": false` open.
  case inside
  /// From outside while running (`appshell openurl`): `"external": false` routes are refused.
  case outside
  /// At launch (`appshell --open`): from outside, with the route's `parent` chain first.
  case cold
}

/// The screen on top: its name, title and parameters (as text).
public struct TopScreen: Sendable, Hashable {
  /// The screen's name, such as `product`.
  public var name: String
  /// Its title.
  public var title: String
  /// Its parameters as text.
  public var params: [String: String]

  /// Makes a description of a screen (to compare with ``HeadlessSession/topScreen``).
  public init(name: String, title: String, params: [String: String] = [:]) {
    self.name = name
    self.title = title
    self.params = params
  }
}

/// An app run without a terminal, for Swift Testing: open URLs, press keys, let virtual time
/// pass, and read the state, the top screen, the screen text and the event log.
///
/// The session runs in the test's process, in virtual time (as `appshell replay` does); it is
/// not `appshell --headless`, the real app without a terminal, in real time, driven over its
/// socket.
///
/// ```swift
/// var session = try HeadlessSession(directory: appDirectory, setup: setup)
/// session.open("shop://products/7")
/// #expect(session.topScreen.name == "product")
/// try session.press("<Esc>")
/// ```
public struct HeadlessSession {
  private var replayer: Replayer

  /// Loads the app in `directory` (its `app.json`, `routes.json` and screens) with the Swift
  /// parts of `setup`, on a screen of `columns` x `rows`.
  public init(directory: String, setup: AppSetup = AppSetup(), columns: Int = 80, rows: Int = 24)
    throws(AppShellError)
  {
    let app: ShellApp
    do {
      let table = try AppLoader.loadTable(path: directory + "/routes.json")
      app = try AppLoader.appMaker(directory: directory, registry: setup.registry).own(table)
    } catch {
      throw AppShellError(description: "\(error)")
    }
    replayer = Replayer(
      console: Console(app: app, size: Size(columns: columns, rows: rows)))
  }

  /// Opens a URL as from `origin`.
  public mutating func open(_ url: String, from origin: LinkOrigin = .inside) {
    switch origin {
    case .inside: replayer.send(.urlOpened(url, origin: .prompt))
    case .outside: replayer.send(.urlOpened(url, origin: .external))
    case .cold: replayer.send(.launchedWithURL(url))
    }
  }

  /// Opens a destination of the app's table (a value of a generated `TypedRoute` enum) as
  /// from `origin`, through the URL the table gives it; an error when no route can say it.
  public mutating func open(_ route: some TypedRoute, from origin: LinkOrigin = .inside)
    throws(AppShellError)
  {
    let table = replayer.console.app.table
    guard let url = table.url(for: route.target, parameters: route.parameters) else {
      throw AppShellError(
        description: LinkTarget.unreachable(route.target, route.parameters))
    }
    open(url, from: origin)
  }

  /// Presses keys written as a key script (`<Down><Enter>`, `shop://cart<Enter>`); each key
  /// takes 100 ms of virtual time. `<Snap>` and `<Resize>` are not keys and are refused.
  public mutating func press(_ keys: String) throws(AppShellError) {
    let script: KeyScript
    do {
      script = try KeyScript(parsing: keys, file: "keys")
    } catch {
      throw AppShellError(description: "\(error)")
    }
    for step in script.steps {
      guard case .key(let key) = step else {
        throw AppShellError(description: "keys: only keys can be pressed, not <Snap> or <Resize>")
      }
      replayer.press(key)
    }
  }

  /// Lets `seconds` of virtual time pass: actions that finish later finish.
  public mutating func wait(seconds: Double) {
    replayer.advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
  }

  /// The state JSON: tabs, stacks, modals, the alert and the flags.
  public var stateJSON: String {
    replayer.console.model.shell.json(flags: replayer.console.model.session.flags).serialized
  }

  /// The screen on top.
  public var topScreen: TopScreen {
    let screen = replayer.console.model.shell.topScreen
    var params: [String: String] = [:]
    for (key, value) in screen.params { params[key] = value.displayText }
    return TopScreen(name: screen.name, title: screen.title, params: params)
  }

  /// The alert shown, if any: its title and message.
  public var alert: (title: String, message: String)? {
    replayer.console.model.shell.alert.map { ($0.title, $0.message) }
  }

  /// The flags' current values.
  public var flags: [String: FlagValue] { AppSetup.flags(replayer.console.model.session.flags) }

  /// The status line.
  public var status: String { replayer.console.model.status }

  /// The screen as the terminal shows it: one line per row, trailing spaces cut.
  public mutating func screenText() -> String { replayer.snapshot().grid.text }

  /// The event log, oldest first: one line per URL opened, `ORIGIN URL -> OUTCOME`.
  public var log: [String] { replayer.console.model.log.map(\.summary) }
}
