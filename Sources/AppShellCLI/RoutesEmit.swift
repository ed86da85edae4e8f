import AppRuntime
import Foundation
import Platform
import RouteCodegen
import Routing
import Shell

/// `appshell routes --emit swift`: the table's destinations as a Swift `TypedRoute` enum.
struct RoutesEmit {
  var typeName = "AppRoute"
  var isPublic = false
  var output: String?

  /// Reads `--type-name`, `--access` or `--output`: nil when read, else the problem (empty when
  /// `options` has it).
  mutating func take(_ option: String, from options: inout Options) -> String? {
    guard let value = options.value(for: option) else { return "" }
    switch option {
    case "--type-name":
      guard SwiftNames.upperCamelCase(value) == value, !value.hasPrefix("_") else {
        return "--type-name must be a Swift type name such as AppRoute, not '\(value)'"
      }
      typeName = value
    case "--access":
      guard value == "public" || value == "internal" else {
        return "--access must be public or internal, not '\(value)'"
      }
      isPublic = value == "public"
    default:
      output = value
    }
    return nil
  }

  /// Writes the source for the table (the app's, or `routes`), with the data screens' declared
  /// parameters when the table is the screens directory's own or `--screens` is given.
  func run(directory: String, routes: String?, screensGiven: Bool, io: CommandIO) -> Int32 {
    let path = routes ?? directory + "/routes.json"
    let source: String
    do {
      let table = try AppLoader.loadTable(path: path)
      var declared: [String: [String: DeclaredParameter]] = [:]
      if routes == nil || screensGiven {
        for screen in try AppLoader.loadScreens(
          directory: directory, excluding: AppLoader.linkFiles(directory: directory))
        {
          declared[screen.name] = screen.params.mapValues {
            DeclaredParameter(type: $0.type, required: $0.required)
          }
        }
      }
      let name = URL(fileURLWithPath: path).lastPathComponent
      do {
        source = try SwiftEmitter(typeName: typeName, isPublic: isPublic, tableName: name)
          .source(for: table, declared: declared)
      } catch {
        throw LoadError("\(path): \(error)")
      }
    } catch {
      io.writeError("appshell routes: \(error)\n")
      return 2
    }
    guard let output else {
      io.write(Array(source.utf8))
      return 0
    }
    guard FileManager.default.createFile(atPath: output, contents: Data(source.utf8)) else {
      let reason = FileProblem.writing(output) ?? "cannot be written"
      io.writeError("appshell routes: \(output): \(reason)\n")
      return 2
    }
    return 0
  }
}
