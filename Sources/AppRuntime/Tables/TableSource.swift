import Foundation
import Interface
import Routing
import Shell
import Signing

/// Where the app's route table comes from (`--routes FILE_OR_URL`), and reading it again.
///
/// - A file (the shipped `Screens/routes.json` or one given with `--routes`) is read as is.
/// - An `http://` or `https://` URL is downloaded together with its detached signature (the
///   same URL with `.sig` added to the path), which must verify against the configured
///   Ed25519 public key, and the table must carry a `version`. A good download is cached on
///   disk; when a download fails at start, the cached copy is used, and with neither, the
///   shipped table.
package struct TableSource {
  /// Where the table is read from.
  package enum Location: Equatable {
    /// A file; `shipped` when it is the app's own `Screens/routes.json`.
    case file(String, shipped: Bool)
    /// A table served over HTTP(S).
    case remote(URL)
  }

  /// Builds the app around a table, checking that the table fits it (guards, tab roots); the
  /// one check a table gets before it is put in force.
  typealias Make = (RouteTable) throws(LoadError) -> ShellApp

  /// A table read and checked, not yet in force.
  struct Candidate {
    /// The table.
    var table: RouteTable
    /// The app built around it.
    var app: ShellApp
    /// Where it came from, for the status line: a path, a URL, "the cache of URL".
    var description: String
    /// The downloaded bytes and signature to cache once the table is in force.
    var download: (table: [UInt8], signature: [UInt8])?
  }

  let location: Location
  /// The key remote tables must be signed with.
  let key: Ed25519PublicKey?
  /// The disk cache of downloaded tables.
  let cache: TableCache
  /// The shipped table, the fallback for a remote table.
  let shippedPath: String
  /// The app's directory: a reload reads its `app.json` and screens again too.
  package var appDirectory: String? = nil

  /// A source that reads `location`, verifies remote tables with `key`, keeps downloads in
  /// `cache` and falls back to the table at `shippedPath`.
  package init(location: Location, key: Ed25519PublicKey?, cache: TableCache, shippedPath: String) {
    self.location = location
    self.key = key
    self.cache = cache
    self.shippedPath = shippedPath
  }

  /// How the source reads in messages.
  var description: String {
    switch location {
    case .file(let path, let shipped): return shipped ? "the shipped table" : path
    case .remote(let url): return url.absoluteString
    }
  }

  /// Whether the table is the app directory's own `routes.json`.
  var isOwnTable: Bool {
    if case .file(let path, _) = location { return path == shippedPath }
    return false
  }

  /// The app file to watch for changes: `app.json` of a directory given with `--screens`.
  var watchedAppFile: String? {
    guard let appDirectory else { return nil }
    if case .file(_, true) = location { return nil }
    return appDirectory + "/app.json"
  }

  /// The file to watch for changes: a file given with `--routes`.
  var watchedFile: String? {
    if case .file(let path, false) = location { return path }
    return nil
  }

  /// Reads the table for start-up. A file that cannot be used is an error; a remote table
  /// falls back to the cache, then to the shipped table, and says so in the returned note.
  /// `make` builds the app around a table.
  func initial(make: Make) throws(LoadError) -> (Candidate, note: String?) {
    guard case .remote(let url) = location else {
      guard case .file(let path, _) = location else { fatalError("unreachable") }
      let table = try AppLoader.loadTable(path: path)
      return (
        Candidate(table: table, app: try make(table), description: description, download: nil),
        nil
      )
    }
    let cached = readCache(url, make: make)
    switch download(url, make: make) {
    case .success(let fresh):
      if case .success(let old) = cached, let oldVersion = old.table.version,
        oldVersion > fresh.table.version ?? 0
      {
        return (
          old,
          "Refused the downloaded route table v\(fresh.table.version ?? 0): older than the cached v\(oldVersion); using the cache"
        )
      }
      commit(fresh)
      return (fresh, nil)
    case .failure(let problem):
      if case .success(let old) = cached {
        return (
          old,
          "Using the cached route table v\(old.table.version ?? 0): the download could not be used (\(problem))"
        )
      }
      let shipped = try AppLoader.loadTable(path: shippedPath)
      var reason = "the download could not be used (\(problem))"
      if case .failure(let cacheProblem) = cached, !cacheProblem.isMissing {
        reason += " and the cache was refused (\(cacheProblem))"
      }
      return (
        Candidate(
          table: shipped, app: try make(shipped), description: "the shipped table",
          download: nil),
        "Using the shipped route table: \(reason)"
      )
    }
  }

  /// Reads the table again for a reload and builds the app around it with `make`; the error
  /// says why it cannot be used.
  func reload(make: Make) -> Result<Candidate, SourceProblem> {
    switch location {
    case .file(let path, _):
      do throws(LoadError) {
        let table = try AppLoader.loadTable(path: path)
        return .success(
          Candidate(table: table, app: try make(table), description: description, download: nil))
      } catch {
        return .failure(SourceProblem("\(error)"))
      }
    case .remote(let url):
      return download(url, make: make)
    }
  }

  /// Reads the table again and puts it in force in `console` (and the cache), or notes why
  /// not; the table in force stays on any failure. Returns where the new table came from.
  @discardableResult
  package func reload(into console: inout Console) -> String? {
    if let appDirectory {
      let maker: AppMaker
      do {
        maker = try AppLoader.appMaker(directory: appDirectory)
      } catch {
        console.refuseApp("\(error)")
        return nil
      }
      switch reload(make: isOwnTable ? maker.own : maker.callAsFunction) {
      case .success(let candidate):
        guard console.replaceApp(candidate.app, from: candidate.description) else { return nil }
        commit(candidate)
        return candidate.description
      case .failure(let problem):
        console.refuseTable(problem.description)
        return nil
      }
    }
    let app = console.app
    let isOwnTable = isOwnTable
    let make: Make = { table throws(LoadError) in
      var candidate = app
      candidate.table = table
      do {
        try candidate.validate()
        if isOwnTable { try candidate.validateTargets() }
      } catch {
        throw LoadError("\(error)")
      }
      return candidate
    }
    switch reload(make: make) {
    case .success(let candidate):
      guard console.replaceTable(checked: candidate.app, from: candidate.description) else {
        return nil
      }
      commit(candidate)
      return candidate.description
    case .failure(let problem):
      console.refuseTable(problem.description)
      return nil
    }
  }

  /// Keeps a downloaded table that is now in force in the cache.
  func commit(_ candidate: Candidate) {
    guard case .remote(let url) = location, let download = candidate.download else { return }
    cache.store(url: url.absoluteString, table: download.table, signature: download.signature)
  }

  /// Downloads, verifies and reads the table at `url`.
  private func download(_ url: URL, make: Make) -> Result<
    Candidate, SourceProblem
  > {
    let bytes: [UInt8]
    let signature: [UInt8]
    // One deadline for the table and its signature together.
    let deadline = ContinuousClock.now + HTTPFetcher.timeout
    switch HTTPFetcher.fetch(url, deadline: deadline) {
    case .success(let body): bytes = body
    case .failure(let error): return .failure(SourceProblem(error.description))
    }
    let signatureURL = Self.signatureURL(of: url)
    switch HTTPFetcher.fetch(signatureURL, deadline: deadline) {
    case .success(let body): signature = body
    case .failure(let error):
      return .failure(SourceProblem("unsigned: no signature at \(error.description)"))
    }
    return check(
      bytes, signature: signature, from: url.absoluteString, make: make
    ).map { table, app in
      Candidate(
        table: table, app: app, description: url.absoluteString, download: (bytes, signature))
    }
  }

  /// The cached copy of `url`'s table, verified again (the cache may have been tampered with).
  private func readCache(_ url: URL, make: Make) -> Result<
    Candidate, SourceProblem
  > {
    guard let (bytes, signature) = cache.load(url: url.absoluteString) else {
      return .failure(SourceProblem("no cached copy", isMissing: true))
    }
    return check(bytes, signature: signature, from: "the cache", make: make).map { table, app in
      Candidate(
        table: table, app: app, description: "the cache of \(url.absoluteString)", download: nil)
    }
  }

  /// Verifies the signature, then reads the table and builds the app around it.
  private func check(
    _ bytes: [UInt8], signature file: [UInt8], from place: String,
    make: Make
  ) -> Result<(RouteTable, ShellApp), SourceProblem> {
    guard let key else {
      return .failure(SourceProblem("\(place): no public key to verify remote tables with"))
    }
    let signature: [UInt8]
    do {
      signature = try DetachedSignature.decode(file)
    } catch {
      return .failure(SourceProblem("\(place): bad signature file: \(error)"))
    }
    guard key.verify(signature: signature, message: bytes) else {
      return .failure(
        SourceProblem(
          "\(place): the signature does not verify with key \(key.fingerprint) (tampered with, or signed with another key)"
        ))
    }
    let table: RouteTable
    let app: ShellApp
    do {
      table = try RouteTable(json: bytes)
      app = try make(table)
    } catch {
      return .failure(SourceProblem("\(place): \(error)"))
    }
    guard table.version != nil else {
      return .failure(SourceProblem("\(place): a remote table must carry a \"version\""))
    }
    return .success((table, app))
  }

  /// Where a table's detached signature is served: the table's URL with `.sig` added to the
  /// path (the query, if any, stays).
  static func signatureURL(of url: URL) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return url.appendingPathExtension("sig")
    }
    components.percentEncodedPath += ".sig"
    return components.url ?? url.appendingPathExtension("sig")
  }
}

