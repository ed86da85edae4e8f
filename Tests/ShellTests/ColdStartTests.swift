import Routing
import Testing

@testable import Shell

/// Cold start with `--open URL`: the `parent` chain is pushed first.
@Suite struct ColdStartTests {
  @Test func parentThatIsATabRootSelectsThatTab() throws {
    var harness = Harness()
    harness.send(.launchedWithURL("myapp://orders/5"))
    #expect(harness.state.selectedTab == 1)
    #expect(harness.names(tab: 1) == ["order-list", "order-detail"])
    #expect(harness.names(tab: 0) == ["home"])
    #expect(harness.names(tab: 2) == ["personal-center"])
    let entry = try #require(harness.model.log.last)
    #expect(entry.origin == .coldStart)
    #expect(entry.url == "myapp://orders/5")
    #expect(entry.outcome == .pushed("order-detail"))
    harness.send(.backRequested)
    #expect(harness.state.topScreen.name == "order-list")
  }

  @Test func parentChainIsPushedRootMostFirst() {
    var harness = Harness()
    harness.send(.launchedWithURL("myapp://receipt/3"))
    #expect(harness.state.selectedTab == 1)
    #expect(harness.names(tab: 1) == ["order-list", "order-detail", "settings"])
    #expect(harness.state.tabs[1].stack[1].params == ["orderid": .int(5)])
    #expect(harness.state.topScreen.params == ["n": .int(3)])
  }

  @Test func parentThatIsNotATabRootIsPushedOnTheSelectedTab() {
    var harness = Harness()
    harness.send(.launchedWithURL("myapp://prefs"))
    #expect(harness.state.selectedTab == 0)
    #expect(harness.names(tab: 0) == ["home", "user-profile", "settings"])
    #expect(harness.state.tabs[0].stack[1].title == "alice")
  }

  @Test func routeWithoutAParentIsPushedAlone() {
    var harness = Harness()
    harness.send(.launchedWithURL("myapp://settings"))
    #expect(harness.names(tab: 0) == ["home", "settings"])
    #expect(harness.model.log.map(\.origin) == [.coldStart])
  }

  @Test func redirectUsesTheFinalRoutesParent() throws {
    var harness = Harness()
    harness.send(.launchedWithURL("myapp://old/8"))
    #expect(harness.state.selectedTab == 1)
    #expect(harness.names(tab: 1) == ["order-list", "order-detail"])
    #expect(harness.model.log.last?.redirects == ["myapp://orders/8"])
  }

  @Test func internalOnlyRouteIsRefusedAndNoParentIsPushed() {
    var harness = Harness()
    let before = harness.state
    harness.send(.launchedWithURL("myapp://secret/5"))
    #expect(harness.state.alert?.title == "Refused")
    #expect(harness.state.tabs == before.tabs)
    #expect(harness.state.selectedTab == 0)
    #expect(harness.model.log.last?.outcome == .refused(harness.state.alert?.message ?? ""))
  }

  @Test func unmatchedURLShowsNoRouteAndChangesNothingElse() {
    var harness = Harness()
    let before = harness.state
    harness.send(.launchedWithURL("myapp://nowhere"))
    #expect(harness.state.alert?.title == "No route")
    #expect(harness.state.tabs == before.tabs)
  }

  /// The target cannot be shown (upgrade needed, unknown screen): the alert says so and the
  /// stacks stay as they were; no parent is left behind for a screen that never opened.
  @Test(arguments: ["myapp://future/orders/5", "myapp://gone/orders/5", "myapp://gone/prefs"])
  func failedTargetLeavesNoParentBehind(url: String) {
    var harness = Harness()
    let before = harness.state
    harness.send(.launchedWithURL(url))
    #expect(harness.state.alert?.title == "Upgrade required")
    #expect(harness.state.tabs == before.tabs)
    #expect(harness.state.selectedTab == before.selectedTab)
  }

  @Test func guardedColdStartPushesParentsThenAsksToSignIn() throws {
    var harness = Harness()
    harness.send(.launchedWithURL("myapp://orders/5/pay"))
    #expect(harness.state.selectedTab == 1)
    #expect(harness.modalNames == [["login"]])
    #expect(harness.model.continuation?.origin == .coldStart)
    harness.follow("Sign in")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.names(tab: 1) == ["order-list", "payment"])
    let entry = try #require(harness.model.log.last { $0.outcome == .pushed("payment") })
    #expect(entry.origin == .coldStart)
  }
}
