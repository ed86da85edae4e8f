import AppRuntime
import Device
import Foundation
import Interface
import Render
import Routing
import Shell
import Signing
import Terminal

/// `appshell [--routes FILE_OR_URL] [--routes-key FILE] [--screens DIR] [--open URL]
/// [--headless [--size COLSxROWS]]`: the ncurses front end, or the same app headless: without
/// a terminal, in real time, driven over the socket (unlike AppShellKit's `HeadlessSession`,
/// which runs in virtual time).
///
/// The terminal is restored on every way out: Ctrl-C, SIGTERM, SIGINT, SIGQUIT and standard
/// input closing. SIGHUP reloads the route table.
enum InteractiveCommand {
  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
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
          return options.fail(io, Size.sizeProblem(value))
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
    let tableSource: String
    do {
      (console, source, tableSource) = try AppLoader.loadConsole(
        screens: files.screens, routes: files.routes, key: keyPath, size: size)
    } catch {
      io.writeError("appshell: \(error)\n")
      return 2
    }
    var loop = EventLoop(console: console, tables: source, tableSource: tableSource)
    if let openURL { loop.perform(loop.console.send(.launchedWithURL(openURL))) }
    loop.startServer()
    if headless {
      let device = MemoryTerminal(size: size)
      let input = InputReader(readsStandardInput: false)
      defer { input.close() }
      // Only the socket reaches a headless app: without it, it ends at once.
      guard let server = loop.server else {
        io.writeError(
          "appshell: headless, not listening: \(loop.serverProblem ?? "unknown")\n")
        return 2
      }
      io.write(Array("appshell: headless, listening on \(server.socket.path)\n".utf8))
      return loop.run(device: device, input: input)
    }
    let device: NcursesTerminal
    CrashGuard.install()
    do {
      device = try NcursesTerminal()
    } catch {
      CrashGuard.uninstall()
      let instead =
        error == NcursesTerminal.OpenError.notATerminal
        ? "; without one, run 'appshell --headless' (driven over the socket by openurl, push,"
          + " state and reload) or 'appshell replay SCRIPT' (a key script, screens printed)"
        : ""
      io.writeError("appshell: \(error)\(instead)\n")
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
