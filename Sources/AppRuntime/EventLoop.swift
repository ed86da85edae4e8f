import Device
import Interface
import JSON
import Platform
import Remote
import Render
import Replay
import Routing
import Shell
import Terminal

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The interactive loop's state: the console, the key decoder, delayed work, the route-table
/// source and the socket that `openurl`, `push`, `state` and `reload` talk to.
package struct EventLoop {
  package var console: Console
  let tables: TableSource
  /// The socket server; nil when it could not start (the status line says why).
  package private(set) var server: SocketServer?
  /// Why the socket server could not start, if it could not.
  package private(set) var serverProblem: String?
  private var watcher: FileWatcher?
  /// Watches the app's `app.json` (a `--screens` directory): a change reloads the app.
  private var appWatcher: FileWatcher?
  private var decoder = KeyDecoder()
  private var scheduled = WorkScheduler<ContinuousClock.Instant>()
  private let clock = ContinuousClock()
  /// The last frame's scene, reused while only the prompt changes.
  private var renderCache: ConsoleView.Cache?
  /// Milliseconds to wait for the rest of an escape sequence before a lone ESC is Esc.
  static let escapeDelay: Int32 = 25
  /// A test hook: the character named by `APPSHELL_TEST_CRASH_KEY` stops the app with a fatal
  /// error, so tests can check that the terminal is restored after a crash.
  private let crashKey: Key? = {
    guard let text = getenv("APPSHELL_TEST_CRASH_KEY").map({ String(cString: $0) }),
      text.count == 1, let character = text.first
    else { return nil }
    return .character(character)
  }()

  /// Where the table in force came from: a path, a URL, the cache of a URL, the shipped table.
  private(set) var tableSource: String
  /// Writes the session's keys and resizes as a key script (`--record`), if asked to.
  package var recorder: KeyRecorder?

  package init(console: Console, tables: TableSource, tableSource: String) {
    self.console = console
    self.tables = tables
    self.tableSource = tableSource
    if let file = tables.watchedFile { watcher = FileWatcher(path: file) }
    if let file = tables.watchedAppFile { appWatcher = FileWatcher(path: file) }
  }

  /// Starts listening on the user's socket; a failure is noted, not fatal.
  package mutating func startServer() {
    do {
      server = try SocketServer(socket: SocketPath.current())
    } catch {
      serverProblem = error.description
      console.send(.noted("Not listening for openurl/push: \(error)", isProblem: true))
    }
  }

  /// Runs until Ctrl-C, a terminating signal or the end of input; returns the exit status.
  package mutating func run(device: some TerminalDevice, input: InputReader) -> Int32 {
    defer { server?.close() }
    let frames = FrameNotifier()
    var dirty = true
    while true {
      if dirty {
        device.present(ConsoleView.render(console, cache: &renderCache))
        frames.notify()
        dirty = false
      }
      if console.hasQuit { return 0 }
      let watched =
        (server?.descriptors ?? []) + [watcher, appWatcher].compactMap { $0?.descriptor }
      let events = input.wait(timeout: timeout(), watching: watched)
      if events.isEmpty && decoder.hasPending {
        dirty = handle(decoder.flush(), on: device) || dirty
      }
      var ready: Set<Int32> = []
      for event in events {
        switch event {
        case .bytes(let bytes):
          dirty = handle(decoder.feed(bytes), on: device) || dirty
        case .resized:
          console.resize(device.updateSize())
          record(.resize(console.size))
          dirty = true
        case .reload:
          reloadTable()
          dirty = true
        case .ready(let descriptors):
          ready = descriptors
        case .terminate(let signal):
          return 128 + signal
        case .closed:
          return 0
        }
      }
      // Each watcher's change is taken, so none is left to fire again.
      let changes = [watcher, appWatcher].map { watcher in
        guard let watcher, ready.contains(watcher.descriptor) else { return false }
        return watcher.takeChange()
      }
      if changes.contains(true) {
        reloadTable()
        dirty = true
      }
      if let server {
        let served = server.serve(
          ready: ready, answer: { answer($0) },
          refused: { console.send(.noted($0, isProblem: true)) })
        dirty = dirty || served
      }
      dirty = fireDueWork() || dirty
    }
  }

  /// Reads the route table again and puts it in force, or notes why not.
  /// Returns whether the new table was put in force.
  @discardableResult
  mutating func reloadTable() -> Bool {
    guard let loaded = tables.reload(into: &console) else { return false }
    tableSource = loaded
    return true
  }

  /// Carries out a socket request and says how it went.
  mutating func answer(_ request: WireRequest) -> WireReply {
    switch request {
    case .openURL(let url):
      record(.open(url))
      let before = console.model
      perform(console.send(.urlOpened(url, origin: .external)))
      return .success(
        Array(
          OpenReport(url: url, from: .external, before: before, after: console).members.dropFirst())
      )
    case .push(let payload):
      if let push = try? KeyScript.Push(text: payload.json.serialized) { record(.push(push)) }
      perform(
        console.send(.pushReceived(title: payload.title, body: payload.body, url: payload.url)))
      return .success([JSONMember("banner", .string(payload.title))])
    case .state:
      return .success([
        JSONMember("state", console.model.shell.json(flags: console.model.session.flags)),
        JSONMember("status", .string(console.statusLine)),
        JSONMember("banner", bannerJSON),
        JSONMember("table", tableJSON),
        JSONMember("log", logJSON),
      ])
    case .reload:
      // The note the reload made is the status line now.
      guard reloadTable() else { return .failure(console.model.status) }
      return .success([
        JSONMember("status", .string(console.model.status)), JSONMember("table", tableJSON),
      ])
    }
  }

  private var bannerJSON: JSON {
    guard let banner = console.model.banner else { return .null }
    return .object([
      JSONMember("title", .string(banner.title)), JSONMember("body", .string(banner.body)),
      JSONMember("url", banner.url.map { .string($0) } ?? .null),
    ])
  }

  /// The last 50 URL log entries (`source`, `url`, `outcome`) and notes (`note`, `problem`),
  /// oldest first.
  private var logJSON: JSON {
    let model = console.model
    var items: [JSON] = []
    var notes = model.notes[...]
    func addNotes(upTo position: Int) {
      while let note = notes.first, note.position <= position {
        items.append(
          .object([
            JSONMember("note", .string(note.text)), JSONMember("problem", .bool(note.isProblem)),
          ]))
        notes = notes.dropFirst()
      }
    }
    for (index, entry) in model.log.enumerated() {
      addNotes(upTo: index)
      items.append(
        .object([
          JSONMember("source", .string(entry.origin.rawValue)),
          JSONMember("url", .string(entry.url)),
          JSONMember("outcome", .string(entry.detail)),
        ]))
    }
    addNotes(upTo: model.log.count)
    return .array(items.suffix(50))
  }

  private var tableJSON: JSON {
    let table = console.app.table
    return .object([
      JSONMember("version", table.version.map { .number(String($0)) } ?? .null),
      JSONMember("routes", .number(String(table.entries.count))),
      JSONMember("source", .string(tableSource)),
    ])
  }

  /// How long to wait: the escape delay while a sequence is pending, until the next due work
  /// or a socket client's deadline, or for ever.
  private func timeout() -> Int32 {
    var timeout: Int32 = -1
    if decoder.hasPending { timeout = Self.escapeDelay }
    for next in [scheduled.nextDue, server?.nextDeadline].compactMap({ $0 }) {
      let wait = clock.now.duration(to: next)
      let milliseconds = max(
        0,
        Int32(clamping: wait.components.seconds * 1000)
          + Int32(wait.components.attoseconds / 1_000_000_000_000_000) + 1)
      timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
    }
    return timeout
  }

  /// Handles keys; true when any was handled. The reload they ask for (however many Ctrl-Rs
  /// came in together) runs once after them, with "Reloading…" shown on `device` first, as a
  /// download may take a while.
  private mutating func handle(_ keys: [Key], on device: some TerminalDevice) -> Bool {
    var reloads = false
    for key in keys {
      if console.hasQuit { break }
      if let crashKey, key == crashKey { fatalError("crash requested by APPSHELL_TEST_CRASH_KEY") }
      record(.key(key))
      let effects = console.handle(key)
      reloads = reloads || effects.contains(.reload)
      perform(effects.filter { $0 != .reload })
    }
    if reloads {
      device.present(ConsoleView.render(console))
      perform([.reload])
    }
    return !keys.isEmpty
  }

  /// Records a step when `--record` is on; a failed write is noted once.
  package mutating func record(_ step: KeyScript.Step) {
    guard let recorder, recorder.problem == nil else { return }
    recorder.record(step)
    if let problem = recorder.problem { console.send(.noted(problem, isProblem: true)) }
  }

  /// Runs effects: schedules and cancels delayed work, and reloads.
  package mutating func perform(_ effects: [Effect]) {
    scheduled.apply(effects, now: clock.now, adding: +)
    if effects.contains(.reload) { reloadTable() }
  }

  private mutating func fireDueWork() -> Bool {
    var fired = false
    let now = clock.now
    while let event = scheduled.popDue(now: now) {
      perform(console.send(event))
      fired = true
    }
    if fired { recorder?.noteWorkRan() }
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
