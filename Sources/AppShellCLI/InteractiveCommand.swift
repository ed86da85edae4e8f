import Device
import Foundation
import Interface
import Render
import Routing
import Shell
import Signing
import Terminal

/// `appshell [--routes FILE_OR_URL] [--routes-key FILE] [--screens DIR] [--open URL]
/// [--headless [--size COLSxROWS]]`: the ncurses front end, or the same app headless.
///
/// The terminal is restored on every way out: Ctrl-C, SIGTERM, SIGINT, SIGQUIT and standard
/// input closing. SIGHUP reloads the route table.
enum InteractiveCommand {
  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: nil)
    var files = AppFileOptions()
    var openURL: String?
    var keyPath: String?
    var headless = false
    var recordPath: String?
    var size = Size(columns: 80, rows: 24)
    while let argument = options.next() {
      switch argument {
      case "--routes", "--screens":
        guard files.take(argument, from: &options) else { return options.fail(io) }
      case "--open":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        openURL = value
      case "--routes-key":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        keyPath = value
      case "--record":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        recordPath = value
      case "--headless":
        guard !options.hasValue else { return options.fail(io, "--headless takes no value") }
        headless = true
      case "--size":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        guard let parsed = Size(parsing: value) else {
          return options.fail(io, "--size needs COLSxROWS such as 80x24, not '\(value)'")
        }
        size = parsed
      default:
        return options.fail(io, Options.unknown(argument, help: AppShellCommand.help))
      }
    }
    if recordPath != nil && headless {
      return options.fail(io, "--record records keys, and --headless reads none")
    }
    let console: Console
    let source: TableSource
    let origin: String
    do {
      (console, source, origin) = try AppLoader.loadConsole(
        screens: files.screens, routes: files.routes, key: keyPath, size: size)
    } catch {
      io.writeError("appshell: \(error)\n")
      return 2
    }
    var loop = EventLoop(console: console, tables: source, origin: origin)
    if let openURL { loop.perform(loop.console.send(.launchedWithURL(openURL))) }
    loop.startServer()
    if headless {
      let device = MemoryTerminal(size: size)
      let input = InputReader(readsStandardInput: false)
      defer { input.close() }
      let listening =
        loop.server.map { "listening on \($0.socket.path)" }
        ?? "not listening: \(loop.serverProblem ?? "unknown")"
      io.write(Array("appshell: headless, \(listening)\n".utf8))
      return loop.run(device: device, input: input)
    }
    let device: NcursesTerminal
    CrashGuard.install()
    do {
      device = try NcursesTerminal()
    } catch {
      CrashGuard.uninstall()
      io.writeError("appshell: \(error)\n")
      return 1
    }
    let input = InputReader()
    defer {
      device.close()
      input.close()
      CrashGuard.uninstall()
    }
    loop.console.resize(device.size())
    if let recordPath {
      // Opened once the terminal works, so a failed start leaves an existing file alone.
      do {
        // `replay` reads tables from files only: a downloaded table is named for the user to
        // save, as the header's note says.
        let remote = files.routes.map { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
        let replayOptions =
          (files.routes.map { ["--routes", remote == true ? "SAVED-TABLE.json" : $0] } ?? [])
          + (files.screens.map { ["--screens", $0] } ?? [])
          + (openURL.map { ["--open", $0] } ?? [])
        loop.recorder = try KeyRecorder(
          path: recordPath, replayOptions: replayOptions,
          note: remote == true
            ? "the table came from \(files.routes!): save it as SAVED-TABLE.json first" : nil)
      } catch {
        device.close()
        io.writeError("appshell: \(error)\n")
        return 2
      }
    }
    if loop.recorder != nil { loop.record(.resize(loop.console.size)) }
    defer { loop.recorder?.close() }
    return loop.run(device: device, input: input)
  }
}

extension AppLoader {
  /// The console of the app at start-up and where its table comes from: the screens (default:
  /// the shipped ones), the table (`routes`: a file or an http(s) URL; default: the screens
  /// directory's `routes.json`) and the key remote tables must be signed with (default: the
  /// shipped `Screens/routes-key.pem`). Notes about the table (a cache used, a download
  /// refused) are in the status line and the log; `origin` says where the table in force came
  /// from.
  static func loadConsole(screens: String?, routes: String?, key keyPath: String?, size: Size)
    throws(LoadError) -> (Console, TableSource, origin: String)
  {
    let directory = screens ?? shippedScreensDirectory()
    let maker = try appMaker(directory: directory)
    let shippedTable = directory + "/routes.json"
    let location: TableSource.Location
    if let routes, let url = URL(string: routes),
      ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    {
      location = .remote(url)
    } else {
      location = .file(routes ?? shippedTable, shipped: routes == nil && screens == nil)
    }
    var key: Ed25519PublicKey?
    if case .remote = location {
      let path = keyPath ?? shippedScreensDirectory() + "/routes-key.pem"
      guard let data = FileManager.default.contents(atPath: path) else {
        throw LoadError("\(path): cannot read the route-table key")
      }
      do {
        key = try Ed25519PublicKey(pem: [UInt8](data))
      } catch {
        throw LoadError("\(path): \(error)")
      }
    }
    var source = TableSource(
      location: location, key: key, cache: TableCache.current(), shippedPath: shippedTable)
    source.appDirectory = directory
    let fits: (RouteTable) throws -> Void = { table in _ = try maker(table) }
    let (candidate, note) = try source.initial(fits: fits)
    let app = try source.isOwnTable ? maker.own(candidate.table) : maker(candidate.table)
    var console = Console(app: app, size: size)
    if let note { console.send(.noted(note, isProblem: true)) }
    return (console, source, candidate.description)
  }
}
