import Foundation
import Testing

// The socket's files and processes: permissions, stale sockets, a second app, signals; and
// the state and reload requests. Part of SocketTests (see SocketTests.swift).

extension SocketTests {
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
      "an unsafe socket directory: the headless app does not listen and ends with status 2",
      arguments: Unsafe.allCases)
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
      #expect(app.waitForEnd() == 2, "transcript: \(app.transcript)")

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

    @Test("a second headless app beside a live one does not take the socket over, and ends")
    func secondAppDoesNotTakeOver() throws {
      let app = try HeadlessApp()
      try app.start()
      let socket = try #require(fileStatus(app.socketPath))

      let second = try SecondApp(beside: app)
      #expect(second.firstLine.contains("not listening"), "second app: \(second.firstLine)")
      #expect(!second.firstLine.hasPrefix("appshell: headless, listening on"))
      #expect(second.firstLine.contains("another appshell is already listening"))
      // Nothing could reach it: it ends with status 2.
      #expect(second.waitForEnd() == 2)

      // The first still answers, on the same socket file.
      let result = try app.client(["openurl", "myapp://user/alice"])
      #expect(result.status == 0, "stderr: \(result.stderr)")
      #expect(try app.stackScreens() == ["home", "user-profile"])
      #expect(try #require(fileStatus(app.socketPath)).st_ino == socket.st_ino)

      // The second's end left the first's socket alone.
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
      let table = try shippedRoutesJSON()
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
