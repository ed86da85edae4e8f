import Foundation
import Glibc
import Testing

// Starting the real `appshell --headless` for socket and remote-table tests.
//
// Each app gets its own XDG_RUNTIME_DIR (so its socket is its own) and XDG_CACHE_HOME (so its
// table cache is its own) under a fresh temporary directory. The app prints one line,
// `appshell: headless, listening on PATH`, once its socket is bound; `start` waits for that
// line with poll() and a timeout, never a sleep. Clients are the real `appshell openurl`,
// `push`, `state` and `reload` commands, run as child processes with the same environment.

/// A headless app in a child process, with its private runtime and cache directories.
final class HeadlessApp {
  /// The temporary directory holding `runtime/` and `cache/`.
  let root: String
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
  static var executable: String? { builtAppshellBinary() }

  /// A runtime and cache directory of its own (made, with mode 0700, unless `makeRuntime` is
  /// false), but no app yet.
  init(makeRuntime: Bool = true) throws {
    let unique = UUID().uuidString.prefix(8).lowercased()
    root =
      FileManager.default.temporaryDirectory.appendingPathComponent("appshell-h-\(unique)")
      .path
    try FileManager.default.createDirectory(
      atPath: root + "/cache", withIntermediateDirectories: true)
    if makeRuntime {
      try FileManager.default.createDirectory(
        atPath: root + "/runtime", withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = root + "/runtime"
    environment["XDG_CACHE_HOME"] = root + "/cache"
    environment["LC_ALL"] = "C.UTF-8"
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
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    output = ends[0]
    pid = try spawn(
      binary, ["appshell", "--headless"] + arguments, environment: environment,
      stdout: ends[1])
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
    let status = exited ?? 0
    let signalNumber = status & 0x7F
    return signalNumber == 0 ? (status >> 8) & 0xFF : 128 + signalNumber
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
      // MSG_NOSIGNAL: the app may close early on an oversized message, which must not raise
      // SIGPIPE in the test process.
      let written = bytes[offset...].withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written <= 0 { break }
      offset += written
    }
    if closeWriting { shutdown(descriptor, Int32(SHUT_WR)) }
    return try readReply(descriptor)
  }

  /// Connects a hand-made client to the app's socket; the caller closes the descriptor.
  func connectRaw() throws -> Int32 {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw HeadlessError("socket failed") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = Array(socketPath.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.enumerated() { raw[index] = byte }
    }
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard connected == 0 else {
      let reason = String(cString: strerror(errno))
      close(descriptor)
      throw HeadlessError("connect failed: \(reason)")
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
    try? FileManager.default.removeItem(atPath: root)
  }
}

/// What a finished child process did.
struct ProcessResult {
  /// The exit status (128+N when killed by signal N).
  var status: Int32
  /// Standard output.
  var stdout: String
  /// Standard error.
  var stderr: String
}

/// A test-harness failure, with what was seen.
struct HeadlessError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// Runs a program to the end with `stdin` (or /dev/null) and returns what it did.
func runProcess(
  _ path: String, _ arguments: [String], environment: [String: String], stdin: [UInt8]? = nil
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  process.environment = environment
  let out = Pipe()
  let err = Pipe()
  let input = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = stdin == nil ? FileHandle.nullDevice : input
  try process.run()
  if let stdin {
    input.fileHandleForWriting.write(Data(stdin))
    try input.fileHandleForWriting.close()
  }
  // Read both pipes to the end before waiting, so a large output cannot block the child.
  let errData = DispatchQueue(label: "stderr")
  nonisolated(unsafe) var errBytes = Data()
  let group = DispatchGroup()
  group.enter()
  errData.async {
    errBytes = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outBytes = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  let status =
    process.terminationReason == .uncaughtSignal
    ? 128 + process.terminationStatus : process.terminationStatus
  return ProcessResult(
    status: status, stdout: String(decoding: outBytes, as: UTF8.self),
    stderr: String(decoding: errBytes, as: UTF8.self))
}

/// Starts a program with an empty signal mask and default signal handlers (test threads block
/// signals, and `Foundation.Process` children would inherit that), standard input from
/// /dev/null and standard output and error on `stdout` and `stderr` (default: `stdout`);
/// returns its process id.
func spawn(
  _ path: String, _ arguments: [String], environment: [String: String], stdout: Int32,
  stderr: Int32? = nil
) throws -> pid_t {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
  posix_spawn_file_actions_adddup2(&actions, stdout, 1)
  posix_spawn_file_actions_adddup2(&actions, stderr ?? stdout, 2)
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var none = sigset_t()
  sigemptyset(&none)
  posix_spawnattr_setsigmask(&attributes, &none)
  var all = sigset_t()
  sigfillset(&all)
  posix_spawnattr_setsigdefault(&attributes, &all)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  let argv = arguments.map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid = pid_t()
  let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
  guard spawned == 0 else {
    throw HeadlessError("cannot start \(path): \(String(cString: strerror(spawned)))")
  }
  return pid
}

/// The built `appshell` binary: next to the test bundle, else in the package's `.build/debug`.
func builtAppshellBinary() -> String? {
  var candidates: [String] = []
  if let bundle = Bundle.main.executableURL {
    candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("appshell").path)
  }
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  candidates.append(root.appendingPathComponent(".build/debug/appshell").path)
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}
