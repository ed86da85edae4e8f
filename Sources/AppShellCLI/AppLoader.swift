import Foundation
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
    // Sources/AppShellCLI/AppLoader.swift -> the package root.
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
    do {
      return try RouteTable(json: bytes)
    } catch {
      throw LoadError("\(file): \(error)")
    }
  }

  /// Reads the table at `path` for inspection (`appshell routes`): a table that cannot be read
  /// is an error, but conflicts and parent problems are listed rather than refused.
  package static func inspectTable(path: String) throws(LoadError) -> RouteTableInspection {
    let bytes = try read(path, what: "route table")
    do {
      return try RouteTable.inspect(json: bytes)
    } catch {
      throw LoadError("\(path): \(error)")
    }
  }

  /// Reads every `*.json` screen file of a directory except `routes.json`, in name order; one
  /// bad file refuses them all with `FILE: field: problem`. A file's `name` must be its file
  /// name.
  package static func loadScreens(directory: String) throws(LoadError) -> [ScreenDefinition] {
    let files: [String]
    do {
      files = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".json") && $0 != "routes.json" }.sorted()
    } catch {
      throw LoadError("\(directory): cannot list the screens directory")
    }
    var definitions: [ScreenDefinition] = []
    for file in files {
      let path = directory + "/" + file
      let bytes = try read(path, what: "screen file")
      let json: JSON
      do {
        json = try JSON.parse(bytes)
      } catch {
        throw LoadError("\(path): invalid JSON: \(error)")
      }
      let definition: ScreenDefinition
      do {
        definition = try ScreenDefinition(json: json)
      } catch {
        throw LoadError("\(path): \(error)")
      }
      let expected = String(file.dropLast(".json".count))
      guard definition.name == expected else {
        throw LoadError(
          "\(path): name: \(JSON.quote(definition.name)) must be the file name \(JSON.quote(expected))"
        )
      }
      definitions.append(definition)
    }
    return definitions
  }

  /// The app from a screens directory (default: the shipped one) and a route table (default:
  /// the directory's `routes.json`).
  package static func loadApp(screens: String?, routes: String?) throws(LoadError) -> ShellApp {
    let directory = screens ?? shippedScreensDirectory()
    let table = try loadTable(path: routes ?? directory + "/routes.json")
    let definitions = try loadScreens(directory: directory)
    do {
      return try StandardApp.make(table: table, screens: definitions)
    } catch {
      throw LoadError("\(routes ?? directory + "/routes.json"): \(error)")
    }
  }

  private static func read(_ file: String, what: String) throws(LoadError) -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
      throw LoadError("\(file): no such \(what)")
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

  init(_ description: String) { self.description = description }
}
