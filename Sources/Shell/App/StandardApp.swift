import Routing

/// The shipped app: its tabs, Swift screens, actions and guards, around a route table and the
/// data screens of `Screens/`.
package enum StandardApp {
  /// The app's version (`appshell --version`), compared with routes' `minVersion`.
  package static let version = "1.0.0"

  /// Home, Orders and Me, in this order.
  package static let tabs = [
    ShellApp.TabSpec(title: "Home", root: "home"),
    ShellApp.TabSpec(title: "Orders", root: "order-list"),
    ShellApp.TabSpec(title: "Me", root: "personal-center"),
  ]

  /// The URL of the login screen, opened by the `signed-in` guard.
  package static let loginURL = "myapp://login"

  /// The app's guards by name: `signed-in` opens the login screen.
  package static let guards = ["signed-in": GuardRule(url: loginURL) { $0.signedIn }]

  /// Builds the app from a table and data screens; refuses a table naming an unknown guard.
  package static func make(table: RouteTable, screens: [ScreenDefinition]) throws(RouteTableError)
    -> ShellApp
  {
    let app = assemble(table: table, screens: screens)
    try app.validate()
    return app
  }

  /// The app from a table and data screens, without checking that they fit (for lint, which
  /// reports what does not fit instead: see ``AppLint``).
  package static func assemble(table: RouteTable, screens: [ScreenDefinition]) -> ShellApp {
    var catalog = ScreenCatalog()
    for definition in screens { catalog.register(definition) }
    BuiltinScreens.register(into: &catalog)
    return ShellApp(
      table: table, catalog: catalog, actions: BuiltinActions.all, guards: guards, tabs: tabs,
      version: AppVersion(version)!)
  }
}