/// Why a table cannot be used.
struct SourceProblem: Error, CustomStringConvertible {
  /// What is wrong, with where.
  var description: String
  /// Only that there is nothing (no cached copy): not worth mentioning.
  var isMissing = false

  init(_ description: String, isMissing: Bool = false) {
    self.description = description
    self.isMissing = isMissing
  }
}

/// Downloaded tables kept on disk (`$XDG_CACHE_HOME/appshell/tables`, else
/// `~/.cache/appshell/tables`), one table and signature per URL, named by the URL's SHA-256.
package struct TableCache {
  /// The cache directory.
  let directory: String

  /// The cache directory for this user, from the environment.
  package static func current() -> TableCache {
    let environment = ProcessInfo.processInfo.environment
    let base: String
    if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
      base = cache
    } else {
      base = (environment["HOME"] ?? NSTemporaryDirectory()) + "/.cache"
    }
    return TableCache(directory: base + "/appshell/tables")
  }

  private func paths(_ url: String) -> (table: String, signature: String) {
    let name = directory + "/" + Digest.sha256Hex(Array(url.utf8))
    return (name + ".json", name + ".json.sig")
  }

  /// The cached table and signature of `url`, if both are there.
  func load(url: String) -> (table: [UInt8], signature: [UInt8])? {
    let (tablePath, signaturePath) = paths(url)
    guard let table = FileManager.default.contents(atPath: tablePath),
      let signature = FileManager.default.contents(atPath: signaturePath)
    else { return nil }
    return ([UInt8](table), [UInt8](signature))
  }

  /// Keeps a table and its signature (written to temporary files, then renamed into place).
  func store(url: String, table: [UInt8], signature: [UInt8]) {
    let manager = FileManager.default
    try? manager.createDirectory(
      atPath: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    let (tablePath, signaturePath) = paths(url)
    for (path, bytes) in [(signaturePath, signature), (tablePath, table)] {
      let temporary = path + ".tmp-\(getpid())"
      guard manager.createFile(atPath: temporary, contents: Data(bytes)) else { continue }
      if rename(temporary, path) != 0 { unlink(temporary) }
    }
  }
}
