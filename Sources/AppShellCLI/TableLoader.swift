import Foundation
import Routing

/// Finds and reads route tables: the shipped `Screens/routes.json` or a file given by the user.
public enum TableLoader {
  /// The shipped `Screens` directory: found next to (or above) the running executable, so the
  /// app works whatever directory it is started from; else the source checkout it was built from;
  /// else `./Screens`.
  public static func shippedScreensDirectory() -> String {
    let fileManager = FileManager.default
    func hasTable(_ directory: String) -> Bool {
      fileManager.fileExists(atPath: directory + "/routes.json")
    }
    if let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
      while directory.path != "/" {
        let candidate = directory.appendingPathComponent("Screens").path
        if hasTable(candidate) { return candidate }
        directory = directory.deletingLastPathComponent()
      }
    }
    // Sources/AppShellCLI/TableLoader.swift -> the package root.
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Screens")
      .path
    if hasTable(checkout) { return checkout }
    return fileManager.currentDirectoryPath + "/Screens"
  }

  /// Reads and validates the table at `path`, or the shipped one when `path` is nil.
  public static func load(path: String?) throws(TableLoadError) -> RouteTable {
    let file = path ?? shippedScreensDirectory() + "/routes.json"
    guard let data = FileManager.default.contents(atPath: file) else {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        throw TableLoadError("\(file): is a directory, not a route table")
      }
      throw TableLoadError("\(file): cannot read the route table (no such file, or no access)")
    }
    do {
      return try RouteTable(json: [UInt8](data))
    } catch {
      throw TableLoadError("\(file): \(error)")
    }
  }
}

/// A route table that could not be loaded: the file and the problem.
public struct TableLoadError: Error, CustomStringConvertible {
  /// `FILE: problem`.
  public var description: String

  init(_ description: String) { self.description = description }
}
