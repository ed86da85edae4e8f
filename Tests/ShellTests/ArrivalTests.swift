import Routing
import TestSupport
import Testing

@testable import Shell

/// Where a screen from outside lands: `tab` selects its tab first, `arrival` resets the stack
/// or reuses a screen already in it.
@Suite struct ArrivalTests {
  static let extraRoutes = """
      {"pattern":"myapp://track/<int:id>","screen":"order-detail","rename":{"id":"orderid"},"parent":"myapp://orders","tab":"Orders","arrival":"reset"},
      {"pattern":"myapp://visit/<int:id>","screen":"order-detail","rename":{"id":"orderid"},"arrival":"reuse"},
      {"pattern":"myapp://me/settings","screen":"settings","tab":"Me"},
      {"pattern":"myapp://me/picker","screen":"address-picker","presentation":"present","tab":"Me"},
      {"pattern":"myapp://go/track/:id","redirect":"myapp://track/:id"},
      {"pattern":"myapp://deep/<int:n>","screen":"settings","parent":"myapp://orders/5","arrival":"reset"},
    """

  static func table(_ extra: String = extraRoutes) throws -> RouteTable {
    try RouteTable(
      json: FixtureApp.routes("shell").replacingOccurrences(
        of: "{\"routes\":[", with: "{\"routes\":[" + extra)
    )
  }

  static func harness() throws -> Harness {
    Harness(app: try FixtureApp.demo(table: try table(), screens: FixtureApp.screens("shell")))
  }

  @Test func tabAndResetFromOutside() throws {
    var harness = try Self.harness()
    harness.open("myapp://orders/1")
    harness.open("myapp://settings")
    harness.open("myapp://track/5", from: .external)
    #expect(harness.state.selectedTab == 1)
    #expect(harness.names(tab: 1) == ["order-list", "order-detail"])
    #expect(harness.state.topScreen.params == ["orderid": .int(5)])
    #expect(harness.names(tab: 0) == ["home", "order-detail", "settings"])
    let entry = try #require(harness.model.log.last)
    #expect(entry.landing == "switched to Orders, reset")
    #expect(entry.outcome == .pushed("order-detail"))
  }

  @Test func resetThrowsAwayTheTabsStackAndNeverRepeatsTheRoot() throws {
    var harness = try Self.harness()
    harness.send(.tabSelected(1))
    harness.open("myapp://orders/1")
    harness.open("myapp://settings")
    harness.open("myapp://track/5", from: .external)
    #expect(harness.names(tab: 1) == ["order-list", "order-detail"])
    #expect(harness.model.log.last?.landing == "reset")
  }

  @Test func resetWithoutTabActsOnTheStackOnTopWithTheParentChain() throws {
    var harness = try Self.harness()
    harness.open("myapp://about")
    harness.open("myapp://deep/3", from: .external)
    #expect(harness.names(tab: 0) == ["home", "order-list", "order-detail", "settings"])
  }

  @Test func tabDismissesModalsAndTheAlert() throws {
    var harness = try Self.harness()
    harness.open("myapp://login")
    harness.open("myapp://nowhere")
    #expect(harness.state.alert != nil)
    harness.open("myapp://track/7", from: .banner)
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.alert == nil)
    #expect(harness.state.selectedTab == 1)
    #expect(harness.model.log.last?.landing == "dismissed the modals, switched to Orders, reset")
  }

  @Test func reusePopsBackToTheSameScreen() throws {
    var harness = try Self.harness()
    harness.open("myapp://orders/7")
    harness.open("myapp://settings")
    harness.open("myapp://visit/7", from: .external)
    #expect(harness.names(tab: 0) == ["home", "order-detail"])
    let entry = try #require(harness.model.log.last)
    #expect(entry.landing == "reused")
    #expect(entry.outcome == .alreadyShown("order-detail"))
    harness.open("myapp://visit/8", from: .external)
    #expect(harness.names(tab: 0) == ["home", "order-detail", "order-detail"])
    #expect(harness.model.log.last?.outcome == .pushed("order-detail"))
  }

  @Test func presentedRouteWithTabSelectsThenPresents() throws {
    var harness = try Self.harness()
    harness.open("myapp://me/picker", from: .external)
    #expect(harness.state.selectedTab == 2)
    #expect(harness.modalNames == [["address-picker"]])
    #expect(harness.model.log.last?.outcome == .presented("address-picker"))
  }

  @Test func fromInsideTheAppTabAndArrivalDoNothing() throws {
    var harness = try Self.harness()
    harness.open("myapp://track/5")
    #expect(harness.state.selectedTab == 0)
    #expect(harness.names(tab: 0) == ["home", "order-detail"])
    #expect(harness.model.log.last?.landing == nil)
  }

  @Test func tabOfTheFinalRouteAfterRedirects() throws {
    var harness = try Self.harness()
    harness.open("myapp://go/track/9", from: .external)
    #expect(harness.state.selectedTab == 1)
    #expect(harness.names(tab: 1) == ["order-list", "order-detail"])
  }

  @Test func coldStartLandsOnTheTab() throws {
    var harness = try Self.harness()
    harness.send(.launchedWithURL("myapp://me/settings"))
    #expect(harness.state.selectedTab == 2)
    #expect(harness.names(tab: 2) == ["personal-center", "settings"])
    #expect(harness.names(tab: 0) == ["home"])
    harness = try Self.harness()
    harness.send(.launchedWithURL("myapp://track/3"))
    #expect(harness.names(tab: 1) == ["order-list", "order-detail"])
    #expect(harness.names(tab: 0) == ["home"])
  }

  @Test func unknownTabRefusesTheTable() throws {
    let table = try Self.table(#"{"pattern":"myapp://x","screen":"settings","tab":"Nope"},"#)
    #expect(throws: AppFileError.self) {
      try FixtureApp.demo(table: table, screens: FixtureApp.screens("shell"))
    }
    do {
      _ = try FixtureApp.demo(table: table, screens: FixtureApp.screens("shell"))
    } catch {
      #expect(
        error.description
          == #"routes.json: routes[0].tab: no tab titled "Nope" (this app's tabs: "Home", "Orders", "Me")"#
      )
    }
  }

  @Test func arrivalMustBeKnown() {
    #expect(throws: RouteTableError("routes[0].arrival: must be \"push\", \"reset\" or \"reuse\""))
    {
      try RouteTable(json: #"{"routes":[{"pattern":"a://b","screen":"s","arrival":"pop"}]}"#)
    }
    #expect(throws: RouteTableError("routes[0].tab: must be a non-empty string")) {
      try RouteTable(json: #"{"routes":[{"pattern":"a://b","screen":"s","tab":3}]}"#)
    }
  }
}
