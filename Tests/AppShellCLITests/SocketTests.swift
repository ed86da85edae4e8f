import Foundation
import Glibc
import Testing

// Integration tests of the app's socket: a real `appshell --headless` (see HeadlessAppSupport)
// driven by the real `appshell openurl`, `push`, `state` and `reload` clients and by hand-made
// raw clients. Every test starts its own app with its own runtime directory, so they run in
// parallel. Nothing sleeps: the harness waits on the app's output and on sockets with poll().

// MARK: - Helpers

/// The package root, from this file's path.
private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// `value` as canonical JSON text (sorted keys), so two parsed objects compare exactly.
private func canonical(_ value: Any?) throws -> String {
  let value = try #require(value, "no value to compare")
  let data = try JSONSerialization.data(
    withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
  return String(decoding: data, as: UTF8.self)
}

/// A reply line parsed into its object.
private func parseReply(_ line: String) throws -> [String: Any] {
  let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
  return try #require(object as? [String: Any], "not a JSON object: \(line)")
}

/// The `log` member of a state reply.
private func logItems(_ reply: [String: Any]) throws -> [[String: Any]] {
  try #require(reply["log"] as? [[String: Any]], "the state reply has no \"log\" array")
}

/// The `state` member of a state reply.
private func navigationState(_ reply: [String: Any]) throws -> [String: Any] {
  try #require(reply["state"] as? [String: Any], "the state reply has no \"state\" object")
}

/// The file's metadata, not following a symbolic link.
private func fileStatus(_ path: String) -> stat? {
  var info = stat()
  return lstat(path, &info) == 0 ? info : nil
}

/// Whether `descriptor` has something to read (or its end) right now.
private func isReadable(_ descriptor: Int32) -> Bool {
  var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
  return poll(&poller, 1, 0) > 0
}

/// Writes `text` to `path`.
private func writeFile(_ path: String, _ text: String) throws {
  try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// The shipped route table, parsed.
private func shippedTable() throws -> [String: Any] {
  let data = try Data(contentsOf: packageRoot.appendingPathComponent("Screens/routes.json"))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A second `appshell --headless` with the same environment (so the same socket path) as an
/// app already running; killed when dropped.
private final class SecondApp {
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
    pid = try spawn(
      binary, ["appshell", "--headless"], environment: app.environment, stdout: ends[1])
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

  /// Sends `signal`, waits for the end and returns the exit status (128+N when killed).
  func stop(signal: Int32 = SIGTERM) -> Int32 {
    kill(pid, signal)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    ended = true
    let signalNumber = status & 0x7F
    return signalNumber == 0 ? (status >> 8) & 0xFF : 128 + signalNumber
  }

  deinit {
    if !ended { _ = stop(signal: SIGKILL) }
    close(output)
  }
}

/// A listener that is not an appshell, in a thread: it accepts one connection, keeps what it
/// receives and answers like an app.
private final class StrangerListener: @unchecked Sendable {
  private let listener: Int32
  private let wake: (read: Int32, write: Int32)
  private let lock = NSLock()
  private var bytes: [UInt8] = []
  private let done = DispatchSemaphore(value: 0)

  init(at path: String) throws {
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
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
    let connection = accept(listener, nil, nil)
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
    _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
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

/// The socket's integration tests (`swift test --filter SocketTests`).
@Suite("Socket")
enum SocketTests {}

extension SocketTests {
  // MARK: - openurl

  @Suite("openurl")
  struct OpenURL {
    @Test("openurl of an outside-allowed URL pushes its screen on the Home stack")
    func openURLPushes() throws {
      let app = try HeadlessApp()
      try app.start()
      #expect(try app.stackScreens() == ["home"])

      let result = try app.client(["openurl", "myapp://user/alice"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(result.stderr.isEmpty)
      #expect(result.stdout.hasSuffix("→ pushed user-profile\n"), "stdout: \(result.stdout)")
      #expect(result.stdout.filter { $0 == "\n" }.count == 1, "one line: \(result.stdout)")

      let reply = try app.state()
      let state = try navigationState(reply)
      #expect(state["tab"] as? Int == 0)
      let tabs = try #require(state["tabs"] as? [[String: Any]])
      #expect(tabs.first?["title"] as? String == "Home")
      let stack = try #require(tabs.first?["stack"] as? [[String: Any]])
      #expect(stack.compactMap { $0["screen"] as? String } == ["home", "user-profile"])
      let top = try #require(stack.last)
      #expect(try canonical(top["params"]) == #"{"username":"alice"}"#)
      #expect((state["modals"] as? [Any])?.isEmpty == true)
      #expect(state["alert"] is NSNull, "no alert: \(state["alert"] ?? "nil")")

      let entry = try #require(try logItems(reply).last)
      #expect(entry["source"] as? String == "external")
      #expect(entry["url"] as? String == "myapp://user/alice")
      #expect(result.stdout == "\(entry["outcome"] as? String ?? "?")\n", "the log's text")
    }

    /// Routes of the shipped table with `"external": false`.
    static let internalOnlyURLs = [
      "myapp://address-picker", "myapp://debug/reset", "myapp://session/sign-in",
    ]

    @Test(
      "openurl of an internal-only route is refused: stack unchanged, alert, log entry",
      arguments: internalOnlyURLs)
    func openURLRefusesInternalRoutes(url: String) throws {
      let table = try shippedTable()
      let routes = try #require(table["routes"] as? [[String: Any]])
      let route = routes.first { ($0["pattern"] as? String) == url }
      #expect(route?["external"] as? Bool == false, "the shipped table marks \(url) internal")

      let app = try HeadlessApp()
      try app.start()
      // Something on the stack first, so a reset or a presentation would show.
      #expect(try app.client(["openurl", "myapp://user/alice"]).status == 0)
      let before = try navigationState(try app.state())
      #expect(before["alert"] is NSNull)

      let result = try app.client(["openurl", url])
      // Documented: openurl exits 0 whenever the app received the URL; the outcome says refused.
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(result.stdout.contains("refused"), "stdout: \(result.stdout)")

      let reply = try app.state()
      let after = try navigationState(reply)
      for key in ["tab", "tabs", "modals"] {
        #expect(try canonical(after[key]) == canonical(before[key]), "\(key) unchanged")
      }
      #expect(try app.stackScreens() == ["home", "user-profile"])
      let alert = try #require(after["alert"] as? [String: Any], "an alert is shown")
      #expect(alert["title"] as? String == "Refused")
      #expect((alert["message"] as? String)?.contains(url) == true, "alert: \(alert)")

      let entry = try #require(try logItems(reply).last)
      #expect(entry["source"] as? String == "external")
      #expect(entry["url"] as? String == url)
      let outcome = try #require(entry["outcome"] as? String)
      // The log's text may lead with the log pane's "→ " marker.
      let bare = outcome.hasPrefix("→ ") ? String(outcome.dropFirst(2)) : outcome
      #expect(bare.hasPrefix("refused"), "outcome: \(outcome)")
    }
  }

  // MARK: - Bad messages

  /// A message a hand-made client sends, and what the error reply must say.
  struct BadMessage: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var expected: [String]

    var testDescription: String { name }

    init(_ name: String, _ bytes: [UInt8], _ expected: String...) {
      self.name = name
      self.bytes = bytes
      self.expected = expected
    }

    init(_ name: String, _ text: String, _ expected: String...) {
      self.name = name
      self.bytes = Array(text.utf8)
      self.expected = expected
    }

    static let all: [BadMessage] = [
      BadMessage("not JSON", "hello\n", "not JSON"),
      BadMessage("a JSON array", "[1,2]\n", "must be a JSON object", "array"),
      BadMessage("missing v", #"{"type":"state"}"# + "\n", #"missing protocol version "v""#),
      BadMessage("v 2", #"{"v":2,"type":"state"}"# + "\n", "unsupported protocol version 2"),
      BadMessage(
        "v as a string", #"{"v":"1","type":"state"}"# + "\n", "unsupported protocol version"),
      BadMessage("unknown type", #"{"v":1,"type":"dance"}"# + "\n", #"unknown type "dance""#),
      BadMessage("missing type", #"{"v":1}"# + "\n", #"missing "type""#),
      BadMessage(
        "unknown member", #"{"v":1,"type":"state","extra":1}"# + "\n", #"unknown member "extra""#),
      BadMessage(
        "openurl with a number url", #"{"v":1,"type":"openurl","url":42}"# + "\n",
        #""url" must be a string"#),
      BadMessage("openurl without url", #"{"v":1,"type":"openurl"}"# + "\n", #"missing "url""#),
      BadMessage(
        "push without aps", #"{"v":1,"type":"push","payload":{"url":"myapp://home"}}"# + "\n",
        "push:", "aps"),
      BadMessage(
        "70,000 bytes without a newline", [UInt8](repeating: 0x61, count: 70_000),
        "message too long"),
      BadMessage(
        "1 MiB without a newline", [UInt8](repeating: 0x20, count: 1 << 20), "message too long"),
      BadMessage(
        "a line over 65,536 bytes",
        Array(#"{"v":1,"type":"openurl","url":""#.utf8) + [UInt8](repeating: 0x61, count: 65_600)
          + Array(#""}"#.utf8) + [0x0A],
        "message too long"),
      BadMessage(
        "invalid UTF-8",
        Array(#"{"v":1,"type":"openurl","url":"myapp://user/"#.utf8) + [0xFF, 0xFE]
          + Array(#""}"#.utf8) + [0x0A],
        "UTF-8"),
      BadMessage("an empty line", "\n", "not JSON"),
      BadMessage(
        "a NUL byte in a string",
        Array(#"{"v":1,"type":"openurl","url":"myapp://user/a"#.utf8) + [0x00]
          + Array(#"b"}"#.utf8) + [0x0A],
        "not JSON"),
      BadMessage(
        "a NUL byte after the object", Array(#"{"v":1,"type":"state"}"#.utf8) + [0x00, 0x0A],
        "not JSON"),
      BadMessage("two objects on a line", #"{"v":1,"type":"state"}{"v":1}"# + "\n", "not JSON"),
      BadMessage(
        "a duplicate key", #"{"v":1,"type":"openurl","url":"a","url":"myapp://user/bob"}"# + "\n",
        "duplicate"),
      BadMessage("too deep", String(repeating: "[", count: 10_000) + "\n", "not JSON"),
    ]
  }

  @Suite("bad messages")
  struct BadMessages {
    @Test(
      "a bad message gets an error reply, is noted in the log and changes nothing",
      arguments: BadMessage.all)
    func badMessage(_ message: BadMessage) throws {
      let app = try HeadlessApp()
      try app.start()
      // Something on the stack, so a change would show.
      #expect(try app.client(["openurl", "myapp://user/alice"]).status == 0)
      let before = try app.state()

      let reply = try app.sendRaw(message.bytes)
      #expect(reply.hasPrefix(#"{"v":1,"ok":false,"error":""#), "reply: \(reply)")
      #expect(reply.hasSuffix("}\n") && reply.filter { $0 == "\n" }.count == 1, "one line")
      let object = try parseReply(reply)
      #expect(object["v"] as? Int == 1)
      #expect(object["ok"] as? Bool == false)
      #expect(object.keys.sorted() == ["error", "ok", "v"])
      let error = try #require(object["error"] as? String)
      for fragment in message.expected {
        #expect(error.contains(fragment), "error \(error) should say \(fragment)")
      }

      #expect(app.isRunning)
      let after = try app.state()
      #expect(try canonical(after["state"]) == canonical(before["state"]))
      #expect(try canonical(after["table"]) == canonical(before["table"]))
      let beforeLog = try logItems(before)
      let afterLog = try logItems(after)
      #expect(afterLog.count == beforeLog.count + 1, "one log item more: \(afterLog)")
      let note = try #require(afterLog.last)
      #expect(note["note"] as? String == "socket message refused: \(error)")
      #expect(note["problem"] as? Bool == true)

      // And the app still serves.
      let result = try app.client(["openurl", "myapp://user/bob"])
      #expect(result.status == 0 && result.stdout.contains("pushed user-profile"))
    }

    /// What a slow client sends before going quiet.
    static let slowClients = ["", #"{"v":1,"type":"openurl","#]

    @Test(
      "a silent or slow client gets the timeout error, and others are served meanwhile",
      arguments: slowClients)
    func slowClient(sends prefix: String) throws {
      let app = try HeadlessApp()
      try app.start()
      let before = try navigationState(try app.state())

      let clock = ContinuousClock()
      let started = clock.now
      let silent = try app.connectRaw()
      defer { close(silent) }
      if !prefix.isEmpty {
        let bytes = Array(prefix.utf8)
        let written = bytes.withUnsafeBytes {
          send(silent, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        #expect(written == bytes.count)
      }

      // Other clients are served while the silent one waits.
      let result = try app.client(["openurl", "myapp://user/alice"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(result.stdout.contains("pushed user-profile"))
      let raw = try parseReply(app.sendRaw(Array(#"{"v":1,"type":"state"}"#.utf8) + [0x0A]))
      #expect(raw["ok"] as? Bool == true)
      #expect(!isReadable(silent), "the silent client was answered before the others")
      let served = started.duration(to: clock.now)

      // Then the silent one gets its error reply, after the server's 2 s.
      let reply = try app.readReply(silent, timeoutMilliseconds: 15_000)
      let waited = started.duration(to: clock.now)
      #expect(waited >= .milliseconds(1_950), "answered after \(waited)")
      #expect(waited < .seconds(10), "answered after \(waited)")
      #expect(served < waited)
      #expect(reply.hasPrefix(#"{"v":1,"ok":false,"error":""#), "reply: \(reply)")
      let error = try #require(try parseReply(reply)["error"] as? String)
      #expect(error.contains("timed out"), "error: \(error)")

      #expect(app.isRunning)
      let after = try app.state()
      #expect(try app.stackScreens() == ["home", "user-profile"])
      let afterState = try navigationState(after)
      #expect(try canonical(afterState["modals"]) == canonical(before["modals"]))
      let note = try #require(try logItems(after).last)
      #expect(note["note"] as? String == "socket message refused: \(error)")
      #expect(note["problem"] as? Bool == true)
    }

    @Test("a request of exactly 65,536 bytes is read; one byte more is too long")
    func sizeLimit() throws {
      let app = try HeadlessApp()
      try app.start()
      func request(bytes: Int) -> [UInt8] {
        let head = Array(#"{"v":1,"type":"openurl","url":"myapp://nowhere?q="#.utf8)
        let tail = Array(#""}"#.utf8) + [0x0A]
        return head + [UInt8](repeating: 0x61, count: bytes - head.count - tail.count) + tail
      }
      let fits = request(bytes: 65_536)
      #expect(fits.count == 65_536)
      let accepted = try parseReply(app.sendRaw(fits))
      #expect(accepted["ok"] as? Bool == true, "reply: \(accepted)")
      let refused = try parseReply(app.sendRaw(request(bytes: 65_537)))
      #expect(refused["ok"] as? Bool == false)
      #expect((refused["error"] as? String)?.contains("message too long") == true)
      #expect(app.isRunning)
    }

    @Test("a client that connects and closes without a word changes nothing")
    func emptyConnection() throws {
      let app = try HeadlessApp()
      try app.start()
      let before = try app.state()
      #expect(try app.sendRaw([]) == "")
      let after = try app.state()
      #expect(try canonical(after["state"]) == canonical(before["state"]))
      #expect(try logItems(after).count == logItems(before).count)
    }

    @Test("a good raw request with CRLF is answered")
    func rawRequest() throws {
      let app = try HeadlessApp()
      try app.start()
      let reply = try app.sendRaw(
        Array(#"{"v":1,"type":"openurl","url":"myapp://user/carol"}"#.utf8) + [0x0D, 0x0A])
      let object = try parseReply(reply)
      #expect(object["ok"] as? Bool == true, "reply: \(reply)")
      #expect((object["outcome"] as? String)?.hasSuffix("pushed user-profile") == true)
      #expect(try app.stackScreens() == ["home", "user-profile"])

      // A last line without its newline counts when the client closes its end.
      let unterminated = try parseReply(app.sendRaw(Array(#"{"v":1,"type":"state"}"#.utf8)))
      #expect(unterminated["ok"] as? Bool == true)
      #expect(unterminated["state"] is [String: Any])
    }

    @Test("clients that hang up before their reply do not stop the app")
    func hangUps() throws {
      let app = try HeadlessApp()
      try app.start()
      let requests = [
        #"{"v":1,"type":"state"}"#, #"{"v":1,"type":"openurl","url":"myapp://user/dave"}"#,
        "not JSON", #"{"v":1,"type":"push","payload":{"aps":{"alert":"hi"}}}"#,
      ]
      for round in 0..<5 {
        for request in requests {
          let descriptor = try app.connectRaw()
          let bytes = Array(request.utf8) + [0x0A]
          let written = bytes.withUnsafeBytes {
            send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          #expect(written == bytes.count, "round \(round): \(request)")
          close(descriptor)
        }
      }
      // The app answered (or dropped) them all and still serves.
      let result = try app.client(["state"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(app.isRunning)
      #expect(try app.stackScreens() == ["home", "user-profile"])
    }
  }

  // MARK: - push

  @Suite("push")
  struct Push {
    @Test("push as JSON text, as a file and from standard input shows the banner")
    func pushShowsBanner() throws {
      let app = try HeadlessApp()
      try app.start()
      #expect(try app.state()["banner"] is NSNull)

      let text =
        #"{"aps":{"alert":{"title":"Sale","body":"Half price"},"badge":3},"url":"myapp://user/alice"}"#
      let fromText = try app.client(["push", text])
      #expect(fromText.status == 0, "stderr: \(fromText.stderr)")
      #expect(fromText.stdout == "banner shown\n")
      let first = try #require(try app.state()["banner"] as? [String: Any])
      #expect(first["title"] as? String == "Sale")
      #expect(first["body"] as? String == "Half price")
      #expect(first["url"] as? String == "myapp://user/alice")
      #expect(first.count == 3)

      let file = app.root + "/payload.json"
      try writeFile(
        file, #"{"aps":{"alert":{"title":"Order","body":"Shipped"}},"url":"myapp://orders/7"}"#)
      let fromFile = try app.client(["push", file])
      #expect(fromFile.status == 0, "stderr: \(fromFile.stderr)")
      let banner = try #require(try app.state()["banner"] as? [String: Any])
      #expect(banner["title"] as? String == "Order")
      #expect(banner["body"] as? String == "Shipped")
      #expect(banner["url"] as? String == "myapp://orders/7")

      let fromStdin = try app.client(
        ["push", "-"], stdin: Array(#"{"aps":{"alert":"Just a body"}}"#.utf8))
      #expect(fromStdin.status == 0, "stderr: \(fromStdin.stderr)")
      let last = try #require(try app.state()["banner"] as? [String: Any])
      #expect(last["title"] as? String == "")
      #expect(last["body"] as? String == "Just a body")
      #expect(last["url"] is NSNull)
      // A banner does not navigate.
      #expect(try app.stackScreens() == ["home"])
    }

    static let badPayloads: [(String, String)] = [
      (#"{"alert":"no aps"}"#, "aps"),
      (#"{"aps":{}}"#, "aps.alert"),
      (#"{"aps":{"alert":{"title":5}}}"#, "aps.alert.title"),
      (#"{"aps":{"alert":"x"},"url":5}"#, "url"),
      ("{not json", "not JSON"),
      ("/nonexistent/payload.json", "no such payload file"),
    ]

    @Test("a bad payload exits 2 with a message and nothing is sent", arguments: badPayloads)
    func badPayload(payload: String, message: String) throws {
      let app = try HeadlessApp()
      try app.start()
      let before = try app.state()
      let result = try app.client(["push", payload])
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(result.stderr.hasPrefix("appshell push: "), "stderr: \(result.stderr)")
      #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
      // Nothing reached the app: no banner and no refused-message note.
      let after = try app.state()
      #expect(after["banner"] is NSNull)
      #expect(try logItems(after).count == logItems(before).count)
      #expect(try canonical(after["state"]) == canonical(before["state"]))
    }
  }

  // MARK: - No app, help, usage

  @Suite("clients without an app")
  struct NoApp {
    static let commands: [[String]] = [
      ["openurl", "myapp://user/alice"], ["push", #"{"aps":{"alert":"hi"}}"#], ["state"],
      ["reload"],
    ]

    @Test("with no app running each command exits 1 naming the socket", arguments: commands)
    func noAppRunning(command: [String]) throws {
      for makeRuntime in [true, false] {
        let idle = try HeadlessApp(makeRuntime: makeRuntime)
        let result = try idle.client(command)
        #expect(result.status == 1, "\(command) (runtime made: \(makeRuntime))")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("appshell \(command[0]): "), "stderr: \(result.stderr)")
        #expect(result.stderr.contains("no appshell is running"), "stderr: \(result.stderr)")
        #expect(result.stderr.contains(idle.socketPath), "stderr: \(result.stderr)")
      }
    }

    @Test("a stale socket with no app behind it: exit 1, no appshell is running")
    func staleSocketNoApp() throws {
      let app = try HeadlessApp()
      try app.start()
      #expect(app.stop(signal: SIGKILL) == 128 + SIGKILL)
      let result = try app.client(["state"])
      #expect(result.status == 1)
      #expect(result.stderr.contains("no appshell is running"), "stderr: \(result.stderr)")
      #expect(result.stderr.contains(app.socketPath))
    }

    @Test("help exits 0 and usage errors exit 2, without an app")
    func helpAndUsage() throws {
      let idle = try HeadlessApp()
      for command in ["openurl", "push", "state", "reload"] {
        for flag in ["--help", "-h"] {
          let help = try idle.client([command, flag])
          #expect(help.status == 0, "\(command) \(flag): \(help.stderr)")
          #expect(help.stdout.contains("USAGE: appshell \(command)"), "\(help.stdout)")
          #expect(help.stderr.isEmpty)
        }
      }
      let usage: [([String], String)] = [
        (["openurl"], "needs exactly one URL"),
        (["openurl", "myapp://a", "myapp://b"], "needs exactly one URL"),
        (["openurl", "--bogus", "myapp://a"], "unknown option '--bogus'"),
        (["push"], "needs exactly one PAYLOAD"),
        (["state", "extra"], "takes no arguments"),
        (["reload", "extra"], "takes no arguments"),
      ]
      for (arguments, message) in usage {
        let result = try idle.client(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      }
    }

    @Test("a socket path too long for a Unix socket: exit 1 with a message")
    func socketPathTooLong() throws {
      let idle = try HeadlessApp()
      let binary = try #require(HeadlessApp.executable)
      var environment = idle.environment
      environment["XDG_RUNTIME_DIR"] = idle.root + "/" + String(repeating: "r", count: 120)
      let result = try runProcess(binary, ["state"], environment: environment)
      #expect(result.status == 1)
      #expect(result.stderr.contains("longer than the"), "stderr: \(result.stderr)")
      #expect(result.stderr.contains("XDG_RUNTIME_DIR"), "stderr: \(result.stderr)")
    }

    @Test("an oversized openurl is refused by the client with exit 2 before connecting")
    func oversizedRequest() throws {
      let idle = try HeadlessApp()
      let url = "myapp://user/" + String(repeating: "a", count: 70_000)
      let result = try idle.client(["openurl", url])
      #expect(result.status == 2, "stderr: \(result.stderr)")
      #expect(result.stderr.contains("65536"), "stderr: \(result.stderr)")
    }
  }

  // MARK: - Permissions, stale sockets, a second app, signals

  @Suite("files and processes")
  struct Files {
    @Test("the socket is 0600 and its directory 0700, both the user's")
    func permissions() throws {
      let app = try HeadlessApp()
      try app.start()
      #expect(app.transcript.contains("listening on \(app.socketPath)"))
      let socket = try #require(fileStatus(app.socketPath), "no socket at \(app.socketPath)")
      #expect(socket.st_mode & S_IFMT == S_IFSOCK)
      #expect(socket.st_mode & 0o7777 == 0o600, "mode \(String(socket.st_mode & 0o7777, radix: 8))")
      #expect(socket.st_uid == getuid())
      let directory = (app.socketPath as NSString).deletingLastPathComponent
      let info = try #require(fileStatus(directory))
      #expect(info.st_mode & S_IFMT == S_IFDIR)
      #expect(info.st_mode & 0o7777 == 0o700, "mode \(String(info.st_mode & 0o7777, radix: 8))")
      #expect(info.st_uid == getuid())
    }

    /// Ways the socket's directory (or the socket) can be unsafe, set up under the runtime dir.
    enum Unsafe: String, CaseIterable, Sendable {
      case directoryMode0755 = "a directory with mode 0755"
      case directoryMode0750 = "a directory with mode 0750"
      case symbolicLink = "a symbolic link to a private directory"
      case fileInPlaceOfSocket = "a regular file in place of the socket"
    }

    @Test(
      "an unsafe socket directory: the app runs but does not listen", arguments: Unsafe.allCases)
    func unsafeDirectory(_ unsafe: Unsafe) throws {
      let app = try HeadlessApp()
      let directory = app.root + "/runtime/appshell"
      let target = app.root + "/elsewhere"
      switch unsafe {
      case .directoryMode0755, .directoryMode0750:
        #expect(mkdir(directory, 0o700) == 0)
        #expect(chmod(directory, unsafe == .directoryMode0755 ? 0o755 : 0o750) == 0)
      case .symbolicLink:
        #expect(mkdir(target, 0o700) == 0)
        #expect(symlink(target, directory) == 0)
      case .fileInPlaceOfSocket:
        #expect(mkdir(directory, 0o700) == 0)
        try writeFile(app.socketPath, "not a socket")
      }
      try app.start()
      #expect(app.transcript.contains("not listening"), "transcript: \(app.transcript)")
      #expect(!app.transcript.contains("listening on"), "transcript: \(app.transcript)")
      #expect(app.isRunning)

      let result = try app.client(["openurl", "myapp://user/alice"])
      #expect(result.status == 1, "stdout: \(result.stdout)")
      // "no appshell is running (nothing listens on PATH)", or a refusal naming the directory.
      #expect(result.stderr.contains(directory), "stderr: \(result.stderr)")

      // Nothing was made, replaced or changed.
      switch unsafe {
      case .directoryMode0755, .directoryMode0750:
        #expect(fileStatus(app.socketPath) == nil)
        let mode = try #require(fileStatus(directory)).st_mode & 0o7777
        #expect(mode == (unsafe == .directoryMode0755 ? 0o755 : 0o750))
      case .symbolicLink:
        #expect(fileStatus(target + "/app.sock") == nil)
        #expect(try #require(fileStatus(directory)).st_mode & S_IFMT == S_IFLNK)
      case .fileInPlaceOfSocket:
        #expect(try String(contentsOfFile: app.socketPath, encoding: .utf8) == "not a socket")
      }
      #expect(app.stop() == 128 + SIGTERM)
    }

    /// The app will not listen in a directory others can use; its clients must not talk to
    /// whatever listens there either (with the `/tmp/appshell-UID` fallback, another user can
    /// make that directory first and read every URL and payload sent).
    @Test("a client does not send to a socket in a directory that is not private")
    func clientRefusesUnsafeDirectory() throws {
      let app = try HeadlessApp()
      let directory = app.root + "/runtime/appshell"
      #expect(mkdir(directory, 0o700) == 0 && chmod(directory, 0o755) == 0)
      let stranger = try StrangerListener(at: app.socketPath)

      let result = try app.client(["openurl", "myapp://user/alice?token=secret"])
      let received = stranger.finish()
      #expect(result.status == 1, "stdout: \(result.stdout)")
      #expect(result.stderr.contains(directory), "stderr: \(result.stderr)")
      #expect(received.isEmpty, "the stranger received: \(received)")
    }

    @Test("a stale socket left by a killed app is replaced by the next app")
    func staleSocketReplaced() throws {
      let app = try HeadlessApp()
      try app.start()
      let first = try #require(fileStatus(app.socketPath))
      #expect(app.stop(signal: SIGKILL) == 128 + SIGKILL)
      let stale = try #require(fileStatus(app.socketPath), "the killed app's socket stays")
      #expect(stale.st_mode & S_IFMT == S_IFSOCK)
      #expect(stale.st_ino == first.st_ino)

      try app.start()
      #expect(app.transcript.contains("listening on \(app.socketPath)"), "\(app.transcript)")
      let replaced = try #require(fileStatus(app.socketPath))
      #expect(replaced.st_mode & S_IFMT == S_IFSOCK)
      #expect(replaced.st_mode & 0o7777 == 0o600)
      let result = try app.client(["openurl", "myapp://user/alice"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(result.stdout.contains("pushed user-profile"))
      #expect(try app.stackScreens() == ["home", "user-profile"])
    }

    @Test("a second app beside a live one does not take the socket over")
    func secondAppDoesNotTakeOver() throws {
      let app = try HeadlessApp()
      try app.start()
      let socket = try #require(fileStatus(app.socketPath))

      let second = try SecondApp(beside: app)
      #expect(second.firstLine.contains("not listening"), "second app: \(second.firstLine)")
      #expect(!second.firstLine.hasPrefix("appshell: headless, listening on"))
      #expect(second.firstLine.contains("another appshell is already listening"))

      // The first still answers, on the same socket file.
      let result = try app.client(["openurl", "myapp://user/alice"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(try app.stackScreens() == ["home", "user-profile"])
      #expect(try #require(fileStatus(app.socketPath)).st_ino == socket.st_ino)

      // The second ending leaves the first's socket alone.
      #expect(second.stop() == 128 + SIGTERM)
      #expect(try #require(fileStatus(app.socketPath)).st_ino == socket.st_ino)
      #expect(try app.client(["state"]).status == 0)
      #expect(app.isRunning)
    }

    @Test(
      "SIGTERM and SIGINT end the headless app and remove its socket",
      arguments: [SIGTERM, SIGINT])
    func signalEndsApp(signal: Int32) throws {
      let app = try HeadlessApp()
      try app.start()
      #expect(try app.client(["state"]).status == 0)
      #expect(fileStatus(app.socketPath) != nil)
      #expect(app.stop(signal: signal) == 128 + signal)
      #expect(fileStatus(app.socketPath) == nil, "the socket file is removed")
      let directory = (app.socketPath as NSString).deletingLastPathComponent
      #expect(fileStatus(directory) != nil, "the directory stays")
    }
  }

  // MARK: - state and reload

  @Suite("state and reload")
  struct StateAndReload {
    @Test("reload of the shipped table answers with its version; state has the table")
    func reloadShippedTable() throws {
      let table = try shippedTable()
      let version = try #require(table["version"] as? Int)
      let routes = try #require(table["routes"] as? [Any]).count

      let app = try HeadlessApp()
      try app.start()
      let reply = try app.state()
      #expect(reply["v"] as? Int == 1)
      #expect(reply["ok"] as? Bool == true)
      #expect(reply["status"] is String)
      let info = try #require(reply["table"] as? [String: Any])
      #expect(info["version"] as? Int == version)
      #expect(info["routes"] as? Int == routes)
      #expect((info["source"] as? String)?.contains("shipped") == true, "source: \(info)")

      let result = try app.client(["reload"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(result.stdout.contains("v\(version)"), "stdout: \(result.stdout)")
      #expect(result.stdout.contains("\(routes) routes"), "stdout: \(result.stdout)")
      let reloaded = try #require(try app.state()["table"] as? [String: Any])
      #expect(try canonical(reloaded) == canonical(info))
    }

    @Test("reload of a broken --routes file exits 1 and the old table stays")
    func reloadRefused() throws {
      let app = try HeadlessApp()
      let routes = app.root + "/routes.json"
      let shipped = try Data(contentsOf: packageRoot.appendingPathComponent("Screens/routes.json"))
      try shipped.write(to: URL(fileURLWithPath: routes))
      try app.start(["--routes", routes])
      let before = try #require(try app.state()["table"] as? [String: Any])

      try writeFile(routes, "{ this is not a table")
      let result = try app.client(["reload"])
      #expect(result.status == 1, "stdout: \(result.stdout)")
      #expect(result.stderr.hasPrefix("appshell reload: "), "stderr: \(result.stderr)")
      #expect(result.stderr.count > "appshell reload: \n".count)

      let after = try #require(try app.state()["table"] as? [String: Any])
      #expect(after["version"] as? Int == before["version"] as? Int)
      #expect(after["routes"] as? Int == before["routes"] as? Int)
      let open = try app.client(["openurl", "myapp://user/alice"])
      #expect(open.status == 0 && open.stdout.contains("pushed user-profile"))
    }

    /// A URL well within the request limit must not break later `state` replies (the client
    /// refuses a reply longer than `WireProtocol.maxMessageBytes`, and the state reply carries
    /// the URL several times: the screen's title and params, the status line, the log).
    @Test("state still answers after a long URL was opened")
    func stateAfterLongURL() throws {
      let app = try HeadlessApp()
      try app.start()
      let name = String(repeating: "a", count: 30_000)
      let open = try app.client(["openurl", "myapp://user/\(name)"])
      #expect(open.status == 0, "stderr: \(open.stderr)")

      let raw = try app.sendRaw(Array(#"{"v":1,"type":"state"}"#.utf8) + [0x0A])
      let result = try app.client(["state"])
      #expect(
        result.status == 0, "the state reply is \(raw.utf8.count) bytes; \(result.stderr)")
      if result.status == 0 {
        #expect(try app.stackScreens() == ["home", "user-profile"])
      }
    }
  }
}
