import Routing
import Testing

@testable import Shell

/// The event log: every URL opened, with where it came from and what happened.
@Suite struct ProvenanceTests {
  @Test(arguments: URLOrigin.allCases)
  func eachEntryKeepsItsOrigin(origin: URLOrigin) throws {
    var harness = Harness()
    harness.open("myapp://settings", from: origin)
    let entry = try #require(harness.model.log.last)
    #expect(harness.model.log.count == 1)
    #expect(entry.origin == origin)
    #expect(entry.url == "myapp://settings")
    #expect(entry.pattern == "myapp://settings")
    #expect(entry.outcome == .pushed("settings"))
  }

  @Test func followedLinksAreLoggedAsLinks() throws {
    var harness = Harness()
    harness.send(.tabSelected(1))
    harness.follow("Order 1")
    let entry = try #require(harness.model.log.last)
    #expect(entry.origin == .link)
    #expect(entry.url == "myapp://orders/1")
  }

  @Test func originRawValuesAndTheirRoutingOrigins() {
    #expect(URLOrigin.coldStart.rawValue == "cold-start")
    #expect(URLOrigin.allCases.filter { $0.routing == .app } == [.prompt, .link])
    #expect(
      URLOrigin.allCases.filter { $0.routing == .external } == [.banner, .external, .coldStart])
  }

  @Test func everyOutcomeIsLoggedOncePerURL() {
    var harness = Harness()
    harness.open("myapp://orders/1")
    harness.open("myapp://orders/1")
    harness.open("myapp://modal/user/ann")
    harness.send(.backRequested)
    harness.open("XYWAPP://pkdetail/like?id=3")
    harness.open("ccf://animal/cat/4")
    harness.open("myapp://internal", from: .banner)
    harness.send(.alertDismissed)
    harness.open("myapp://nowhere")
    harness.send(.alertDismissed)
    harness.open("myapp://lookup/A-1")
    harness.send(.backRequested)
    let outcomes = harness.model.log.map(\.outcome)
    #expect(outcomes.count == 8)
    guard outcomes.count == 8 else { return }
    #expect(outcomes[0] == .pushed("order-detail"))
    #expect(outcomes[1] == .alreadyShown("order-detail"))
    #expect(outcomes[2] == .presented("user-profile"))
    #expect(outcomes[3] == .handled(action: "like", status: "Liked pk 3 (1 like)"))
    #expect(outcomes[4] == .notified("AnimalNotification"))
    guard case .refused(let why) = outcomes[5] else {
      Issue.record("expected refused, got \(outcomes[5])")
      return
    }
    #expect(why.contains("push banner"))
    guard case .failed(let title, let message) = outcomes[6] else {
      Issue.record("expected failed, got \(outcomes[6])")
      return
    }
    #expect(title == "No route")
    #expect(message.contains("myapp://nowhere"))
    #expect(outcomes[7] == .started(action: "lookup-order"))
    #expect(
      harness.model.log.map(\.origin) == [
        .prompt, .prompt, .prompt, .prompt, .prompt, .banner, .prompt, .prompt,
      ])
  }

  @Test func guardedOutcomeNamesTheGuard() {
    var harness = Harness()
    harness.open("myapp://secure/settings", from: .banner)
    let guarded = harness.model.log.filter { $0.outcome == .guarded("signed-in") }
    #expect(guarded.map(\.url) == ["myapp://secure/settings"])
    #expect(guarded.map(\.origin) == [.banner])
  }

  @Test func failedEntryHasNoPatternWhenNothingMatched() throws {
    var harness = Harness()
    harness.open("myapp://nowhere?x=1")
    let entry = try #require(harness.model.log.last)
    #expect(entry.pattern == nil)
    #expect(entry.params.isEmpty)
  }

  @Test func failedEntryForAMatchedRouteKeepsItsPatternAndParameters() throws {
    var harness = Harness()
    harness.open("myapp://text/abc")
    let entry = try #require(harness.model.log.last)
    #expect(entry.pattern == "myapp://text/:orderid")
    #expect(entry.params == ["orderid": .string("abc")])
    #expect(
      entry.outcome
        == .failed(title: "Invalid parameter", message: harness.state.alert?.message ?? ""))
  }

  @Test func restoredOutcomeForAStateURL() throws {
    var harness = Harness()
    harness.open("myapp://orders/4")
    let url = StateURL.encode(harness.state)
    var fresh = Harness()
    fresh.open(url, from: .link)
    let entry = try #require(fresh.model.log.last)
    #expect(entry.outcome == .restored)
    #expect(entry.origin == .link)
  }
}
