import Routing
import Testing

@testable import Shell

/// A small app for tests: the shipped Swift screens and actions, data screens made in code,
/// and a table given as text.
enum Fixtures {
  static let routes = """
    {"routes":[
      {"pattern":"myapp://home","screen":"home"},
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
      {"pattern":"myapp://text/:orderid","screen":"order-detail"}
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
      #"{"name":"user-profile","title":"{{username}}","params":{"username":{"type":"string","required":true}}}"#
    ),
    screen(
      #"{"name":"payment","title":"Pay {{orderid}}","params":{"orderid":{"type":"int","required":true}}}"#
    ),
    screen(
      #"{"name":"address-picker","title":"Choose","links":[{"label":"A","result":"Road A"},{"label":"B","result":"Road B"}]}"#
    ),
  ]

  static func app() -> ShellApp {
    let table = try! RouteTable(json: routes)
    return try! StandardApp.make(table: table, screens: screens)
  }
}
