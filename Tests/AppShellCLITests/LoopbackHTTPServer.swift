import Foundation
import Platform

// A minimal HTTP/1.1 server on 127.0.0.1 for the remote route-table tests.
//
// It listens on an ephemeral port (bound to port 0; `getsockname` says which) and serves, from
// a background thread, one connection at a time: a `GET` of a path in its file dictionary gets
// `200` with the bytes, any other path `404`; every response has a `Content-Length` and
// `Connection: close`, and the connection is closed after it (a query is kept in the log of
// request targets but plays no part in finding the file). The files can be changed while
// it runs, and it counts the requests for each path. `stop()` ends the thread and closes the
// listening socket, so later connections are refused, as when a server goes away.

/// An HTTP server on the loopback interface serving a dictionary of path -> bytes.
final class LoopbackHTTPServer: Sendable {
  /// The port it listens on.
  let port: UInt16
  private let core: Core

  /// Starts listening on 127.0.0.1 with a port the system chooses, serving `files`.
  init(files: [String: [UInt8]] = [:]) throws {
    // Close-on-exec, so the apps the tests start do not keep it open after `stop()`.
    guard let (listener, port) = Sockets.loopbackListener(backlog: 64) else {
      throw HeadlessError("listening on 127.0.0.1:0: \(String(cString: strerror(errno)))")
    }
    self.port = port
    var wake: [Int32] = [0, 0]
    guard pipe(&wake) == 0 else {
      close(listener)
      throw HeadlessError("pipe: \(String(cString: strerror(errno)))")
    }
    Descriptors.setCloseOnExec(wake[0])
    Descriptors.setCloseOnExec(wake[1])
    core = Core(listener: listener, wakeRead: wake[0], wakeWrite: wake[1], files: files)
    let core = core
    let thread = Thread { core.serve() }
    thread.name = "LoopbackHTTPServer :\(port)"
    thread.start()
  }

  deinit { stop() }

  /// `http://127.0.0.1:PORT` followed by `path`.
  func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

  /// The bytes served at `path` (nil: 404).
  subscript(path: String) -> [UInt8]? {
    get { core.withLock { $0.files[path] } }
    set { core.withLock { $0.files[path] = newValue } }
  }

  /// How many requests for `path` (the query left out) were received so far.
  func requests(_ path: String) -> Int {
    core.withLock { $0.counts[path, default: 0] }
  }

  /// The request targets (path and query) received so far, oldest first.
  var targets: [String] { core.withLock { $0.targets } }

  /// Stops serving and closes the listening socket; later connections are refused. Waits
  /// for the connection being answered, if any, to be done.
  func stop() { core.stop() }
}

/// The listening socket, the files and the counts, shared with the serving thread.
private final class Core: @unchecked Sendable {
  /// What the lock guards.
  struct Shared {
    var files: [String: [UInt8]]
    var counts: [String: Int] = [:]
    var targets: [String] = []
    var stopped = false
  }

  private let listener: Int32
  private let wakeRead: Int32
  private let wakeWrite: Int32
  private let lock = NSLock()
  private var shared: Shared
  private let finished = DispatchSemaphore(value: 0)
  /// How long a client may take to send its request.
  private static let requestTimeoutMilliseconds: Int32 = 10_000

  init(listener: Int32, wakeRead: Int32, wakeWrite: Int32, files: [String: [UInt8]]) {
    self.listener = listener
    self.wakeRead = wakeRead
    self.wakeWrite = wakeWrite
    shared = Shared(files: files)
  }

  func withLock<T>(_ body: (inout Shared) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&shared)
  }

  func stop() {
    let already = withLock { shared -> Bool in
      defer { shared.stopped = true }
      return shared.stopped
    }
    guard !already else { return }
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
    finished.wait()
    close(listener)
    close(wakeRead)
    close(wakeWrite)
  }

  /// The serving thread: accepts and answers connections until woken by `stop`.
  func serve() {
    defer { finished.signal() }
    while true {
      var descriptors = [
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&descriptors, 2, -1)
      if ready < 0 {
        if errno == EINTR { continue }
        return
      }
      if descriptors[1].revents != 0 { return }
      guard descriptors[0].revents & Int16(POLLIN) != 0 else { continue }
      let client = Sockets.accept(listener)
      guard client >= 0 else { continue }
      answer(client)
      close(client)
    }
  }

  /// Reads one request on `client` and writes the response.
  private func answer(_ client: Int32) {
    guard let head = readHead(client) else { return }
    let requestLine = head.split(separator: "\r\n", omittingEmptySubsequences: false).first ?? ""
    let parts = requestLine.split(separator: " ")
    guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else {
      respond(client, status: "400 Bad Request", body: Array("bad request\n".utf8))
      return
    }
    let method = String(parts[0])
    let target = String(parts[1])
    let path = String(target.split(separator: "?", omittingEmptySubsequences: false)[0])
    let body = withLock { shared -> [UInt8]? in
      shared.counts[path, default: 0] += 1
      shared.targets.append(target)
      return shared.files[path]
    }
    guard method == "GET" || method == "HEAD" else {
      respond(client, status: "405 Method Not Allowed", body: Array("GET only\n".utf8))
      return
    }
    if let body {
      respond(client, status: "200 OK", body: body, includeBody: method == "GET")
    } else {
      respond(client, status: "404 Not Found", body: Array("not found\n".utf8))
    }
  }

  /// The request head (up to the blank line) as text; nil when the client sends none in time.
  private func readHead(_ client: Int32) -> String? {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let end = Array("\r\n\r\n".utf8)
    while received.count < 65_536 {
      var poller = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, Self.requestTimeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { return nil }
      let count = recv(client, &buffer, buffer.count, 0)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return nil }
      received += buffer[0..<count]
      if let range = received.firstRange(of: end) {
        return String(decoding: received[..<range.lowerBound], as: UTF8.self)
      }
    }
    return nil
  }

  /// Writes a whole response, then closes the sending side.
  private func respond(_ client: Int32, status: String, body: [UInt8], includeBody: Bool = true) {
    let head =
      "HTTP/1.1 \(status)\r\nContent-Type: application/octet-stream\r\n"
      + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(head.utf8) + (includeBody ? body : [])
    var offset = 0
    while offset < bytes.count {
      let sent = bytes[offset...].withUnsafeBytes { Sockets.send(client, $0) }
      if sent < 0 && errno == EINTR { continue }
      guard sent > 0 else { return }
      offset += sent
    }
    shutdown(client, Int32(SHUT_WR))
  }
}
