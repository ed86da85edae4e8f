import Demo
import Foundation
import Routing
import Shell

/// The apps tests run, kept as data in `Tests/TestSupport/Apps/NAME/`: `routes.json` (the
/// table) and `screens.json` (the data screens, in order), around the shipped demo's
/// `Screens/app.json` (tabs, flags, the `signed-in` guard) and its Swift screens and actions
/// (``DemoApp``). `front-end` is drawn by the front-end tests (bodies, many links, wide
/// text); `shell` holds the model tests' cases (redirect chains, versions, parents, routes to
/// screens and actions that do not exist).
package enum FixtureApp {
  /// `Tests/TestSupport/Apps`.
  static let apps = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Apps")

  /// The text of app `name`'s `routes.json`.
  package static func routes(_ name: String) -> String {
    String(decoding: bytes(of: name + "/routes.json"), as: UTF8.self)
  }

  /// App `name`'s data screens.
  package static func screens(_ name: String) -> [ScreenDefinition] {
    guard case .array(let screens) = try! JSON.parse(bytes(of: name + "/screens.json")) else {
      fatalError("\(name)/screens.json is not an array")
    }
    return screens.map { try! ScreenDefinition(json: $0) }
  }

  /// A fresh app `name`: its table and screens in the demo.
  package static func app(_ name: String) -> ShellApp {
    try! demo(table: try! RouteTable(json: routes(name)), screens: screens(name))
  }

  /// The shipped demo's `Screens/app.json`.
  package static let demoDefinition: AppDefinition = {
    let file = apps.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Screens/app.json")
    return try! AppDefinition(bytes: Array(try! Data(contentsOf: file)))
  }()

  /// The demo as `Screens/app.json` and its Swift part make it, around `table` and `screens`;
  /// `forLint` leaves out the checks lint reports itself and the tabs the table has no route
  /// for.
  package static func demo(table: RouteTable, screens: [ScreenDefinition], forLint: Bool = false)
    throws(AppFileError) -> ShellApp
  {
    try demoDefinition.makeApp(
      table: table, screens: screens, registry: DemoApp.setup.registry, forLint: forLint,
      otherTable: forLint)
  }

  private static func bytes(of path: String) -> [UInt8] {
    Array(try! Data(contentsOf: apps.appendingPathComponent(path)))
  }
}
