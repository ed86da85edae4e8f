import Device
import Interface
import Render
import Routing
import Shell

/// Runs a key script against an in-memory terminal (``MemoryTerminal``): the same console and
/// renderer as the real front end, with a virtual clock instead of real time.
///
/// Time advances by ``keyInterval`` per key, and delayed work (async handlers) whose time has
/// come finishes before the next key, so a replay is deterministic.
package struct Replayer {
  /// One snapshot: the screen and the state.
  package struct Snapshot: Sendable, Hashable {
    /// The screen, as the terminal would show it.
    package var grid: Grid
    /// The shell state at that moment.
    package var state: ShellState
    /// The app's flags at that moment.
    package var flags = Flags()
  }

  /// How much virtual time one key takes.
  package static let keyInterval: Duration = .milliseconds(100)

  /// The console being driven.
  package private(set) var console: Console
  /// The in-memory terminal the snapshots are presented on.
  package let device: MemoryTerminal
  /// Delayed work, on the virtual clock.
  private var scheduled = WorkScheduler<Duration>()
  /// Reads the route table again when the script presses Ctrl-R (nil: the reload is noted as
  /// unavailable).
  package var reloadTable: ((inout Console) -> Void)?
  private var clock: Duration = .zero
  /// The last frame's scene, reused while only the prompt changes.
  private var renderCache: ConsoleView.Cache?

  /// Makes a replayer around a fresh console.
  package init(console: Console) {
    self.console = console
    device = MemoryTerminal(size: console.size)
  }

  /// Runs the script and returns a snapshot for each `<Snap>` and one at the end.
  package mutating func run(_ script: KeyScript) -> [Snapshot] {
    var snapshots: [Snapshot] = []
    for step in script.steps {
      switch step {
      case .key(let key):
        press(key)
      case .snapshot:
        snapshots.append(snapshot())
      case .resize(let size):
        device.currentSize = size
        console.resize(device.updateSize())
      }
    }
    snapshots.append(snapshot())
    return snapshots
  }

  /// Draws the screen on the memory terminal and returns it with the state.
  package mutating func snapshot() -> Snapshot {
    device.present(ConsoleView.render(console, cache: &renderCache))
    return Snapshot(
      grid: device.frame!, state: console.model.shell, flags: console.model.session.flags)
  }

  /// Presses one key (ignored after Ctrl-C), then lets due work finish.
  package mutating func press(_ key: Key) {
    guard !console.hasQuit else { return }
    run(console.handle(key))
    if console.takeReloadRequest() {
      if let reloadTable {
        reloadTable(&console)
      } else {
        console.refuseTable("reloading is not available here")
      }
    }
    clock += Self.keyInterval
    while let event = scheduled.popDue(now: clock) {
      run(console.send(event))
    }
  }

  /// Sends one event to the console (a URL from outside, a cold start) and carries out its
  /// effects on the virtual clock.
  package mutating func send(_ event: ShellEvent) {
    run(console.send(event))
  }

  /// Lets virtual time pass: delayed work that comes due finishes, in order.
  package mutating func advance(by duration: Duration) {
    clock += duration
    while let event = scheduled.popDue(now: clock) {
      run(console.send(event))
    }
  }

  private mutating func run(_ effects: [Effect]) {
    scheduled.apply(effects, now: clock, adding: +)
  }
}
