import Foundation
import Platform
import TestSupport
import Testing

// The terminal is restored on every way out of the ncurses front end (README, "Exits"): Ctrl-C, SIGTERM, SIGINT, SIGQUIT, a fatal error in the app and standard input closing. SIGHUP
// is not an exit here (it reloads the route table; see TmuxRemoteTests).
//
// Each exit path runs the real `appshell` in a tmux pane (``TmuxSession``) under a small
// `/bin/sh` wrapper (dash: no readline, so the shell itself never touches the terminal
// settings). The wrapper writes the pane's `stty -g` to a file, runs the app (its process id
// to a file, via `exec`), writes the app's exit status and `stty -g` again, then writes to a
// "done" FIFO. The test waits for the first frame (the frame FIFO), checks with
// `stty -F PANE_TTY -g` (`-f` on macOS) that the app really changed the settings (raw mode), makes it exit
// the given way, waits on the "done" FIFO (poll with a timeout, no sleeps) and compares.
//
// Standard input closing: the app refuses to start unless fd 0 is a terminal, so a FIFO or a
// pipe cannot be its stdin, and the pane's own tty never reads end-of-file while the pane is
// alive. So the app's stdin is a second pseudo-terminal whose master end the test holds, and
// its stdout (where ncurses draws and which it puts in raw mode) is still the pane. Closing
// the master hangs the second terminal up: the app's read on fd 0 returns 0, as when a real
// terminal's input goes away. The pane's settings must then be as before.

@Suite struct TerminalRestoreTests {
  /// One way for the app to end, and the exit status it should end with.
  enum ExitPath: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case ctrlC, sigterm, sigint, sigquit, fatalError, stdinClosed
    /// A fatal error while standard input is another terminal: the crash handler must put
    /// back the settings of the terminal ncurses drew on (standard output), not only stdin's.
    case fatalErrorWithInputElsewhere

    var testDescription: String { rawValue }

    /// The character that makes the app call fatalError (its `APPSHELL_TEST_CRASH_KEY`).
    static let crashKey = "X"

    /// Whether `status` (from the shell: 128+N when killed by signal N) is the expected one.
    func expects(_ status: Int32) -> Bool {
      switch self {
      case .ctrlC, .stdinClosed: return status == 0
      case .sigterm: return status == 128 + SIGTERM
      case .sigint: return status == 128 + SIGINT
      case .sigquit: return status == 128 + SIGQUIT
      // fatalError traps: ud2 (SIGILL) on x86_64, brk (SIGTRAP) on arm64.
      case .fatalError, .fatalErrorWithInputElsewhere:
        return [128 + SIGILL, 128 + SIGTRAP].contains(status)
      }
    }

    /// What `expects` accepts, for messages.
    var expectedStatus: String {
      switch self {
      case .ctrlC, .stdinClosed: return "0"
      case .sigterm: return "143 (SIGTERM)"
      case .sigint: return "130 (SIGINT)"
      case .sigquit: return "131 (SIGQUIT)"
      case .fatalError, .fatalErrorWithInputElsewhere:
        return "132 or 133 (killed by SIGILL or SIGTRAP)"
      }
    }
  }

  @Test(arguments: ExitPath.allCases)
  func theTerminalIsRestored(_ path: ExitPath) throws {
    let run = try RestoreRun(path)
    defer { run.close() }
    let before = try run.file("before")
    try #require(!before.isEmpty, "the wrapper recorded no settings before the app started")
    let running = try run.paneSettings()
    #expect(
      running != before,
      "the terminal settings did not change while appshell ran (never in raw mode?): \(before)")

    switch path {
    case .ctrlC:
      try run.session.run(["send-keys", "-t", "agree", "C-c"])
    case .sigterm, .sigint, .sigquit:
      let signal = [.sigterm: SIGTERM, .sigint: SIGINT][path] ?? SIGQUIT
      let pid = try #require(pid_t(try run.file("pid")), "no app pid from the wrapper")
      #expect(kill(pid, signal) == 0, "kill(\(pid), \(signal)) failed")
    case .fatalError:
      try run.session.run(["send-keys", "-t", "agree", "-l", ExitPath.crashKey])
    case .stdinClosed:
      try run.closeStandardInput()
    case .fatalErrorWithInputElsewhere:
      try run.typeOnStandardInput(ExitPath.crashKey)
    }
    try run.waitUntilDone(after: path.rawValue)

    let status = try #require(Int32(try run.file("status")), "no exit status from the wrapper")
    let pane = (try? run.session.capture()) ?? "(capture failed)"
    #expect(
      path.expects(status),
      "appshell exited \(status), expected \(path.expectedStatus); the pane shows:\n\(pane)")
    let after = try run.file("after")
    #expect(
      after == before,
      """
      the terminal settings after \(path.rawValue) differ from before the app started
      before: \(before)
      after:  \(after)
      (while running: \(running))
      """)
  }
}

