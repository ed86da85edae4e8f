import Foundation
import Platform
import TestSupport
import Testing

// Integration tests of the app's socket: a real `appshell --headless` (see HeadlessAppSupport)
// driven by the real `appshell openurl`, `push`, `state` and `reload` clients and by hand-made
// raw clients. Every test starts its own app with its own runtime directory, so they run in
// parallel. Nothing sleeps: the harness waits on the app's output and on sockets with poll().

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
      let table = try shippedRoutesJSON()
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
        let written = bytes.withUnsafeBytes { Sockets.send(silent, $0) }
        #expect(written == bytes.count)
      }

      // Other clients are served while the silent one waits.
      let result = try app.client(["openurl", "myapp://user/alice"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(result.stdout.contains("pushed user-profile"))
      let raw = try parseReply(app.sendRaw(Array(#"{"v":1,"type":"state"}"#.utf8) + [0x0A]))
      #expect(raw["ok"] as? Bool == true)
      let served = started.duration(to: clock.now)
      // Not answered yet, unless serving the others took past the server's 2 s (a loaded
      // machine: CI runs the suites in parallel), when its answer is due anyway.
      if served < .milliseconds(1_900) {
        #expect(!isReadable(silent), "the silent client was answered before its timeout")
      }

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
          let written = bytes.withUnsafeBytes { Sockets.send(descriptor, $0) }
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
}
