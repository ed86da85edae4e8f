import Foundation
import TestSupport
import Testing

// Integration tests of remote route tables: the real `appshell --headless` downloading a signed
// table from a loopback HTTP server (`--routes http://127.0.0.1:PORT/...`, `--routes-key`),
// reloading it (`appshell reload`, SIGHUP, a changed `--routes FILE`), refusing broken,
// badly signed, unsigned and older tables, and starting from its disk cache (or the shipped
// table) when the server is gone. Keys are made with the `openssl` command; signatures with
// `appshell sign-table` (and `openssl pkeyutl` where sign-table rightly refuses the input).
//
// Nothing sleeps: the app is waited for by its "listening on" line, and a reload the tests do
// not trigger themselves (a file change, a signal) by polling `appshell state` — a round trip
// to the app — until a deadline.

/// The served table's path, and its detached signature's.
@Suite("Remote route tables")
struct RemoteTableTests {
  /// The whole life of a remote table: downloaded and verified at start, reloaded, refused
  /// when broken, badly signed, older or unsigned, and used from the cache when the server is
  /// gone.
  @Test func remoteTableLifecycle() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let url = server.url(tablePath)
    let arguments = ["--routes", url, "--routes-key", kit.publicKey]
    let shippedRoutes = try shippedRouteCount()

    // 1. v1 with a new route, signed by `appshell sign-table`: the app starts with it.
    let v1 = try makeTable(version: 1, adding: [promoRoute])
    let v1Signature = try kit.signed(v1)
    serve(server, v1, signature: v1Signature)
    let app = try HeadlessApp()
    try app.start(arguments)
    var reply = try app.state()
    var table = try tableState(reply)
    #expect(table.source == url)
    #expect(table.version == 1)
    #expect(table.routes == shippedRoutes + 1)
    #expect(!notes(reply).contains { $0.problem }, "\(notes(reply))")
    #expect(server.requests(tablePath) == 1)
    #expect(server.requests(signaturePath) == 1)
    try expectOpens(app, "myapp://promo/spring", screen: "search")
    try expectNoRoute(app, "myapp://deals/alice")

