import Demo
import Foundation
import JSON
import Routing
import Testing

@testable import Shell

/// A small app for tests: the shipped demo's `app.json` and Swift screens and actions, data
/// screens made in code, and a table given as text.
enum Fixtures {
  static let routes = """
    {"routes":[
      {"pattern":"myapp://home","screen":"home"},
      {"pattern":"myapp://me","screen":"personal-center"},
      {"pattern":"myapp://orders","screen":"order-list"},
      {"pattern":"myapp://orders/<int:id>","screen":"order-detail","rename":{"id":"orderid"},"parent":"myapp://orders"},
      {"pattern":"myapp://orders/<int:id>/pay","screen":"payment","rename":{"id":"orderid"},"guard":"signed-in","parent":"myapp://orders"},
      {"pattern":"myapp://old/:id","redirect":"myapp://orders/:id"},
      {"pattern":"myapp://user/<username>","screen":"user-profile"},
      {"pattern":"myapp://modal/user/<username>","screen":"user-profile","presentation":"present"},
      {"pattern":"myapp://login","screen":"login","presentation":"present"},
      {"pattern":"myapp://session/sign-in","action":"sign-in","external":false},
      {"pattern":"myapp://session/sign-out","action":"sign-out","external":false},
      {"pattern":"myapp://address-picker","screen":"address-picker","presentation":"present"},
      {"pattern":"myapp://notifications","screen":"notifications"},
      {"pattern":"myapp://about","screen":"about"},
      {"pattern":"myapp://internal","screen":"settings","external":false},
      {"pattern":"myapp://settings","screen":"settings"},
      {"pattern":"myapp://live/:room","screen":"live-room"},
      {"pattern":"myapp://new/:x","screen":"settings","minVersion":"99"},
      {"pattern":"myapp://unknown-action","action":"no-such-action"},
      {"pattern":"XYWAPP://pkdetail/open?pkID=<int:pkID>","screen":"pk-detail"},
      {"pattern":"XYWAPP://pkdetail/like?id=<int:id>","action":"like"},
      {"pattern":"ccf://animal/:name/<float:weight>","notification":"AnimalNotification"},
      {"pattern":"myapp://lookup/:code","action":"lookup-order"},
      {"pattern":"myapp://text/:orderid","screen":"order-detail"},
      {"pattern":"myapp://profile","screen":"user-profile"},
      {"pattern":"myapp://pk/:pkID","screen":"pk-detail"},
      {"pattern":"myapp://weigh/<float:w>","screen":"settings"},
      {"pattern":"myapp://files/*","screen":"settings"},
      {"pattern":"myapp://version/same","screen":"settings","minVersion":"1.0"},
      {"pattern":"myapp://version/patch","screen":"settings","minVersion":"1.0.1"},
      {"pattern":"myapp://version/old","screen":"about","minVersion":"0.9.12"},
      {"pattern":"myapp://older/:id","redirect":"myapp://old/:id"},
      {"pattern":"myapp://broken/:id","redirect":"myapp://nowhere/:id"},
      {"pattern":"myapp://go/internal","redirect":"myapp://internal"},
      {"pattern":"myapp://renamed/:a/:b","screen":"settings","rename":{"a":"b","b":"a"}},
      {"pattern":"myapp://future/orders/<int:id>","screen":"order-detail","rename":{"id":"orderid"},"minVersion":"99","parent":"myapp://orders"},
      {"pattern":"myapp://gone/orders/<int:id>","screen":"no-such-screen","parent":"myapp://orders"},
      {"pattern":"myapp://gone/prefs","screen":"no-such-screen","parent":"myapp://user/alice"},
      {"pattern":"myapp://secret/<int:id>","screen":"order-detail","rename":{"id":"orderid"},"external":false,"parent":"myapp://orders"},
      {"pattern":"myapp://receipt/<int:n>","screen":"settings","parent":"myapp://orders/5"},
      {"pattern":"myapp://prefs","screen":"settings","parent":"myapp://user/alice"},
      {"pattern":"myapp://secure-picker","screen":"address-picker","presentation":"present","guard":"signed-in"},
      {"pattern":"myapp://secure/settings","screen":"settings","guard":"signed-in"}
    ]}
    """

