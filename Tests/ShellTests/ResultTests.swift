import Routing
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
    #expect(harness.model.log.last?.origin == .link)
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
        "myapp://user/bob", origin: .prompt, request: ResultRequest(key: "friend")))
    #expect(harness.names(tab: 0) == ["home", "settings", "user-profile"])
    harness.send(.screenFinished("bob"))
    #expect(harness.names(tab: 0) == ["home", "settings"])
    #expect(harness.state.topScreen.params == ["friend": .string("bob")])
  }

  @Test func openingForAResultPushesEvenWhenTheSameScreenIsOnTop() {
    var harness = Harness()
    harness.open("myapp://user/bob")
    harness.send(
      .urlOpenedForResult("myapp://user/bob", origin: .prompt, request: ResultRequest(key: "k")))
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
