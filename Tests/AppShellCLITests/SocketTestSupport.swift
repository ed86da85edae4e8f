import Foundation
import Platform
import Testing

// Helpers of the socket integration tests (SocketTests.swift, SocketProcessTests.swift).

// MARK: - Helpers

/// The package root, from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// `value` as canonical JSON text (sorted keys), so two parsed objects compare exactly.
func canonical(_ value: Any?) throws -> String {
  let value = try #require(value, "no value to compare")
  let data = try JSONSerialization.data(
    withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
  return String(decoding: data, as: UTF8.self)
}

/// A reply line parsed into its object.
func parseReply(_ line: String) throws -> [String: Any] {
  let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
  return try #require(object as? [String: Any], "not a JSON object: \(line)")
}

/// The `log` member of a state reply.
func logItems(_ reply: [String: Any]) throws -> [[String: Any]] {
  try #require(reply["log"] as? [[String: Any]], "the state reply has no \"log\" array")
}

/// The `state` member of a state reply.
func navigationState(_ reply: [String: Any]) throws -> [String: Any] {
  try #require(reply["state"] as? [String: Any], "the state reply has no \"state\" object")
}

/// The file's metadata, not following a symbolic link.
func fileStatus(_ path: String) -> stat? {
  var info = stat()
  return lstat(path, &info) == 0 ? info : nil
}

/// Whether `descriptor` has something to read (or its end) right now.
func isReadable(_ descriptor: Int32) -> Bool {
  var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
  return poll(&poller, 1, 0) > 0
}

/// Writes `text` to `path`.
func writeFile(_ path: String, _ text: String) throws {
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// The shipped route table, parsed.
func shippedRoutesJSON() throws -> [String: Any] {
  let data = try Data(contentsOf: packageRoot.appendingPathComponent("Screens/routes.json"))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A second `appshell --headless` with the same environment (so the same socket path) as an
/// app already running; killed when dropped.
final class SecondApp {
  let pid: pid_t
  private var output: Int32
  private var ended = false
  /// The first line it printed.
  private(set) var firstLine = ""

  init(beside app: HeadlessApp) throws {
    let binary = try #require(HeadlessApp.executable, "build appshell first (swift build)")
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw HeadlessError("pipe failed") }
    output = ends[0]
    pid = try ChildProcess.spawn(
      binary, ["appshell", "--headless"], environment: app.environment, stdout: ends[1],
      stderr: ends[1])
    close(ends[1])
    var text: [UInt8] = []
    var byte: UInt8 = 0
    while !text.contains(0x0A) {
      var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, HeadlessApp.timeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0, read(output, &byte, 1) == 1 else { break }
      text.append(byte)
    }
    firstLine = String(decoding: text, as: UTF8.self)
  }

  /// Waits for it to end by itself and returns the exit status.
  func waitForEnd() -> Int32 {
    ended = true
    return ChildProcess.wait(pid)
  }

  /// Sends `signal`, waits for the end and returns the exit status (128+N when killed).
  func stop(signal: Int32 = SIGTERM) -> Int32 {
    kill(pid, signal)
    ended = true
    return ChildProcess.wait(pid)
  }

  deinit {
    if !ended { _ = stop(signal: SIGKILL) }
    close(output)
  }
}

/// A listener that is not an appshell, in a thread: it accepts one connection, keeps what it
/// receives and answers like an app.
final class StrangerListener: @unchecked Sendable {
  private let listener: Int32
  private let wake: (read: Int32, write: Int32)
  private let lock = NSLock()
  private var bytes: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)

  init(at path: String) throws {
    let listener = Sockets.stream(family: AF_UNIX)
    let address = try #require(Sockets.unixAddress(Array(path.utf8)), "\(path) is too long")
    let bound = address.withGenericPointer { bind(listener, $0, $1) }
    guard bound == 0, listen(listener, 4) == 0, chmod(path, 0o777) == 0 else {
      close(listener)
      throw HeadlessError("cannot listen on \(path): \(String(cString: strerror(errno)))")
    }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw HeadlessError("pipe failed") }
    self.listener = listener
    wake = (ends[0], ends[1])
    Thread.detachNewThread { [self] in
      serve()
      done.signal()
    }
  }

  private func serve() {
    var pollers = [
      pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
    ]
    guard poll(&pollers, 2, HeadlessApp.timeoutMilliseconds) > 0,
      pollers[0].revents & Int16(POLLIN) != 0
    else { return }
    let connection = Sockets.accept(listener)
    guard connection >= 0 else { return }
    defer { close(connection) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    var received: [UInt8] = []
    while !received.contains(0x0A) {
      var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, 5_000) > 0 else { break }
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { break }
      received += buffer[0..<count]
    }
    lock.withLock { bytes = received }
    let reply = Array(#"{"v":1,"ok":true,"outcome":"a stranger got it"}"#.utf8) + [0x0A]
    _ = reply.withUnsafeBytes { Sockets.send(connection, $0) }
  }

  /// Stops listening and returns what the stranger received.
  func finish() -> String {
    var byte: UInt8 = 1
    _ = write(wake.write, &byte, 1)
    done.wait()
    close(listener)
    close(wake.read)
    close(wake.write)
    return String(decoding: lock.withLock { bytes }, as: UTF8.self)
  }
}
