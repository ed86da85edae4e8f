import Foundation
import Platform
import TestSupport
import Testing

// Helpers of the remote route-table tests (RemoteTableTests.swift).

let tablePath = "/tables/routes.json"
let signaturePath = "/tables/routes.json.sig"

/// Routes the served tables add to the shipped ones, each to a screen that exists.
let promoRoute: [String: String] = ["pattern": "myapp://promo/:query", "screen": "search"]
let dealsRoute: [String: String] = [
  "pattern": "myapp://deals/:username", "screen": "user-profile",
]
let flashRoute: [String: String] = ["pattern": "myapp://flash/:query", "screen": "search"]

/// The package's `Screens/routes.json`.
let shippedTablePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
    "Screens/routes.json"
  ).path

/// The shipped table, parsed.
func shippedTable() throws -> [String: Any] {
  let data = try #require(FileManager.default.contents(atPath: shippedTablePath))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// The shipped table with `"version": version` (none when nil) and `extra` routes added.
func makeTable(version: Int?, adding extra: [[String: String]] = []) throws -> [UInt8] {
  var table = try shippedTable()
  let routes = try #require(table["routes"] as? [Any])
  table["routes"] = routes + extra
  table["version"] = version
  return [UInt8](
    try JSONSerialization.data(
      withJSONObject: table, options: [.sortedKeys, .withoutEscapingSlashes]))
}

/// How many routes the shipped table has.
func shippedRouteCount() throws -> Int {
  try #require(try shippedTable()["routes"] as? [Any]).count
}

/// A scratch directory with an Ed25519 key pair made by `openssl`, where tables are signed.
final class SigningKit {
  let directory: String
  private let scratch: TemporaryDirectory
  let openssl: String
  /// The PEM files of the key the app is told to trust.
  let privateKey: String
  let publicKey: String
  private var files = 0

  init() throws {
    openssl = try #require(
      ChildProcess.find("openssl"), "these tests need the openssl command (apt-get install openssl)"
    )
    scratch = try TemporaryDirectory("appshell-rt")
    directory = scratch.path
    privateKey = directory + "/table-private.pem"
    publicKey = directory + "/table-public.pem"
    try makeKeyPair(privateKey: privateKey, publicKey: publicKey)
  }

  /// Makes another key pair; returns its private and public PEM files.
  func makeKeyPair(named name: String) throws -> (privateKey: String, publicKey: String) {
    let pair = (directory + "/\(name)-private.pem", directory + "/\(name)-public.pem")
    try makeKeyPair(privateKey: pair.0, publicKey: pair.1)
    return pair
  }

  private func makeKeyPair(privateKey: String, publicKey: String) throws {
    try run(openssl, ["genpkey", "-algorithm", "ed25519", "-out", privateKey])
    try run(openssl, ["pkey", "-in", privateKey, "-pubout", "-out", publicKey])
  }

  /// A new file in the directory holding `bytes`.
  func write(_ bytes: [UInt8], suffix: String = ".json") throws -> String {
    files += 1
    let path = directory + "/file-\(files)\(suffix)"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// The `.sig` file `appshell sign-table` writes for `table` (with `key`, default the kit's).
  func signed(_ table: [UInt8], key: String? = nil) throws -> [UInt8] {
    let path = try write(table)
    try run(try appshell(), ["sign-table", "--key", key ?? privateKey, path])
    return [UInt8](try #require(FileManager.default.contents(atPath: path + ".sig")))
  }

  /// A raw 64-byte signature of `bytes` made by `openssl pkeyutl`, for what sign-table
  /// refuses to sign (invalid or unversioned tables).
  func rawSignature(_ bytes: [UInt8]) throws -> [UInt8] {
    let path = try write(bytes)
    try run(
      openssl,
      ["pkeyutl", "-sign", "-rawin", "-inkey", privateKey, "-in", path, "-out", path + ".raw"])
    let signature = [UInt8](try #require(FileManager.default.contents(atPath: path + ".raw")))
    try #require(signature.count == 64)
    return signature
  }

  /// Runs a program that must succeed; returns its standard output.
  @discardableResult
  func run(_ program: String, _ arguments: [String]) throws -> String {
    let result = try runProcess(
      program, arguments, environment: ProcessInfo.processInfo.environment)
    guard result.status == 0 else {
      throw HeadlessError("\(program) \(arguments) exited \(result.status): \(result.stderr)")
    }
    return result.stdout
  }
}

/// `bytes` with one byte changed: the case of the host's first letter where `url` (a
/// `myapp://` URL) first occurs in them.
func changingOneByte(of bytes: [UInt8], in url: String) throws -> [UInt8] {
  guard let range = bytes.firstRange(of: Array(url.utf8)) else {
    throw HeadlessError("\(url) is not in the table")
  }
  var changed = bytes
  changed[range.lowerBound + "myapp://".utf8.count] ^= 0x20
  return changed
}

/// The built `appshell`.
func appshell() throws -> String {
  try #require(HeadlessApp.executable, "build appshell first (swift build)")
}

/// Serves `table` with `signature` (none: the `.sig` is a 404).
func serve(_ server: LoopbackHTTPServer, _ table: [UInt8], signature: [UInt8]?) {
  server[tablePath] = table
  server[signaturePath] = signature
}

/// The `table` member of a state reply.
struct TableState {
  var version: Int?
  var routes: Int
  var source: String
}

func tableState(_ reply: [String: Any]) throws -> TableState {
  let table = try #require(reply["table"] as? [String: Any], "no table in \(reply)")
  return TableState(
    version: table["version"] as? Int, routes: try #require(table["routes"] as? Int),
    source: try #require(table["source"] as? String))
}

/// The version of the table in force.
func version(_ app: HeadlessApp) throws -> Int? {
  try tableState(try app.state()).version
}

/// The notes of a state reply's log (`note`, `problem`), oldest first.
func notes(_ reply: [String: Any]) -> [(text: String, problem: Bool)] {
  (reply["log"] as? [[String: Any]] ?? []).compactMap { item in
    guard let text = item["note"] as? String else { return nil }
    return (text, item["problem"] as? Bool ?? false)
  }
}

/// The status line of a state reply.
func status(_ reply: [String: Any]) -> String { reply["status"] as? String ?? "" }

/// `appshell openurl URL` must push `screen`.
func expectOpens(
  _ app: HeadlessApp, _ url: String, screen: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let result = try app.client(["openurl", url])
  #expect(result.status == 0, "openurl \(url): \(result.stderr)", sourceLocation: sourceLocation)
  #expect(
    result.stdout.contains("→ pushed \(screen)"), "openurl \(url) said: \(result.stdout)",
    sourceLocation: sourceLocation)
  #expect(try app.stackScreens().last == screen, sourceLocation: sourceLocation)
}

/// `appshell openurl URL` must find no route and leave the screens as they are.
func expectNoRoute(
  _ app: HeadlessApp, _ url: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let before = try app.stackScreens()
  let result = try app.client(["openurl", url])
  #expect(result.status == 0, "openurl \(url): \(result.stderr)", sourceLocation: sourceLocation)
  #expect(
    result.stdout.contains("No route"), "openurl \(url) said: \(result.stdout)",
    sourceLocation: sourceLocation)
  #expect(try app.stackScreens() == before, sourceLocation: sourceLocation)
}

/// `appshell reload` must be refused (exit 1) with a message containing each of `words`, and
/// leave `version` in force.
func expectReloadRefused(
  _ app: HeadlessApp, saying words: [String], keeps version: Int,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let result = try app.client(["reload"])
  #expect(result.status == 1, "reload: \(result.stdout)", sourceLocation: sourceLocation)
  #expect(
    result.stderr.hasPrefix("appshell reload: Route table refused: "), "\(result.stderr)",
    sourceLocation: sourceLocation)
  for word in words {
    #expect(result.stderr.contains(word), "\(result.stderr)", sourceLocation: sourceLocation)
  }
  let reply = try app.state()
  #expect(try tableState(reply).version == version, sourceLocation: sourceLocation)
  let last = notes(reply).last
  #expect(last?.problem == true, sourceLocation: sourceLocation)
  #expect(
    last.map { result.stderr.contains($0.text) } == true, "last note: \(String(describing: last))",
    sourceLocation: sourceLocation)
}

/// Polls `appshell state` (each a round trip to the app) until `done` holds, for at most
/// `seconds`; returns the reply that satisfied it.
@discardableResult
func waitForState(
  _ app: HeadlessApp, _ what: String, seconds: Int64 = 30,
  until done: ([String: Any]) throws -> Bool
) throws -> [String: Any] {
  let clock = ContinuousClock()
  let deadline = clock.now + .seconds(seconds)
  var last: [String: Any] = [:]
  while clock.now < deadline {
    last = try app.state()
    if try done(last) { return last }
  }
  throw HeadlessError("timed out after \(seconds) s waiting for \(what); last state: \(last)")
}

/// The cached table files under the app's XDG_CACHE_HOME: `(table, signature)` paths.
func cachedFiles(_ app: HeadlessApp) -> [(table: String, signature: String)] {
  let directory = app.root + "/cache/appshell/tables"
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  return names.filter { $0.hasSuffix(".json") }.sorted().map {
    (directory + "/" + $0, directory + "/" + $0 + ".sig")
  }
}

func contents(_ path: String) -> [UInt8]? {
  FileManager.default.contents(atPath: path).map { [UInt8]($0) }
}