  static func screen(_ json: String) -> ScreenDefinition {
    try! ScreenDefinition(json: try! JSON.parse(json))
  }

  static let screens: [ScreenDefinition] = [
    screen(#"{"name":"home","title":"Home"}"#),
    screen(
      #"{"name":"order-list","title":"Orders","links":[{"label":"Order 1","url":"myapp://orders/1"}]}"#
    ),
    screen(#"{"name":"personal-center","title":"Me"}"#),
    screen(#"{"name":"settings","title":"Settings"}"#),
    screen(
      #"{"name":"login","title":"Sign in","links":[{"label":"Sign in","url":"myapp://session/sign-in"}]}"#
    ),
    screen(
      #"{"name":"user-profile","title":"{{username}}","params":{"username":{"type":"string","required":true}},"links":[{"label":"Orders","url":"myapp://orders"},{"label":"Modal {{username}}","url":"myapp://modal/user/{{username}}"},{"label":"Pick","url":"myapp://address-picker","resultKey":"place"}]}"#
    ),
    screen(
      #"{"name":"payment","title":"Pay {{orderid}}","params":{"orderid":{"type":"int","required":true}}}"#
    ),
    screen(
      #"{"name":"address-picker","title":"Choose","links":[{"label":"A","result":"Road A"},{"label":"B","result":"Road B"},{"label":"More","url":"myapp://settings"}]}"#
    ),
  ]

  static func app() -> ShellApp {
    let table = try! RouteTable(json: routes)
    return try! demo(table: table, screens: screens)
  }

  /// The shipped demo's `Screens/app.json`: tabs, flags, the `signed-in` guard, signing in
  /// and out.
  static let demoDefinition: AppDefinition = {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Screens/app.json")
    return try! AppDefinition(bytes: Array(try! Data(contentsOf: file)))
  }()

  /// The demo as `Screens/app.json` and its Swift part (``DemoApp``) make it, around a table
  /// and data screens; `forLint` leaves out the checks lint reports itself and the tabs the
  /// table has no route for.
  static func demo(table: RouteTable, screens: [ScreenDefinition], forLint: Bool = false)
    throws(AppFileError) -> ShellApp
  {
    try demoDefinition.makeApp(
      table: table, screens: screens, registry: DemoApp.setup.registry, forLint: forLint,
      otherTable: forLint)
  }
}

/// An app and its model, driven by events as the front end would.
struct Harness {
  let app: ShellApp
  var model: AppModel
  /// Every effect returned so far, in order.
  var effects: [Effect] = []

  init(app: ShellApp = Fixtures.app()) {
    self.app = app
    model = app.initialModel()
  }

  var state: ShellState { model.shell }

  @discardableResult
  mutating func send(_ event: ShellEvent) -> [Effect] {
    let produced = app.reduce(&model, event)
    effects += produced
    return produced
  }

  @discardableResult
  mutating func open(_ url: String, from origin: URLOrigin = .prompt) -> [Effect] {
    send(.urlOpened(url, origin: origin))
  }

  /// Follows the first link on the top screen whose label is `label`.
  @discardableResult
  mutating func follow(
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> [Effect] {
    guard let index = state.topScreen.links.firstIndex(where: { $0.label == label }) else {
      Issue.record(
        "no link \(label) on \(state.topScreen.name): \(state.topScreen.links.map(\.label))",
        sourceLocation: sourceLocation)
      return []
    }
    return send(.linkFollowed(index))
  }

  /// The screen names of a tab's stack.
  func names(tab: Int) -> [String] { state.tabs[tab].stack.map(\.name) }

  /// The screen names of each modal's stack, bottom to top.
  var modalNames: [[String]] { state.modals.map { $0.stack.map(\.name) } }
}
