import Routing
import TestSupport
import Testing

@testable import Shell

/// Screens opened for a result: a picker that hands its choice back.
@Suite struct ResultTests {
  /// Home, then order 5, then its address picker.
  private func pickerOverOrder() -> Harness {
    var harness = Harness()
    harness.open("myapp://orders/5")
    harness.follow("Choose delivery address")
    return harness
  }

  @Test func linkWithAResultKeyOpensThePicker() throws {
    let harness = pickerOverOrder()
    #expect(harness.modalNames == [["address-picker"]])
    let picker = harness.state.topScreen
    #expect(picker.resultRequest == ResultRequest(key: "address"))
    #expect(harness.model.log.last?.outcome == .presented("address-picker"))
    #expect(harness.model.log.last?.source == .link)
  }

  @Test func followingAResultLinkDismissesThePickerAndTheOpenerGetsTheValue() throws {
    var harness = pickerOverOrder()
    harness.follow("B")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.names(tab: 0) == ["home", "order-detail"])
    let order = harness.state.topScreen
    #expect(order.params == ["orderid": .int(5), "address": .string("Road B")])
    #expect(order.body.contains("Deliver to: Road B"))
    #expect(!order.body.contains("Deliver to: (not chosen)"))
    #expect(order.title == "Order 5")
  }

  @Test func choosingAgainReplacesTheValue() {
    var harness = pickerOverOrder()
    harness.follow("A")
    harness.follow("Choose delivery address")
    harness.follow("B")
    #expect(harness.state.topScreen.body.contains("Deliver to: Road B"))
    #expect(!harness.state.topScreen.body.contains("Deliver to: Road A"))
    #expect(harness.names(tab: 0) == ["home", "order-detail"])
  }

  @Test func backOnThePickerLeavesTheOpenerAsItWas() {
    var harness = Harness()
    harness.open("myapp://orders/5")
    let before = harness.state
    harness.follow("Choose delivery address")
    harness.send(.backRequested)
    #expect(harness.state == before)
    #expect(harness.state.topScreen.body.contains("Deliver to: (not chosen)"))
  }

  @Test func screenPushedOnThePickerDoesNotFinishIt() {
    var harness = pickerOverOrder()
    harness.follow("More")
    #expect(harness.modalNames == [["address-picker", "settings"]])
    harness.send(.screenFinished("nope"))
    #expect(harness.modalNames == [["address-picker", "settings"]])
    harness.send(.backRequested)
    harness.follow("A")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.topScreen.params["address"] == .string("Road A"))
  }

  @Test func resultLinkOnAScreenNotOpenedForAResultDoesNothing() {
    var harness = Harness()
    harness.open("myapp://address-picker")
    let before = harness.state
    harness.follow("A")
    #expect(harness.state == before)
    #expect(harness.model.status.contains("Nothing is waiting"))
  }

  @Test func pushedScreenOpenedForAResultIsPoppedWhenItFinishes() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.send(
      .urlOpenedForResult(
        "myapp://user/bob", source: .prompt, request: ResultRequest(key: "friend")))
    #expect(harness.names(tab: 0) == ["home", "settings", "user-profile"])
    harness.send(.screenFinished("bob"))
    #expect(harness.names(tab: 0) == ["home", "settings"])
    #expect(harness.state.topScreen.params == ["friend": .string("bob")])
  }

  @Test func openingForAResultPushesEvenWhenTheSameScreenIsOnTop() {
    var harness = Harness()
    harness.open("myapp://user/bob")
    harness.send(
      .urlOpenedForResult("myapp://user/bob", source: .prompt, request: ResultRequest(key: "k")))
    #expect(harness.names(tab: 0) == ["home", "user-profile", "user-profile"])
  }

  @Test func theOpenerInsideAModalGetsTheValue() {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    harness.follow("Pick")
    #expect(harness.modalNames == [["user-profile"], ["address-picker"]])
    harness.follow("A")
    #expect(harness.modalNames == [["user-profile"]])
    #expect(
      harness.state.topScreen.params == ["username": .string("ann"), "place": .string("Road A")])
  }

  @Test func screenFinishedEventWorksLikeAResultLink() {
    var harness = pickerOverOrder()
    harness.send(.screenFinished("Elsewhere 9"))
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.topScreen.body.contains("Deliver to: Elsewhere 9"))
  }
}

/// The `Navigator` facade (`Navigator.shared` in the app; a fresh one per test here).
@MainActor @Suite struct NavigatorTests {
  /// Collects the values handed to completions.
  final class Results {
    var values: [String?] = []
  }

