import Foundation
import JSON
import Links
import Platform
import Routing
import Shell

/// Finds and reads the app's files: the `Screens` directory, route tables and screen files.
/// The only place that touches the file system for the app.
package enum AppLoader {
  /// The shipped `Screens` directory: found next to (or above) the running executable, so the
  /// app works whatever directory it is started from; else the source checkout it was built
  /// from; else `./Screens`.
  package static func shippedScreensDirectory() -> String {
    if let directory = AppHost.directory { return directory }
    let fileManager = FileManager.default
    func hasTable(_ directory: String) -> Bool {
      fileManager.fileExists(atPath: directory + "/routes.json")
    }
    if let executable = CurrentProcess.executablePath() {
      var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
      while directory.path != "/" {
        let candidate = directory.appendingPathComponent("Screens").path
        if hasTable(candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
      }
    }
    // Sources/AppRuntime/AppLoader.swift -> the package root.
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Screens")
      .path
    if hasTable(checkout) { return checkout }
    return fileManager.currentDirectoryPath + "/Screens"
  }

  /// Reads and validates the table at `path`, or the shipped one when `path` is nil.
  package static func loadTable(path: String?) throws(LoadError) -> RouteTable {
    let file = path ?? shippedScreensDirectory() + "/routes.json"
    let bytes = try read(file, what: "route table")
    let json = try parse(bytes, file: file, maxDepth: RouteTable.maxDepth)
    do {
      return try RouteTable(document: json.value)
    } catch {
      throw LoadError(json.located("\(error)", file: file))
    }
  }

  /// Reads the table at `path` for inspection (`appshell routes`): a table that cannot be read
  /// is an error, but conflicts and parent problems are listed rather than refused.
  package static func inspectTable(path: String) throws(LoadError) -> RouteTableInspection {
    let bytes = try read(path, what: "route table")
    let json = try parse(bytes, file: path, maxDepth: RouteTable.maxDepth)
    do {
      return try RouteTable.inspect(document: json.value)
    } catch {
      throw LoadError(json.located("\(error)", file: path))
    }
  }

  /// Reads every `*.json` screen file of a directory except `routes.json` and `app.json`, in
  /// name order; one
  /// bad file refuses them all with `FILE: field: problem`. A file's `name` must be its file
  /// name.
  /// Files in `excluding` (the AASA files `links` names) are not screens.
  package static func loadScreens(directory: String, excluding: Set<String> = [])
    throws(LoadError) -> [ScreenDefinition]
  {
    let files: [String]
    do {
      files = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter {
          $0.hasSuffix(".json") && $0 != "routes.json" && $0 != "app.json"
            && !excluding.contains($0)
        }.sorted()
    } catch {
      throw LoadError("\(directory): cannot list the screens directory")
    }
    var definitions: [ScreenDefinition] = []
    for file in files {
      let path = directory + "/" + file
      let bytes = try read(path, what: "screen file")
      let json = try parse(bytes, file: path)
      let definition: ScreenDefinition
      do {
        definition = try ScreenDefinition(json: json.value)
      } catch {
        throw LoadError(json.located("\(error)", file: path))
      }
      let expected = String(file.dropLast(".json".count))
      guard definition.name == expected else {
        throw LoadError(
          json.located(
            "name: \(JSON.quote(definition.name)) must be the file name \(JSON.quote(expected))",
            file: path))
      }
      definitions.append(definition)
    }
    return definitions
  }

  /// The app from a screens directory (default: the shipped one) and a route table (default:
  /// the directory's `routes.json`).
  ///
  /// `checkingTargets: false` reads the app's own table as any other: its screens and actions
  /// need not exist (the link-surface commands describe what a table's URLs reach).
  package static func loadApp(screens: String?, routes: String?, checkingTargets: Bool = true)
    throws(LoadError) -> ShellApp
  {
    let directory = screens ?? shippedScreensDirectory()
    try checkDirectory(directory)
    let own = directory + "/routes.json"
    let table = try loadTable(path: routes ?? own)
    let maker = try appMaker(directory: directory)
    return try (routes ?? own) == own && checkingTargets ? maker.own(table) : maker(table)
  }

  /// Refuses an app directory that cannot be read: `--screens DIR: No such file or directory`.
  package static func checkDirectory(_ directory: String) throws(LoadError) {
    if let problem = FileProblem.reading(directory) {
      throw LoadError("--screens \(directory): \(problem)")
    }
  }

  /// Reads a directory's `app.json` and data screens, and returns what builds the app around
  /// a route table.
  package static func appMaker(directory: String, registry given: AppRegistry? = nil)
    throws(LoadError) -> AppMaker
  {
    try checkDirectory(directory)
    let screens = try loadScreens(directory: directory, excluding: linkFiles(directory: directory))
    let definition = try loadDefinition(directory: directory)
    let registry = given ?? registry(for: definition)
    return AppMaker(directory: directory) { table throws(LoadError) in
      do {
        return try definition.makeApp(table: table, screens: screens, registry: registry)
      } catch {
        throw LoadError(located("\(error)", directory: directory))
      }
    }
  }

  /// Reads and checks a directory's `app.json`.
  package static func loadDefinition(directory: String) throws(LoadError) -> AppDefinition {
    let path = directory + "/app.json"
    guard FileManager.default.fileExists(atPath: path) else {
      throw LoadError(
        "\(path): no app.json: add one that names the app, its version and its tabs "
          + "(docs/app.md); `appshell init DIR` writes a small app with one")
    }
    let bytes = try read(path, what: "app file")
    let json = try parse(bytes, file: path)
    var definition: AppDefinition
    do {
      definition = try AppDefinition(json: json.value)
    } catch {
      throw LoadError(json.located(error.member, file: path))
    }
    if let links = definition.links {
      definition.linkPolicy = try linkPolicy(links, directory: directory)
    }
    return definition
  }

  /// The AASA files a directory's `app.json` names under `links.aasa`, which are not screen
  /// files; empty when `app.json` cannot be read (``loadDefinition(directory:)`` says why).
  package static func linkFiles(directory: String) -> Set<String> {
    guard let bytes = try? read(directory + "/app.json", what: "app file"),
      case .object(let members)? = (try? JSON.parse(bytes))?["links"]?["aasa"]
    else { return [] }
    return Set(
      members.compactMap { member in
        if case .string(let file) = member.value { return file }
        return nil
      })
  }

  /// Reads the files `links` names (Info.plist, entitlements, AASA files) into the policy
  /// that decides who gets a URL from outside; a missing or invalid file is named with the
  /// member and the problem.
  package static func linkPolicy(_ links: LinksDefinition, directory: String) throws(LoadError)
    -> LinkPolicy
  {
    func path(_ file: String) -> String {
      file.hasPrefix("/") ? file : prefixed(file, directory: directory)
    }
    func propertyList(_ file: String, member: String) throws(LoadError) -> PropertyList {
      let bytes = try read(path(file), what: "property list (app.json: \(member))")
      do {
        return try PropertyList.read(bytes)
      } catch {
        throw LoadError(lineColumnLocated("\(error)", file: path(file)))
      }
    }
    var schemes = links.schemes
    if let file = links.infoPlist {
      let list = try propertyList(file, member: "links.infoPlist")
      do {
        schemes += try LinksDefinition.schemes(infoPlist: list)
      } catch {
        throw LoadError("\(path(file)): \(error)")
      }
    }
    var domains = links.domains
    if let file = links.entitlements {
      let list = try propertyList(file, member: "links.entitlements")
      do {
        domains += try LinksDefinition.domains(entitlements: list)
      } catch {
        throw LoadError("\(path(file)): \(error)")
      }
    }
    var documents: [String: (file: String, document: AASADocument)] = [:]
    for (host, file) in links.aasa {
      let bytes = try read(path(file), what: "AASA file (app.json: links.aasa.\(JSON.quote(host)))")
      let json = try parse(bytes, file: path(file))
      do {
        documents[host] = (file, try AASADocument(json: json.value))
      } catch {
        throw LoadError(json.located("\(error)", file: path(file)))
      }
    }
    return LinkPolicy(appID: links.appID, schemes: schemes, domains: domains, aasa: documents)
  }

  /// The Swift screens, actions and guards for an app: a host's own (``AppHost``) for any
  /// directory, else what was registered for the app's name (the shipped demo's, by the
  /// `appshell` executable), else none.
  package static func registry(for definition: AppDefinition) -> AppRegistry {
    if let host = AppHost.registry { return host }
    if AppHost.directory != nil { return AppRegistry() }
    return AppHost.registry(forAppNamed: definition.name) ?? AppRegistry()
  }

  /// `FILE.json: MEMBER: problem` about a file of `directory` as `DIR/FILE.json:LINE:COL:
  /// MEMBER: problem` (only the file's path in front when it cannot be read).
  static func located(_ message: String, directory: String) -> String {
    guard let end = message.range(of: ".json: ") else {
      return prefixed(message, directory: directory)
    }
    let file = prefixed(String(message[..<end.lowerBound]) + ".json", directory: directory)
    guard let bytes = try? read(file, what: "file"), let json = try? parse(bytes, file: file)
    else { return prefixed(message, directory: directory) }
    return json.located(String(message[end.upperBound...]), file: file)
  }

  /// `app.json: ...` and `NAME.json: ...` with the directory in front.
  private static func prefixed(_ message: String, directory: String) -> String {
    directory.hasSuffix("/") ? directory + message : directory + "/" + message
  }

  /// A file's JSON with where its values are written; a syntax error is
  /// `FILE:LINE:COL: invalid JSON: ...`.
  static func parse(_ bytes: [UInt8], file: String, maxDepth: Int = 64) throws(LoadError)
    -> JSONLocated
  {
    do {
      return try JSON.parseLocated(bytes, maxDepth: maxDepth)
    } catch {
      throw LoadError("\(file):\(error.line):\(error.column): invalid JSON: \(error.message)")
    }
  }

  /// `line 4, column 3: problem` (a property list's error) as `FILE:4:3: problem`; another
  /// message as `FILE: message`.
  static func lineColumnLocated(_ message: String, file: String) -> String {
    let parts = message.split(separator: " ", maxSplits: 4)
    if parts.count == 5, parts[0] == "line", parts[2] == "column", parts[1].last == ",",
      parts[3].last == ":", let line = Int(parts[1].dropLast()),
      let column = Int(parts[3].dropLast())
    {
      return "\(file):\(line):\(column): \(parts[4])"
    }
    return "\(file): \(message)"
  }

  private static func read(_ file: String, what: String) throws(LoadError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
      throw LoadError(
        "\(file): cannot read the \(what): \(FileProblem.reading(file) ?? "not a file")")
    }
    guard !isDirectory.boolValue else { throw LoadError("\(file): is a directory, not a \(what)") }
    // At most one byte over the largest table, so /dev/zero or a huge file is refused
    // without reading it all.
    guard let handle = FileHandle(forReadingAtPath: file) else {
      throw LoadError("\(file): cannot read the \(what)")
    }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: RouteTable.maxBytes + 1) ?? Data() else {
      throw LoadError("\(file): cannot read the \(what)")
    }
    guard data.count <= RouteTable.maxBytes else {
      throw LoadError("\(file): larger than \(RouteTable.maxBytes) bytes")
    }
    return [UInt8](data)
  }
}

/// App files that could not be loaded: the file, the field and the problem.
package struct LoadError: Error, CustomStringConvertible {
  /// `FILE: field: problem`.
  package var description: String

  package init(_ description: String) { self.description = description }
}

/// Builds an app around a route table (the table changes on reload; the rest was read once).
package struct AppMaker: Sendable {
  /// The app's directory.
  let directory: String
  let make: @Sendable (RouteTable) throws(LoadError) -> ShellApp

  init(
    directory: String, _ make: @escaping @Sendable (RouteTable) throws(LoadError) -> ShellApp
  ) {
    self.directory = directory
    self.make = make
  }

  /// The app around `table`.
  package func callAsFunction(_ table: RouteTable) throws(LoadError) -> ShellApp {
    try make(table)
  }

  /// The app around its own table (the directory's `routes.json`), which may name only
  /// screens and actions the app has.
  package func own(_ table: RouteTable) throws(LoadError) -> ShellApp {
    let app = try make(table)
    do {
      try app.validateTargets()
    } catch {
      throw LoadError(AppLoader.located("routes.json: \(error)", directory: directory))
    }
    return app
  }
}