/// One run of the app in a tmux pane under the recording wrapper, with its temporary
/// directory (the wrapper, its output files, the "done" FIFO) and, for `stdinClosed`, the
/// second terminal the app reads. The session gives the app private runtime, cache and home
/// directories.
private final class RestoreRun {
  let session: TmuxSession
  /// Removed with everything in it when this run is dropped.
  private let scratch: TemporaryDirectory
  private var directory: URL { scratch.url }
  private var doneDescriptor: Int32
  private var stdinMaster: Int32
  private var closed = false

  /// How long to wait for the wrapper to finish after the app was told to exit.
  static let timeoutMilliseconds = 10_000

  /// Writes the wrapper, starts it in a tmux session and waits for the app's first frame.
  init(_ path: TerminalRestoreTests.ExitPath) throws {
    let tmux = try #require(TmuxSession.tmuxExecutable, TmuxSession.missing)
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    let scratch = try TemporaryDirectory("appshell-restore")
    let directory = scratch.url
    var done: Int32 = -1
    var master: Int32 = -1
    do {
      let fifo = directory.path + "/done"
      guard mkfifo(fifo, 0o600) == 0 else {
        throw TmuxError("mkfifo \(fifo) failed: \(String(cString: strerror(errno)))")
      }
      // Read end first, non-blocking, so the wrapper's `echo > done` finds a reader.
      done = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
      guard done >= 0 else {
        throw TmuxError("opening \(fifo) failed: \(String(cString: strerror(errno)))")
      }
      done = Self.movedHigh(done)
      var standardInput: String?
      if path == .stdinClosed || path == .fatalErrorWithInputElsewhere {
        (master, standardInput) = try Self.openTerminalPair()
      }
      let wrapper = directory.path + "/run.sh"
      try Data(Self.wrapper(in: directory.path, appshell: appshell, stdin: standardInput).utf8)
        .write(to: URL(fileURLWithPath: wrapper))
      var environment: [String: String] = [:]
      if path == .fatalError || path == .fatalErrorWithInputElsewhere {
        environment["APPSHELL_TEST_CRASH_KEY"] = TerminalRestoreTests.ExitPath.crashKey
      }
      // TmuxSession runs `/bin/sh WRAPPER --screens SCREENS`; the wrapper passes them to the app.
      session = try TmuxSession(
        tmux: tmux, appshell: wrapper, size: TerminalSize(columns: 80, rows: 24),
        environment: environment, launcher: ["/bin/sh"])
    } catch {
      for descriptor in [done, master] where descriptor >= 0 { Descriptors.close(descriptor) }
      throw error
    }
    self.scratch = scratch
    doneDescriptor = done
    stdinMaster = master
  }

  /// The wrapper script: records `stty -g` before and after the app, its pid and its status.
  private static func wrapper(in directory: String, appshell: String, stdin: String?) -> String {
    let dir = quoted(directory)
    let input = stdin.map { " < \(quoted($0))" } ?? ""
    return """
      #!/bin/sh
      # TerminalRestoreTests: the pane's settings around one run of appshell.
      ulimit -c 0
      stty -g > \(dir)/before
      sh -c 'echo $$ > "$0"; exec "$@"' \(dir)/pid \(quoted(appshell)) "$@"\(input)
      echo $? > \(dir)/status
      stty -g > \(dir)/after
      echo done > \(dir)/done

      """
  }

