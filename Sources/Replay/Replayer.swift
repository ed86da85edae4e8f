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

  /// A failed expectation: where, what, and the screen at that moment.
  package struct Failure: Sendable, Hashable {
    /// `FILE:LINE:COL` of the directive.
    package var place: String
    /// What was expected and what was found, e.g. `expected "Orders" on the screen`.
    package var message: String
    /// The screen and state when it failed.
    package var snapshot: Snapshot

    /// The one line a failure is reported as: `FILE:LINE:COL: message`.
    package var line: String { "\(place): \(message)" }
  }

  /// What playing a script gave: a snapshot for each `<Snap>` (and one at the end when it ran
  /// to its end), or the failed expectation that ended it.
  package struct Playback: Sendable, Hashable {
    /// The snapshots taken.
    package var snapshots: [Snapshot]
    /// The failed expectation that ended the run, if one did.
    package var failure: Failure?
  }

  /// One frame drawn, at its virtual time (from the start of the run).
  package struct Frame: Sendable, Hashable {
    /// When it was drawn.
    package var time: Duration
    /// What it showed.
    package var grid: Grid
  }

  /// How much virtual time one key takes.
  package static let keyInterval: Duration = .milliseconds(100)

  /// The console being driven.
  package private(set) var console: Console
  /// The in-memory terminal the snapshots are presented on.
  package let device: MemoryTerminal
  /// Delayed work, on the virtual clock.
  private var scheduled = WorkScheduler<Duration>()
  /// Carries out the ``Effect/reload`` of Ctrl-R: reads the route table again (nil: the
  /// reload is noted as unavailable).
  package var reloadTable: ((inout Console) -> Void)?
  private var clock: Duration = .zero
  /// The last frame's scene, reused while only the prompt changes.
  private var renderCache: ConsoleView.Cache?
  /// Whether every frame is kept in ``frames`` (for a recording).
  package var keepsFrames = false
  /// The frames drawn, when ``keepsFrames`` is on: the first screen, then one after each step
  /// that changed it and after each `<Wait>`.
  package private(set) var frames: [Frame] = []
  /// How long `<WaitFor>` waits between looks at the screen.
  package static let waitStep: Duration = .milliseconds(100)

  /// Makes a replayer around a fresh console.
  package init(console: Console) {
    self.console = console
    device = MemoryTerminal(size: console.size)
  }

  /// Runs the script and returns a snapshot for each `<Snap>` and one at the end (or the
  /// snapshots taken before an expectation failed).
  package mutating func run(_ script: KeyScript) -> [Snapshot] {
    play(script).snapshots
  }

  /// Runs the script until its end or its first failed expectation.
  package mutating func play(_ script: KeyScript) -> Playback {
    var snapshots: [Snapshot] = []
    keepFrame()
    for step in script.steps {
      switch step {
      case .key(let key):
        press(key)
      case .snapshot:
        snapshots.append(snapshot())
      case .resize(let size):
        device.currentSize = size
        console.resize(device.updateSize())
      case .open(let url):
        send(.urlOpened(url, origin: .external))
      case .push(let push):
        send(.pushReceived(title: push.title, body: push.body, url: push.url))
      case .wait(let seconds):
        advance(by: seconds.duration)
        // A frame is drawn after a wait even when nothing changed, so a recording keeps it.
        keepFrame(always: true)
      case .expect(let expectation):
        if let message = check(expectation) {
          return Playback(
            snapshots: snapshots,
            failure: Failure(
              place: expectation.place, message: message, snapshot: snapshot()))
        }
      }
      keepFrame()
    }
    snapshots.append(snapshot())
    return Playback(snapshots: snapshots, failure: nil)
  }

  /// Checks one expectation (letting time pass for `<WaitFor>`); nil when it holds, else
  /// what was expected and what was found.
  private mutating func check(_ expectation: KeyScript.Expectation) -> String? {
    switch expectation.kind {
    case .contains(let text):
      return shows(text.text) ? nil : "expected \"\(text.written)\" on the screen"
    case .lacks(let text):
      return shows(text.text) ? "\"\(text.written)\" is on the screen" : nil
    case .screen(let name):
      let top = console.model.shell.topScreen.name
      return top == name ? nil : "expected screen \(name), the top screen is \(top)"
    case .waitFor(let text, let limit):
      let limit = limit ?? KeyScript.Expectation.defaultWait
      var waited = Duration.zero
      while !shows(text.text) {
        // Only work coming due changes the screen: steps where none does are taken without
        // looking at it again.
        repeat {
          guard waited < limit.duration else {
            return "\"\(text.written)\" did not appear within \(limit.text) s"
          }
          waited += Self.waitStep
        } while !advance(by: Self.waitStep)
        keepFrame()
      }
      return nil
    }
  }

  /// Whether a line of the screen, as replay would print it now, contains `text`.
  package mutating func shows(_ text: String) -> Bool {
    snapshot().grid.text.split(separator: "\n").contains { $0.contains(text) }
  }

  /// Keeps the screen as a frame when frames are kept and it changed (or `always`).
  private mutating func keepFrame(always: Bool = false) {
    guard keepsFrames else { return }
    let grid = snapshot().grid
    guard always || frames.last?.grid != grid else { return }
    frames.append(Frame(time: clock, grid: grid))
  }

  /// The virtual time since the start.
  package var now: Duration { clock }

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
    advance(by: Self.keyInterval)
  }

  /// Sends one event to the console (a URL from outside, a cold start) and carries out its
  /// effects on the virtual clock.
  package mutating func send(_ event: ShellEvent) {
    run(console.send(event))
  }

  /// Lets virtual time pass: delayed work that comes due finishes, in order, each at its due
  /// time (so work it starts is timed from then, and one long wait equals several short ones).
  /// Returns whether any work came due.
  @discardableResult
  package mutating func advance(by duration: Duration) -> Bool {
    let end = clock + duration
    var fired = false
    while let due = scheduled.nextDue, due <= end {
      clock = max(clock, due)
      guard let event = scheduled.popDue(now: clock) else { break }
      run(console.send(event))
      fired = true
    }
    clock = end
    return fired
  }

  /// Runs effects: schedules and cancels delayed work on the virtual clock, and reloads.
  private mutating func run(_ effects: [Effect]) {
    scheduled.apply(effects, now: clock, adding: +)
    guard effects.contains(.reload) else { return }
    if let reloadTable {
      reloadTable(&console)
    } else {
      console.refuseTable("reloading is not available here")
    }
  }
}
