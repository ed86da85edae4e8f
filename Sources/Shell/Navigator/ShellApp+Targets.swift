import JSON
import Routing

extension ShellApp {
  /// Checks that every screen and action the table names is one this app has: for the app's
  /// own table, where a misspelt name is a mistake, not a newer version's screen (a table from
  /// elsewhere may name them: they ask the user to upgrade).
  package func validateTargets() throws(RouteTableError) {
    if let first = targetProblems().first { throw RouteTableError(first.message) }
  }

  /// Each route naming a screen or action this app lacks, with the problem
  /// (`routes[3].screen: no screen named "cupon" in this app; did you mean "coupon"?`). A
  /// route whose `minVersion` is above the app's is the upgrade path, not a problem.
  package func targetProblems() -> [(entry: RouteEntry, message: String)] {
    table.entries.compactMap { entry in
      if let minVersion = entry.minVersion, minVersion > version { return nil }
      switch entry.target {
      case .screen(let name) where !catalog.has(name):
        return (
          entry,
          "routes[\(entry.index)].screen: no screen named \(JSON.quote(name)) in this app"
            + CloseName.hint(for: name, in: catalog.factories.keys.sorted())
        )
      case .action(let name) where actions[name] == nil:
        return (
          entry,
          "routes[\(entry.index)].action: no action named \(JSON.quote(name)) in this app"
            + CloseName.hint(for: name, in: actions.keys.sorted())
        )
      default: return nil
      }
    }
  }
}