  /// `text` in single quotes for the shell.
  private static func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// A new pseudo-terminal: its master descriptor (close-on-exec, so no child holds it and
  /// closing it really hangs the terminal up) and the path of its other end, set to raw mode
  /// so a single byte written to the master reaches the app at once.
  private static func openTerminalPair() throws -> (Int32, String) {
    // Swift's C library module leaves out <stdlib.h>'s pty calls on Linux (they need
    // _XOPEN_SOURCE), so they are looked up by name.
    typealias Unlock = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>, Int) -> Int32
    let grant = try libc("grantpt", as: Unlock.self)
    let unlock = try libc("unlockpt", as: Unlock.self)
    let ptsname = try libc("ptsname_r", as: Name.self)
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard master >= 0 else { throw TmuxError("opening /dev/ptmx failed: \(errno)") }
    var name = [CChar](repeating: 0, count: 128)
    var settings = termios()
    guard grant(master) == 0, unlock(master) == 0, ptsname(master, &name, name.count) == 0,
      tcgetattr(master, &settings) == 0
    else {
      Descriptors.close(master)
      throw TmuxError("setting up a pseudo-terminal failed: \(errno)")
    }
    cfmakeraw(&settings)
    tcsetattr(master, TCSANOW, &settings)  // on Linux this sets the other end's settings
    let path = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return (Self.movedHigh(master), String(decoding: path, as: UTF8.self))
  }

  /// `descriptor` moved to a number far above the ones in use (close-on-exec kept). Suites run
  /// in parallel in this process, and a stray second close elsewhere of a freshly freed low
  /// number would hang our terminal up before the app drew its first frame (the likely cause of
  /// a failure seen once in CI, where the app ended before drawing); numbers are handed out
  /// lowest first, so a high one is not reused and closed by anyone else.
  static func movedHigh(_ descriptor: Int32) -> Int32 {
    let high = fcntl(descriptor, F_DUPFD_CLOEXEC, 900)
    guard high >= 0 else { return descriptor }
    Descriptors.close(descriptor)
    return high
  }

  /// The C library function `name`, looked up at run time.
  private static func libc<Function>(_ name: String, as type: Function.Type) throws -> Function {
    guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, name) else {
      throw TmuxError("\(name) not found in the C library")
    }
    return unsafeBitCast(symbol, to: type)
  }

  /// Types `text` on the app's own standard input (the second terminal), without waiting.
  func typeOnStandardInput(_ text: String) throws {
    let bytes = Array(text.utf8)
    guard write(stdinMaster, bytes, bytes.count) == bytes.count else {
      throw TmuxError("writing to the pty failed")
    }
  }

  /// Types a key on the app's own standard input (checking it reads it: a frame follows),
  /// then closes the master end so the app reads end-of-file.
  func closeStandardInput() throws {
    session.drainFrames()
    var key: UInt8 = 0x61  // "a"
    guard write(stdinMaster, &key, 1) == 1 else { throw TmuxError("writing to the pty failed") }
    try session.waitForFrame(after: "typing on the app's standard input")
    Descriptors.close(stdinMaster)
    stdinMaster = -1
  }

  /// The pane's current settings, as `stty -F PANE_TTY -g` prints them.
  func paneSettings() throws -> String {
    let tty = try session.run(["display-message", "-p", "-t", "agree", "#{pane_tty}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    // GNU stty names the terminal with -F, BSD's (macOS) with -f.
    #if os(Linux)
      let option = "-F"
    #else
      let option = "-f"
    #endif
    let result = try runProcess(
      "/usr/bin/env", ["stty", option, tty, "-g"],
      environment: ProcessInfo.processInfo.environment)
    guard result.status == 0 else {
      throw TmuxError("stty \(option) \(tty) -g exited \(result.status): \(result.stderr)")
    }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A file the wrapper wrote, trimmed; throws when it is missing.
  func file(_ name: String) throws -> String {
    let path = directory.path + "/" + name
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw TmuxError("the wrapper did not write \(name)")
    }
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Waits until the wrapper writes to the "done" FIFO (the app ended and the settings after
  /// it are recorded); throws with the pane's text after `timeoutMilliseconds`.
  func waitUntilDone(after what: String) throws {
    let clock = ContinuousClock()
    let deadline = clock.now + .milliseconds(Self.timeoutMilliseconds)
    var buffer = [UInt8](repeating: 0, count: 64)
    while clock.now < deadline {
      let left = clock.now.duration(to: deadline).components
      var poller = pollfd(fd: doneDescriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Int32(left.seconds * 1000) + 1)
      if ready > 0 && read(doneDescriptor, &buffer, buffer.count) > 0 { return }
      if ready < 0 && errno != EINTR { break }
    }
    throw TmuxError(
      "appshell did not end within \(Self.timeoutMilliseconds) ms after \(what); the pane "
        + "shows:\n" + ((try? session.capture()) ?? "(capture failed)"))
  }

  /// Kills the app if it is still running (after a failure; SIGHUP from the closing server
  /// would only reload its table) and stops the tmux server; the directory goes with this run.
  func close() {
    guard !closed else { return }
    closed = true
    // Until the wrapper records a status it has not reaped the app, so the pid is still its.
    if (try? file("status")) == nil, let pid = pid_t((try? file("pid")) ?? "") {
      kill(pid, SIGKILL)
    }
    session.close()
    for descriptor in [doneDescriptor, stdinMaster] where descriptor >= 0 {
      Descriptors.close(descriptor)
    }
    doneDescriptor = -1
    stdinMaster = -1
  }

  deinit { close() }
}