    // 2. v2 adds another route; `appshell reload` puts it in force.
    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    let v2Signature = try kit.signed(v2)
    serve(server, v2, signature: v2Signature)
    let reloaded = try app.client(["reload"])
    #expect(reloaded.status == 0, "\(reloaded.stderr)")
    #expect(
      reloaded.stdout == "Loaded route table v2 from \(url) (\(shippedRoutes + 2) routes)\n")
    #expect(server.requests(tablePath) == 2)
    table = try tableState(try app.state())
    #expect(table.version == 2)
    #expect(table.routes == shippedRoutes + 2)
    try expectOpens(app, "myapp://deals/alice", screen: "user-profile")
    try expectOpens(app, "myapp://promo/summer", screen: "search")

    // 3. Invalid JSON, correctly signed (by openssl: sign-table refuses invalid tables).
    let broken = Array(#"{"version": 3, "routes": ["#.utf8)
    serve(server, broken, signature: try kit.rawSignature(broken))
    try expectReloadRefused(app, saying: [url, "invalid JSON"], keeps: 2)
    try expectOpens(app, "myapp://deals/bob", screen: "user-profile")

    // 4. v3 signed with another key, then v3 changed by one byte after signing: refused.
    let v3 = try makeTable(version: 3, adding: [promoRoute, dealsRoute, flashRoute])
    let stranger = try kit.makeKeyPair(named: "stranger")
    serve(server, v3, signature: try kit.signed(v3, key: stranger.privateKey))
    try expectReloadRefused(app, saying: [url, "does not verify"], keeps: 2)
    let tampered = try changingOneByte(of: v3, in: "myapp://flash")
    serve(server, tampered, signature: try kit.signed(v3))
    try expectReloadRefused(app, saying: [url, "does not verify"], keeps: 2)
    try expectNoRoute(app, "myapp://flash/now")

    // 5. The old v1, properly signed: no rollback.
    serve(server, v1, signature: v1Signature)
    try expectReloadRefused(app, saying: [url, "v1 is older than v2", "no rollback"], keeps: 2)

    // 6. v3 without a signature (the .sig is a 404): refused as unsigned.
    let signatureRequests = server.requests(signaturePath)
    serve(server, v3, signature: nil)
    try expectReloadRefused(app, saying: ["unsigned", "\(url).sig", "404"], keeps: 2)
    #expect(server.requests(signaturePath) == signatureRequests + 1)
    try expectNoRoute(app, "myapp://flash/now")
    try expectOpens(app, "myapp://deals/carol", screen: "user-profile")

    // The cache holds what was last put in force, byte for byte: v2, not a refused table.
    let cached = cachedFiles(app)
    #expect(cached.count == 1)
    #expect(cached.first.flatMap { contents($0.table) } == v2)
    #expect(cached.first.flatMap { contents($0.signature) } == v2Signature)

    // 7. The server goes away: a reload fails and v2 stays; a new app with the same cache
    // starts from it.
    server.stop()
    try expectReloadRefused(app, saying: [url], keeps: 2)
    #expect(app.stop() == 128 + SIGTERM)
    try app.start(arguments)
    reply = try app.state()
    table = try tableState(reply)
    #expect(table.version == 2)
    #expect(table.routes == shippedRoutes + 2)
    #expect(table.source == "the cache of \(url)")
    #expect(
      status(reply).hasPrefix("Using the cached route table v2: the download could not be used"))
    #expect(
      notes(reply).contains {
        $0.problem
          && $0.text.hasPrefix("Using the cached route table v2: the download could not be used")
          && $0.text.contains(url)
      }, "\(notes(reply))")
    try expectOpens(app, "myapp://deals/dave", screen: "user-profile")
    try expectNoRoute(app, "myapp://flash/now")
  }

  /// 8. No server and no cache: the shipped table, and a note saying why.
  @Test func startsWithTheShippedTableWhenNothingElseIsThere() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    let url = server.url(tablePath)
    server.stop()
    let app = try HeadlessApp()
    try app.start(["--routes", url, "--routes-key", kit.publicKey])
    let reply = try app.state()
    let table = try tableState(reply)
    #expect(table.version == (try shippedTable())["version"] as? Int)
    #expect(table.routes == (try shippedRouteCount()))
    #expect(table.source == "the shipped table")
    #expect(
      status(reply).hasPrefix("Using the shipped route table: the download could not be used"))
    #expect(status(reply).contains(url))
    #expect(!status(reply).contains("cache"), "no cache is not worth a mention")
    #expect(notes(reply).last?.problem == true)
    #expect(cachedFiles(app).isEmpty)
    try expectNoRoute(app, "myapp://promo/spring")
    try expectOpens(app, "myapp://settings", screen: "settings")
  }

  /// 9. A cached table changed on disk no longer verifies: refused at start, with a note
  /// naming the cache.
  @Test func refusesATamperedCacheAtStart() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let url = server.url(tablePath)
    let arguments = ["--routes", url, "--routes-key", kit.publicKey]
    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    let v2Signature = try kit.signed(v2)
    serve(server, v2, signature: v2Signature)
    let app = try HeadlessApp()
    try app.start(arguments)
    #expect(try version(app) == 2)
    app.stop()

    // The cached copy is the download, verbatim; change one byte of it (still valid JSON).
    let cached = try #require(cachedFiles(app).first)
    #expect(cachedFiles(app).count == 1)
    #expect(contents(cached.table) == v2)
    #expect(contents(cached.signature) == v2Signature)
    let tampered = try changingOneByte(of: v2, in: "myapp://deals")
    try Data(tampered).write(to: URL(fileURLWithPath: cached.table))

    server.stop()
    try app.start(arguments)
    let reply = try app.state()
    #expect(try tableState(reply).version == 1)
    #expect(try tableState(reply).routes == (try shippedRouteCount()))
    let line = status(reply)
    #expect(line.hasPrefix("Using the shipped route table: the download could not be used"))
    #expect(line.contains("the cache was refused"), "\(line)")
    #expect(line.contains("does not verify"), "\(line)")
    #expect(notes(reply).last?.problem == true)
    try expectNoRoute(app, "myapp://deals/alice")
  }

  /// 10. At start, a downloaded table older than the cached one is refused: the cache wins.
  @Test func refusesARollbackAtStart() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let url = server.url(tablePath)
    let arguments = ["--routes", url, "--routes-key", kit.publicKey]
    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    serve(server, v2, signature: try kit.signed(v2))
    let app = try HeadlessApp()
    try app.start(arguments)
    #expect(try version(app) == 2)
    app.stop()

    let v1 = try makeTable(version: 1, adding: [promoRoute])
    serve(server, v1, signature: try kit.signed(v1))
    let downloads = server.requests(tablePath)
    try app.start(arguments)
    #expect(server.requests(tablePath) == downloads + 1)
    let reply = try app.state()
    #expect(try tableState(reply).version == 2)
    let expected =
      "Refused the downloaded route table v1: older than the cached v2; using the cache"
    #expect(status(reply) == expected)
    #expect(notes(reply).contains { $0.problem && $0.text == expected }, "\(notes(reply))")
    try expectOpens(app, "myapp://deals/alice", screen: "user-profile")
    // The refused download did not replace the cached v2.
    #expect(cachedFiles(app).first.flatMap { contents($0.table) } == v2)
  }

  /// A newer download at start replaces the cached table, and the cache follows.
  @Test func aNewerDownloadAtStartReplacesTheCache() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let arguments = ["--routes", server.url(tablePath), "--routes-key", kit.publicKey]
    let v1 = try makeTable(version: 1, adding: [promoRoute])
    serve(server, v1, signature: try kit.signed(v1))
    let app = try HeadlessApp()
    try app.start(arguments)
    #expect(try version(app) == 1)
    app.stop()
    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    serve(server, v2, signature: try kit.signed(v2))
    try app.start(arguments)
    let reply = try app.state()
    #expect(try tableState(reply).version == 2)
    #expect(!notes(reply).contains { $0.problem }, "\(notes(reply))")
    #expect(cachedFiles(app).first.flatMap { contents($0.table) } == v2)
  }

  /// 11. `appshell sign-table`: its errors and exit statuses, and what it writes.
  @Test func signTable() throws {
    let kit = try SigningKit()
    let binary = try appshell()
    let directories = try PrivateDirectories()
    func signTable(_ arguments: [String]) throws -> ProcessResult {
      try runProcess(binary, ["sign-table"] + arguments, environment: directories.environment)
    }
    let table = try makeTable(version: 7, adding: [promoRoute])
    let tableFile = try kit.write(table)

    let noKey = try signTable([tableFile])
    #expect(noKey.status == 2)
    #expect(noKey.stderr.contains("missing --key"), "\(noKey.stderr)")

    let unversioned = try kit.write(try makeTable(version: nil))
    let noVersion = try signTable(["--key", kit.privateKey, unversioned])
    #expect(noVersion.status == 1)
    #expect(noVersion.stderr.contains(#"must carry a "version""#), "\(noVersion.stderr)")
    #expect(!FileManager.default.fileExists(atPath: unversioned + ".sig"))

    let invalid = try kit.write(Array(#"{"version": 1, "routes": ["#.utf8))
    let invalidRun = try signTable(["--key", kit.privateKey, invalid])
    #expect(invalidRun.status == 1)
    #expect(invalidRun.stderr.contains("\(invalid): invalid JSON"), "\(invalidRun.stderr)")
    #expect(!FileManager.default.fileExists(atPath: invalid + ".sig"))

    let publicAsPrivate = try signTable(["--key", kit.publicKey, tableFile])
    #expect(publicAsPrivate.status == 1)
    #expect(publicAsPrivate.stderr.contains("public key"), "\(publicAsPrivate.stderr)")
    #expect(!FileManager.default.fileExists(atPath: tableFile + ".sig"))

    // The fingerprint: the first 16 hex digits of the SHA-256 of the raw public key, worked
    // out here with openssl alone (the last 32 bytes of the DER SubjectPublicKeyInfo).
    let der = kit.directory + "/table-public.der"
    try kit.run(
      kit.openssl, ["pkey", "-pubin", "-in", kit.publicKey, "-outform", "DER", "-out", der])
    let raw = try kit.write(Array(try #require(contents(der)).suffix(32)), suffix: ".raw")
    let digest = try kit.run(kit.openssl, ["dgst", "-sha256", "-r", raw])
    let fingerprint = String(digest.prefix(16))

    let signed = try signTable(["--key", kit.privateKey, tableFile])
    #expect(signed.status == 0, "\(signed.stderr)")
    #expect(
      signed.stdout
        == "signed \(tableFile) (v7, \((try shippedRouteCount()) + 1) routes) with key \(fingerprint) -> \(tableFile).sig\n"
    )
    let text = String(decoding: try #require(contents(tableFile + ".sig")), as: UTF8.self)
    #expect(text.hasSuffix("\n"))
    #expect(text.dropLast().allSatisfy { $0.isLetter || $0.isNumber || "+/=".contains($0) })
    let signature = try #require(Data(base64Encoded: String(text.dropLast())))
    #expect(signature.count == 64)
    // openssl agrees the signature is good.
    let rawSignature = try kit.write([UInt8](signature), suffix: ".sigraw")
    let verified = try kit.run(
      kit.openssl,
      [
        "pkeyutl", "-verify", "-pubin", "-inkey", kit.publicKey, "-rawin", "-in", tableFile,
        "-sigfile", rawSignature,
      ])
    #expect(verified.contains("Signature Verified Successfully"))

    // --output puts it elsewhere.
    let elsewhere = kit.directory + "/elsewhere.sig"
    let output = try signTable(["--key", kit.privateKey, "--output", elsewhere, tableFile])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.hasSuffix("-> \(elsewhere)\n"))
    #expect(contents(elsewhere).map { $0.count } == text.utf8.count)
  }

  /// 12. A `--routes FILE` is watched: replaced as editors do it, it is reloaded; an invalid
  /// one is refused; SIGHUP reloads it too.
  @Test func watchesALocalFileAndReloadsOnSIGHUP() throws {
    let kit = try SigningKit()
    let directory = kit.directory + "/watched"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let file = directory + "/routes.json"
    /// Writes `bytes` to a temporary file beside FILE and renames it over FILE.
    func replace(_ bytes: [UInt8]) throws {
      let temporary = directory + "/.routes.json.swp"
      try Data(bytes).write(to: URL(fileURLWithPath: temporary))
      guard rename(temporary, file) == 0 else {
        throw HeadlessError("rename: \(String(cString: strerror(errno)))")
      }
    }
    try replace(try makeTable(version: 1))
    let app = try HeadlessApp()
    try app.start(["--routes", file])
    var reply = try app.state()
    #expect(try tableState(reply).version == 1)
    #expect(try tableState(reply).source == file)
    try expectNoRoute(app, "myapp://promo/spring")

    try replace(try makeTable(version: 2, adding: [promoRoute]))
    reply = try waitForState(app, "v2 from the changed file") { try tableState($0).version == 2 }
    #expect(
      notes(reply).last.map {
        !$0.problem && $0.text.hasPrefix("Loaded route table v2 from \(file)")
      }
        == true, "\(notes(reply))")
    try expectOpens(app, "myapp://promo/spring", screen: "search")

    let problemsBefore = notes(reply).filter(\.problem).count
    try replace(Array(#"{"version": 3, "routes": ["#.utf8))
    reply = try waitForState(app, "the invalid file refused") {
      notes($0).filter(\.problem).count > problemsBefore
    }
    #expect(try tableState(reply).version == 2)
    let refusal = try #require(notes(reply).last)
    #expect(refusal.problem)
    #expect(refusal.text.hasPrefix("Route table refused: "), "\(refusal.text)")
    #expect(refusal.text.contains(file), "\(refusal.text)")
    #expect(refusal.text.hasSuffix("keeping the one in force"), "\(refusal.text)")
    try expectOpens(app, "myapp://promo/autumn", screen: "search")

    // Fix the file behind the watcher's back: through a hard link in an unwatched directory
    // (inotify reports a change to the watched directory only through its own entry), so on
    // Linux only SIGHUP can make the app read it. (kqueue, on macOS, watches the file itself
    // and may see the write; SIGHUP must load it all the same.)
    let hidden = kit.directory + "/unwatched"
    try FileManager.default.createDirectory(atPath: hidden, withIntermediateDirectories: true)
    guard link(file, hidden + "/routes.json") == 0 else {
      throw HeadlessError("link: \(String(cString: strerror(errno)))")
    }
    let v3 = try makeTable(version: 3, adding: [promoRoute, dealsRoute])
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: hidden + "/routes.json"))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(v3))
    try handle.close()
    #expect(contents(file) == v3)
    #if os(Linux)
      #expect(try version(app) == 2, "the watcher saw a change it should not have")
    #endif

    #expect(kill(app.pid, SIGHUP) == 0)
    reply = try waitForState(app, "v3 after SIGHUP") { try tableState($0).version == 3 }
    #expect(app.isRunning)
    try expectOpens(app, "myapp://deals/alice", screen: "user-profile")
  }

  /// SIGHUP reloads a remote table too (nothing else would: no file is watched).
  @Test func sighupReloadsARemoteTable() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let v1 = try makeTable(version: 1, adding: [promoRoute])
    serve(server, v1, signature: try kit.signed(v1))
    let app = try HeadlessApp()
    try app.start(["--routes", server.url(tablePath), "--routes-key", kit.publicKey])
    #expect(try version(app) == 1)
    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    serve(server, v2, signature: try kit.signed(v2))
    #expect(try version(app) == 1)
    #expect(kill(app.pid, SIGHUP) == 0)
    try waitForState(app, "v2 after SIGHUP") { try tableState($0).version == 2 }
    #expect(app.isRunning)
    #expect(server.requests(tablePath) == 2)
    try expectOpens(app, "myapp://deals/alice", screen: "user-profile")
  }

  /// The other shapes of a download: a raw 64-byte signature is accepted; a table without a
  /// "version", a missing table and a garbled signature file are refused.
  @Test func signatureFormsAndOtherRefusals() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let url = server.url(tablePath)
    let v1 = try makeTable(version: 1, adding: [promoRoute])
    serve(server, v1, signature: try kit.signed(v1))
    let app = try HeadlessApp()
    try app.start(["--routes", url, "--routes-key", kit.publicKey])
    #expect(try version(app) == 1)

    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    serve(server, v2, signature: try kit.rawSignature(v2))
    let reloaded = try app.client(["reload"])
    #expect(reloaded.status == 0, "\(reloaded.stderr)")
    #expect(try version(app) == 2)

    let unversioned = try makeTable(version: nil, adding: [promoRoute, dealsRoute, flashRoute])
    serve(server, unversioned, signature: try kit.rawSignature(unversioned))
    try expectReloadRefused(app, saying: [#"must carry a "version""#], keeps: 2)

    server[tablePath] = nil
    try expectReloadRefused(app, saying: [url, "404"], keeps: 2)

    let v3 = try makeTable(version: 3, adding: [promoRoute, dealsRoute, flashRoute])
    serve(server, v3, signature: Array("not a signature\n".utf8))
    try expectReloadRefused(app, saying: ["bad signature file"], keeps: 2)
    try expectNoRoute(app, "myapp://flash/now")
  }

  /// The signature of a table whose URL has a query is fetched at the path with `.sig` added,
  /// the query kept.
  @Test func theSignatureURLKeepsTheQuery() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    serve(server, v2, signature: try kit.signed(v2))
    let url = server.url(tablePath + "?channel=beta&n=2")
    let app = try HeadlessApp()
    try app.start(["--routes", url, "--routes-key", kit.publicKey])
    let table = try tableState(try app.state())
    #expect(table.version == 2)
    #expect(table.source == url)
    #expect(
      server.targets == [tablePath + "?channel=beta&n=2", signaturePath + "?channel=beta&n=2"])
    try expectOpens(app, "myapp://deals/alice", screen: "user-profile")
  }

  /// Without --routes-key the shipped key is the one trusted: a table signed with another key
  /// is refused at start; an unreadable key file stops the app from starting.
  @Test func theKeyToTrust() throws {
    let kit = try SigningKit()
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let url = server.url(tablePath)
    let v2 = try makeTable(version: 2, adding: [promoRoute, dealsRoute])
    serve(server, v2, signature: try kit.signed(v2))

    let app = try HeadlessApp()
    try app.start(["--routes", url])
    let reply = try app.state()
    #expect(try tableState(reply).version == 1)
    #expect(status(reply).hasPrefix("Using the shipped route table"), "\(status(reply))")
    #expect(status(reply).contains("does not verify"), "\(status(reply))")
    #expect(cachedFiles(app).isEmpty, "a refused download must not be cached")
    try expectNoRoute(app, "myapp://deals/alice")
    app.stop()

    let missing = kit.directory + "/no-such-key.pem"
    let refused = try HeadlessApp()
    #expect(throws: HeadlessError.self) {
      try refused.start(["--routes", url, "--routes-key", missing])
    }
    #expect(refused.stop() == 2)
    #expect(refused.transcript.contains("\(missing): cannot read the route-table key"))
  }
}
