import Routing

/// The shipped app: its tabs, Swift screens, actions and guards, around a route table and the
/// data screens of `Screens/`.
public enum StandardApp {
  /// The app's version (`appshell --version`), compared with routes' `minVersion`.
  public static let version = "1.0.0"

  /// Home, Orders and Me, in this order (SHELL.md section 1).
  public static let tabs = [
    ShellApp.TabSpec(title: "Home", root: "home"),
    ShellApp.TabSpec(title: "Orders", root: "order-list"),
    ShellApp.TabSpec(title: "Me", root: "personal-center"),
  ]

  /// The URL of the login screen, opened by the `signed-in` guard.
  public static let loginURL = "myapp://login"

  /// Builds the app from a table and data screens; refuses a table naming an unknown guard.
  public static func make(table: RouteTable, screens: [ScreenDefinition]) throws(RouteTableError)
    -> ShellApp
  {
    var catalog = ScreenCatalog()
    for definition in screens { catalog.register(definition) }
    BuiltinScreens.register(into: &catalog)
    let app = ShellApp(
      table: table, catalog: catalog, actions: BuiltinActions.all,
      guards: ["signed-in": GuardRule(url: loginURL) { $0.signedIn }],
      tabs: tabs, version: AppVersion(version)!)
    try app.validate()
    return app
  }
}