  @Test func openWithACompletionGetsThePickedValue() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    let results = Results()
    navigator.open("myapp://address-picker") { results.values.append($0) }
    #expect(navigator.state.modals.map { $0.stack.map(\.name) } == [["address-picker"]])
    #expect(results.values.isEmpty)
    navigator.send(.linkFollowed(1))
    #expect(results.values == ["Road B"])
    #expect(navigator.state.modals.isEmpty)
    navigator.send(.backRequested)
    #expect(results.values == ["Road B"])
  }

  @Test func openWithACompletionGetsNilWhenThePickerIsClosedWithBack() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    let results = Results()
    navigator.open("myapp://address-picker") { results.values.append($0) }
    navigator.send(.backRequested)
    #expect(results.values == [nil])
    #expect(navigator.state.modals.isEmpty)
  }

  @Test func completionGetsNilWhenTheModalAboveThePickerIsClosedFirst() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    let results = Results()
    navigator.open("myapp://address-picker") { results.values.append($0) }
    navigator.open("myapp://settings")
    navigator.send(.backRequested)
    #expect(results.values.isEmpty)
    navigator.send(.backRequested)
    #expect(results.values == [nil])
  }

  @Test func pushedScreenOpenedWithACompletionHandsItsValueBack() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    let results = Results()
    navigator.open("myapp://user/bob") { results.values.append($0) }
    #expect(navigator.state.tabs[0].stack.map(\.name) == ["home", "user-profile"])
    navigator.send(.screenFinished("chosen"))
    #expect(results.values == ["chosen"])
    #expect(navigator.state.tabs[0].stack.map(\.name) == ["home"])
  }

  @Test func twoCompletionsEachGetTheirOwnValue() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    let first = Results()
    let second = Results()
    navigator.open("myapp://user/bob") { first.values.append($0) }
    navigator.open("myapp://address-picker") { second.values.append($0) }
    navigator.send(.linkFollowed(0))
    #expect(second.values == ["Road A"])
    #expect(first.values.isEmpty)
    navigator.send(.backRequested)
    #expect(first.values == [nil])
    #expect(second.values == ["Road A"])
  }

  /// A Swift completion is always answered: a URL that opens nothing answers nil at once
  /// rather than leaving the caller waiting forever.
  @Test(arguments: [
    "myapp://nowhere", "myapp://live/1", "myapp://profile", "XYWAPP://pkdetail/like?id=1",
  ])
  func completionIsAnsweredWhenTheURLOpensNoScreen(url: String) {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    let results = Results()
    navigator.open(url) { results.values.append($0) }
    #expect(navigator.state.tabs[0].stack.count == 1)
    #expect(navigator.state.modals.isEmpty)
    #expect(results.values == [nil])
  }

  /// A guarded picker opened for a result: after signing in, the picker that opens is still
  /// the one the completion waits for.
  @Test func completionSurvivesAGuard() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    let results = Results()
    navigator.open("myapp://secure-picker") { results.values.append($0) }
    #expect(navigator.state.topScreen.name == "login")
    navigator.send(.linkFollowed(0))
    #expect(navigator.state.topScreen.name == "address-picker")
    navigator.send(.linkFollowed(0))
    #expect(results.values == ["Road A"])
    #expect(navigator.state.modals.isEmpty)
  }

  @Test func openAndStateGoThroughTheReducer() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    navigator.open("myapp://orders/3", from: .external)
    #expect(navigator.state.topScreen.title == "Order 3")
    #expect(navigator.model.log.last?.source == .external)
    navigator.open("myapp://internal", from: .banner)
    #expect(navigator.state.alert?.title == "Refused")
  }

  @Test func canOpenRespectsTheSource() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    #expect(navigator.canOpen("myapp://orders/1"))
    #expect(navigator.canOpen("myapp://internal"))
    #expect(navigator.canOpen("myapp://internal", from: .external) == false)
    #expect(navigator.canOpen("myapp://nowhere") == false)
    #expect(navigator.state.alert == nil)
    #expect(navigator.model.log.isEmpty)
  }

  @Test func withoutAnEffectHandlerDelayedWorkFinishesAtOnce() {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    navigator.open("myapp://lookup/A-77")
    #expect(navigator.model.pending == nil)
    #expect(navigator.state.topScreen.title == "Order 77")
  }

  @Test func effectHandlerGetsTheDelayedWork() throws {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    var seen: [Effect] = []
    navigator.effectHandler = { seen.append($0) }
    navigator.open("myapp://lookup/A-77")
    #expect(navigator.state.tabs[0].stack.count == 1)
    let pending = try #require(navigator.model.pending)
    #expect(
      seen == [
        .finishLater(
          token: pending.token, after: .milliseconds(1500), result: .open("myapp://orders/77"))
      ])
    navigator.send(.workFinished(token: pending.token, result: .open("myapp://orders/77")))
    #expect(navigator.state.topScreen.title == "Order 77")
  }

  @Test func replaceTableKeepsOpenScreens() throws {
    let navigator = Navigator(app: FixtureApp.app("shell"))
    navigator.open("myapp://orders/3")
    let before = navigator.state
    navigator.replaceTable(
      try RouteTable(json: #"{"routes":[{"pattern":"x://y","screen":"about"}]}"#))
    #expect(navigator.state == before)
    navigator.open("myapp://orders/4")
    #expect(navigator.state.alert?.title == "No route")
    navigator.send(.alertDismissed)
    navigator.open("x://y")
    #expect(navigator.state.topScreen.name == "about")
  }

  @Test func emptyNavigatorIgnoresEventsUntilAnAppIsInstalled() {
    let navigator = Navigator(app: nil)
    let before = navigator.state
    navigator.open("myapp://orders/1")
    #expect(navigator.state == before)
    #expect(navigator.canOpen("myapp://orders/1") == false)
    navigator.install(FixtureApp.app("shell"))
    #expect(navigator.state.tabs.map(\.title) == ["Home", "Orders", "Me"])
    navigator.open("myapp://orders/1")
    #expect(navigator.state.topScreen.title == "Order 1")
  }
}
