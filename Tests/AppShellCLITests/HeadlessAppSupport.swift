import Foundation
import Platform
import TestSupport
import Testing

// Starting the real `appshell --headless` for socket and remote-table tests.
//
// Each app gets its own XDG_RUNTIME_DIR (so its socket is its own), XDG_CACHE_HOME (so its
// table cache is its own) and HOME (``PrivateDirectories``). The app prints one line,
// `appshell: headless, listening on PATH`, once its socket is bound; `start` waits for that
// line with poll() and a timeout, never a sleep. Clients are the real `appshell openurl`,
// `push`, `state` and `reload` commands, run as child processes with the same environment.

/// A headless app in a child process, with its private runtime, cache and home directories.
final class HeadlessApp {
  /// The app's own directories.
  let directories: PrivateDirectories
  /// The temporary directory holding `runtime/`, `cache/` and `home/`.
  var root: String { directories.root }
  /// The environment of the app and of every client command.
  let environment: [String: String]
  /// The app's process id.
  private(set) var pid: pid_t = 0
  private var output: Int32 = -1
  private var exited: Int32?
  /// What the app printed on standard output and standard error so far.
  private(set) var transcript = ""

  /// How long to wait for the app to start listening, or to end.
  static let timeoutMilliseconds: Int32 = 30_000

  /// The built `appshell` binary.
  static var executable: String? { builtExecutable("appshell") }

  /// Directories of its own (the runtime directory made, with mode 0700, unless
  /// `makeRuntime` is false), but no app yet.
  init(makeRuntime: Bool = true) throws {
    directories = try PrivateDirectories(makeRuntime: makeRuntime)
    var environment = directories.environment
    environment["LC_ALL"] = utf8Locale
    self.environment = environment
  }

  /// The socket the app listens on.
  var socketPath: String { root + "/runtime/appshell/app.sock" }

  /// Starts `appshell --headless ARGUMENTS` and waits until it listens (or throws with what it
  /// printed when it does not).
  func start(_ arguments: [String] = []) throws {
    let binary = try #require(Self.executable, "build appshell first (swift build)")
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw HeadlessError("pipe failed") }
    // Close-on-exec, so apps started at the same moment do not hold each other's pipes (the
    // child's own copies are made by dup2, which clears the flag).
    for end in ends { Descriptors.setCloseOnExec(end) }
    output = ends[0]
    pid = try ChildProcess.spawn(
      binary, ["appshell", "--headless"] + arguments, environment: environment,
      stdout: ends[1], stderr: ends[1])
    close(ends[1])
    exited = nil
    transcript = ""
    guard try readUntil({ $0.contains("listening on") || $0.contains("not listening") }) else {
      throw HeadlessError("appshell did not start listening; it printed:\n\(transcript)")
    }
  }

  /// Reads the app's output until `done` holds for all of it; false when the app ended or
  /// the timeout passed first.
  private func readUntil(_ done: (String) -> Bool) throws -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !done(transcript) {
      var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Self.timeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return false }
      let count = read(output, &buffer, buffer.count)
      guard count > 0 else { return false }
      transcript += String(decoding: buffer[0..<count], as: UTF8.self)
    }
    return true
  }

  /// Whether the app is still running.
  var isRunning: Bool {
    guard exited == nil, pid > 0 else { return false }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid {
      exited = status
      return false
    }
    return true
  }

  /// Waits for the app to end by itself; returns its exit status.
  func waitForEnd() -> Int32 {
    guard pid > 0 else { return -1 }
    if exited == nil {
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      exited = status
    }
    return stop()
  }

  /// Sends `signal` and waits for the app to end; returns its exit status (128+N if killed).
  @discardableResult
  func stop(signal: Int32 = SIGTERM) -> Int32 {
    guard pid > 0 else { return -1 }
    if exited == nil {
      kill(pid, signal)
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      exited = status
    }
    if output >= 0 {
      _ = try? readUntil { _ in false }  // what it printed on the way out
      close(output)
      output = -1
    }
    return ChildProcess.exitStatus(exited ?? 0)
  }

  /// Runs `appshell ARGUMENTS` as a client with the app's environment.
  func client(_ arguments: [String], stdin: [UInt8]? = nil) throws -> ProcessResult {
    let binary = try #require(Self.executable, "build appshell first (swift build)")
    return try runProcess(binary, arguments, environment: environment, stdin: stdin)
  }

  /// `appshell state`, parsed: the reply object.
  func state() throws -> [String: Any] {
    let result = try client(["state"])
    guard result.status == 0 else {
      throw HeadlessError("appshell state exited \(result.status): \(result.stderr)")
    }
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(object as? [String: Any])
  }

  /// The screens of the selected tab's stack (or the top modal's), top last.
  func stackScreens() throws -> [String] {
    let reply = try state()
    let state = try #require(reply["state"] as? [String: Any])
    let stack: [[String: Any]]
    if let modals = state["modals"] as? [[String: Any]], let top = modals.last {
      stack = try #require(top["stack"] as? [[String: Any]])
    } else {
      let tabs = try #require(state["tabs"] as? [[String: Any]])
      let index = try #require(state["tab"] as? Int)
      stack = try #require(tabs[index]["stack"] as? [[String: Any]])
    }
    return stack.compactMap { $0["screen"] as? String }
  }

  /// Sends raw bytes over the socket (a hand-made client) and returns the reply line.
  func sendRaw(_ bytes: [UInt8], closeWriting: Bool = true) throws -> String {
    let descriptor = try connectRaw()
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
      // The app may close early on an oversized message, which must not raise SIGPIPE in the
      // test process.
      let written = bytes[offset...].withUnsafeBytes { Sockets.send(descriptor, $0) }
      if written <= 0 { break }
      offset += written
    }
    if closeWriting { shutdown(descriptor, Int32(SHUT_WR)) }
    return try readReply(descriptor)
  }

  /// Connects a hand-made client to the app's socket; the caller closes the descriptor.
  func connectRaw() throws -> Int32 {
    let descriptor = Sockets.connect(toUnixSocket: socketPath)
    guard descriptor >= 0 else {
      throw HeadlessError("connect failed: \(String(cString: strerror(errno)))")
    }
    return descriptor
  }

  /// Reads from a hand-made client's connection until the app closes it (or resets it after
  /// its reply); throws when nothing comes within `timeoutMilliseconds`.
  func readReply(
    _ descriptor: Int32, timeoutMilliseconds: Int32 = HeadlessApp.timeoutMilliseconds
  ) throws
    -> String
  {
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, timeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else {
        throw HeadlessError("no reply within \(timeoutMilliseconds) ms")
      }
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { break }
      reply += buffer[0..<count]
    }
    return String(decoding: reply, as: UTF8.self)
  }

  deinit {
    if isRunning { stop(signal: SIGKILL) }
    if output >= 0 { close(output) }
  }
}

/// A test-harness failure, with what was seen.
struct HeadlessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
