import Routing

/// The shipped demo: `Screens/app.json` (tabs, the `signedIn` flag, the `signed-in` guard,
/// signing in and out) plus its Swift screens and actions, registered by name.
package enum StandardApp {
  /// The app's version (`appshell --version`), as `Screens/app.json` has it.
  package static let version = "1.0.0"

  /// Home, Orders and Me, in this order, by their root screens.
  package static let tabs = [
    ShellApp.TabSpec(title: "Home", root: "home"),
    ShellApp.TabSpec(title: "Orders", root: "order-list"),
    ShellApp.TabSpec(title: "Me", root: "personal-center"),
  ]

  /// The URL of the login screen, opened by the `signed-in` guard.
  package static let loginURL = "myapp://login"

  /// The demo's flags: signed out at start.
  package static let flags = Flags([("signedIn", .bool(false))])

  /// The app's guards by name: `signed-in` opens the login screen.
  package static let guards = ["signed-in": GuardRule(url: loginURL) { $0.signedIn }]

  /// Signing in and out, as `Screens/app.json` defines them.
  package static let dataActions: [String: DataAction] = [
    "sign-in": DataAction(
      set: [.init(name: "signedIn", value: .bool(true))],
      status: TextTemplate(verbatim: "Signed in")),
    "sign-out": DataAction(
      set: [.init(name: "signedIn", value: .bool(false))],
      status: TextTemplate(verbatim: "Signed out")),
  ]

  /// The demo's Swift screens and actions, by name. They belong to the shipped demo only.
  package static var registry: AppRegistry {
    var registry = AppRegistry()
    BuiltinScreens.register(into: &registry.catalog)
    for (name, handler) in BuiltinActions.all.sorted(by: { $0.key < $1.key }) {
      registry.action(name, handler)
    }
    return registry
  }

  /// The demo from a table and data screens, without reading `Screens/app.json` (for tests
  /// whose tables lack the tab roots' routes); refuses a table naming an unknown guard.
  package static func make(table: RouteTable, screens: [ScreenDefinition]) throws(RouteTableError)
    -> ShellApp
  {
    let app = assemble(table: table, screens: screens)
    try app.validate()
    return app
  }

  /// The demo from a table and data screens, without checking that they fit (for lint, which
  /// reports what does not fit instead: see ``AppLint``).
  package static func assemble(table: RouteTable, screens: [ScreenDefinition]) -> ShellApp {
    var catalog = ScreenCatalog()
    for definition in screens { catalog.register(definition) }
    BuiltinScreens.register(into: &catalog)
    var actions = BuiltinActions.all
    for (name, action) in dataActions { actions[name] = action.handler(named: name) }
    return ShellApp(
      table: table, catalog: catalog, actions: actions, guards: guards, tabs: tabs,
      version: AppVersion(version)!, dataActions: dataActions, flags: flags)
  }
}
