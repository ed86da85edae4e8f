import Routing
import Testing

@testable import Shell

/// Async action handlers: `lookup-order` finishes later through an effect.
@Suite struct AsyncActionTests {
  private let lookupResult = ActionResult.open("myapp://orders/77")

  @Test func lookupReturnsAFinishLaterEffectAndSetsPending() throws {
    var harness = Harness()
    let before = harness.state
    let effects = harness.open("myapp://lookup/A-77")
    let pending = try #require(harness.model.pending)
    #expect(
      effects == [
        .finishLater(token: pending.token, after: .milliseconds(1500), result: lookupResult)
      ])
    #expect(pending.description == "Looking up order A-77")
    #expect(pending.origin == .prompt)
    #expect(harness.state == before)
    #expect(harness.model.log.last?.outcome == .started(action: "lookup-order"))
  }

  @Test func finishedWorkSetsOnlyTheFlagsTheAppStillHasWithTheirType() throws {
    var harness = Harness()
    harness.open("myapp://lookup/A-77")
    let token = try #require(harness.model.pending?.token)
    let flags = harness.model.session.flags
    let name = try #require(flags.names.first)
    let value = try #require(flags[name])
    let other: FlagValue = value.hasSameType(as: .int(0)) ? .string("x") : .int(1)
    harness.send(
      .workFinished(
        token: token,
        result: .setting(["gone": .int(1), name: other], then: .status("Finished"))))
    #expect(harness.model.session.flags == flags)
    #expect(harness.model.status == "Finished")
  }

  @Test func statusLineShowsTheWorkInFlight() {
    var harness = Harness()
    harness.open("myapp://lookup/A-77")
    #expect(harness.model.status.contains("Looking up order A-77"))
  }

  @Test func backCancelsTheWorkAndPopsNothing() throws {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.open("myapp://lookup/A-77")
    let token = try #require(harness.model.pending?.token)
    let before = harness.state
    let effects = harness.send(.backRequested)
    #expect(effects == [.cancelWork(token: token)])
    #expect(harness.model.pending == nil)
    #expect(harness.state == before)
    #expect(harness.model.status.contains("Cancelled"))
    harness.send(.backRequested)
    #expect(harness.names(tab: 0) == ["home"])
  }

  @Test func lateResultWithTheOldTokenIsDropped() throws {
    var harness = Harness()
    harness.open("myapp://lookup/A-77")
    let token = try #require(harness.model.pending?.token)
    harness.send(.backRequested)
    let cancelled = harness.model
    let effects = harness.send(.workFinished(token: token, result: lookupResult))
    #expect(effects.isEmpty)
    #expect(harness.model == cancelled)
  }

  @Test func resultWithAnotherTokenLeavesTheWorkPending() throws {
    var harness = Harness()
    harness.open("myapp://lookup/A-77")
    let pending = try #require(harness.model.pending)
    let before = harness.model
    harness.send(.workFinished(token: pending.token + 1, result: lookupResult))
    #expect(harness.model == before)
  }

  @Test func finishedWorkOpensTheOrderWithTheSameSource() throws {
    var harness = Harness()
    harness.open("myapp://lookup/A-77", from: .link)
    let token = try #require(harness.model.pending?.token)
    harness.send(.workFinished(token: token, result: lookupResult))
    #expect(harness.model.pending == nil)
    #expect(harness.names(tab: 0) == ["home", "order-detail"])
    #expect(harness.state.topScreen.title == "Order 77")
    let entry = try #require(harness.model.log.last)
    #expect(entry.url == "myapp://orders/77")
    #expect(entry.origin == .link)
    #expect(entry.outcome == .pushed("order-detail"))
  }

  @Test func aSecondLookupCancelsTheFirst() throws {
    var harness = Harness()
    harness.open("myapp://lookup/A-1")
    let first = try #require(harness.model.pending?.token)
    let effects = harness.open("myapp://lookup/B-2")
    let second = try #require(harness.model.pending?.token)
    #expect(second != first)
    #expect(
      effects == [
        .cancelWork(token: first),
        .finishLater(token: second, after: .milliseconds(1500), result: .open("myapp://orders/2")),
      ])
    harness.send(.workFinished(token: first, result: .open("myapp://orders/1")))
    #expect(harness.names(tab: 0) == ["home"])
    harness.send(.workFinished(token: second, result: .open("myapp://orders/2")))
    #expect(harness.state.topScreen.title == "Order 2")
  }

  @Test func codeWithoutDigitsEndsInAnAlert() throws {
    var harness = Harness()
    let effects = harness.open("myapp://lookup/none")
    guard case .finishLater(let token, _, let result)? = effects.first else {
      Issue.record("expected finishLater, got \(effects)")
      return
    }
    harness.send(.workFinished(token: token, result: result))
    #expect(harness.state.alert?.title == "Not found")
    #expect(harness.state.alert?.message.contains("none") == true)
    #expect(harness.names(tab: 0) == ["home"])
  }

  @Test func backWithAnAlertUpDismissesTheAlertBeforeCancelling() throws {
    var harness = Harness()
    harness.open("myapp://lookup/A-77")
    harness.open("myapp://nowhere")
    harness.send(.backRequested)
    #expect(harness.state.alert == nil)
    #expect(harness.model.pending != nil)
    harness.send(.backRequested)
    #expect(harness.model.pending == nil)
  }
}
