import Foundation
import PackagePlugin

/// Generates a `TypedRoute` enum for each route table of a target: `routes.json` gives
/// `AppRoute`, `NAME.routes.json` gives `NAMERoute` (`shop.routes.json`: `ShopRoute`). The tool
/// depends only on `Routing`; a table that cannot be used fails the build with its error.
@main
struct RoutesPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let target = target as? SourceModuleTarget else { return [] }
    let tool = try context.tool(named: "appshell-routegen")
    return target.sourceFiles.map(\.url).filter {
      $0.lastPathComponent == "routes.json" || $0.lastPathComponent.hasSuffix(".routes.json")
    }.sorted { $0.path < $1.path }.map { table in
      let name = table.lastPathComponent.dropLast(".json".count).replacingOccurrences(
        of: ".", with: "-")
      let output = context.pluginWorkDirectoryURL.appendingPathComponent("\(name).swift")
      return .buildCommand(
        displayName: "Generating the routes of \(table.lastPathComponent)",
        executable: tool.url, arguments: [table.path, output.path], inputFiles: [table],
        outputFiles: [output])
    }
  }
}
