import Glibc
import Interface
import Render
import Shell
import Terminal

/// `appshell [--routes FILE] [--screens DIR] [--open URL]`: the ncurses front end.
///
/// The loop: draw the console, wait for input, a signal or due work, handle it, draw again.
/// The terminal is restored on every way out: Ctrl-C, SIGTERM, SIGHUP, SIGINT, SIGQUIT and
/// standard input closing.
enum InteractiveCommand {
  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: nil)
    var files = AppFileOptions()
    var openURL: String?
    while let argument = options.next() {
      switch argument {
      case "--routes", "--screens":
        guard files.take(argument, from: &options) else { return options.fail(io) }
      case "--open":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        openURL = value
      default:
        return options.fail(io, "unknown option '\(argument)'")
      }
    }
    let app: ShellApp
    do {
      app = try AppLoader.loadApp(screens: files.screens, routes: files.routes)
    } catch {
      io.writeError("appshell: \(error)\n")
      return 2
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
    var loop = EventLoop(console: Console(app: app, size: device.size()))
    if let openURL { loop.perform(loop.console.send(.launchedWithURL(openURL))) }
    return loop.run(device: device, input: input)
  }
}

/// The interactive loop's state: the console, the key decoder and delayed work.
struct EventLoop {
  var console: Console
  private var decoder = KeyDecoder()
  private var scheduled = WorkScheduler<ContinuousClock.Instant>()
  private let clock = ContinuousClock()
  /// Milliseconds to wait for the rest of an escape sequence before a lone ESC is Esc.
  static let escapeDelay: Int32 = 25

  init(console: Console) { self.console = console }

  /// Runs until Ctrl-C, a terminating signal or the end of input; returns the exit status.
  mutating func run(device: some TerminalDevice, input: InputReader) -> Int32 {
    let frames = FrameNotifier()
    var dirty = true
    while true {
      if dirty {
        device.present(ConsoleView.render(console))
        frames.notify()
        dirty = false
      }
      if console.hasQuit { return 0 }
      let events = input.wait(timeout: timeout())
      if events.isEmpty && decoder.hasPending {
        dirty = handle(decoder.flush()) || dirty
      }
      for event in events {
        switch event {
        case .bytes(let bytes):
          dirty = handle(decoder.feed(bytes)) || dirty
        case .resized:
          console.resize(device.updateSize())
          dirty = true
        case .terminate(let signal):
          return 128 + signal
        case .closed:
          return 0
        }
      }
      dirty = fireDueWork() || dirty
    }
  }

  /// How long to wait: the escape delay while a sequence is pending, until the next due work,
  /// or for ever.
  private func timeout() -> Int32 {
    var timeout: Int32 = -1
    if decoder.hasPending { timeout = Self.escapeDelay }
    if let next = scheduled.nextDue {
      let wait = clock.now.duration(to: next)
      let milliseconds = max(
        0,
        Int32(clamping: wait.components.seconds * 1000)
          + Int32(wait.components.attoseconds / 1_000_000_000_000_000))
      timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
    }
    return timeout
  }

  /// Handles keys; true when any was handled.
  private mutating func handle(_ keys: [Key]) -> Bool {
    for key in keys {
      if console.hasQuit { break }
      perform(console.handle(key))
    }
    return !keys.isEmpty
  }

  /// Runs effects: schedules and cancels delayed work.
  mutating func perform(_ effects: [Effect]) {
    scheduled.apply(effects, now: clock.now, adding: +)
  }

  private mutating func fireDueWork() -> Bool {
    var fired = false
    let now = clock.now
    while let event = scheduled.popDue(now: now) {
      perform(console.send(event))
      fired = true
    }
    return fired
  }
}

/// Tells a test harness that a frame was drawn: when `APPSHELL_FRAME_FIFO` names a FIFO, a
/// newline is written to it after each frame, so a test can wait for the screen to settle
/// without sleeping.
struct FrameNotifier {
  private let descriptor: Int32

  init() {
    if let path = getenv("APPSHELL_FRAME_FIFO") {
      descriptor = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
    } else {
      descriptor = -1
    }
  }

  func notify() {
    guard descriptor >= 0 else { return }
    var newline: UInt8 = 0x0A
    _ = write(descriptor, &newline, 1)
  }
}
