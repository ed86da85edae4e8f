import Routing

extension ShellApp {
  /// Checks that every screen and action the table names is one this app has: for the app's
  /// own table, where a misspelt name is a mistake, not a newer version's screen (a table from
  /// elsewhere may name them: they ask the user to upgrade).
  package func validateTargets() throws(RouteTableError) {
    for entry in table.entries {
      switch entry.target {
      case .screen(let name) where !catalog.has(name):
        throw RouteTableError(
          "routes[\(entry.index)].screen: no screen named \(JSON.quote(name)) in this app"
            + CloseName.hint(for: name, in: catalog.factories.keys.sorted()))
      case .action(let name) where actions[name] == nil:
        throw RouteTableError(
          "routes[\(entry.index)].action: no action named \(JSON.quote(name)) in this app"
            + CloseName.hint(for: name, in: actions.keys.sorted()))
      default: continue
      }
    }
  }
}
