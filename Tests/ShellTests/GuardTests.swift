import Routing
import Testing

@testable import Shell

/// Guards: `guard: signed-in` opens login first and
/// goes on to the original URL once signed in.
@Suite struct GuardTests {
  @Test func guardedRouteWhenSignedOutPresentsLoginAndLogsGuarded() throws {
    var harness = Harness()
    harness.open("myapp://orders/5")
    let tabsBefore = harness.state.tabs
    harness.open("myapp://orders/5/pay")
    #expect(harness.state.tabs == tabsBefore)
    #expect(harness.modalNames == [["login"]])
    let guarded = try #require(harness.model.log.first { $0.url == "myapp://orders/5/pay" })
    #expect(guarded.outcome == .guarded("signed-in"))
    #expect(guarded.params == ["orderid": .int(5)])
    #expect(guarded.pattern == "myapp://orders/<int:id>/pay")
    let waiting = try #require(harness.model.continuation)
    #expect(waiting.guardName == "signed-in")
    #expect(waiting.url == "myapp://orders/5/pay")
    #expect(waiting.origin == .prompt)
    #expect(harness.model.session.signedIn == false)
  }

  @Test func signingInDismissesLoginAndOpensTheOriginalURL() throws {
    var harness = Harness()
    harness.open("myapp://orders/5")
    harness.open("myapp://orders/5/pay")
    harness.follow("Sign in")
    #expect(harness.model.session.signedIn)
    #expect(harness.state.modals.isEmpty)
    #expect(harness.names(tab: 0) == ["home", "order-detail", "payment"])
    #expect(harness.state.topScreen.title == "Pay 5")
    #expect(harness.model.continuation == nil)
    let opened = try #require(harness.model.log.last { $0.outcome == .pushed("payment") })
    #expect(opened.url == "myapp://orders/5/pay")
    #expect(opened.origin == .prompt)
  }

  @Test func cancellingWithBackLeavesTheStateExactlyAsBefore() {
    var harness = Harness()
    harness.open("myapp://orders/5")
    harness.send(.tabSelected(1))
    harness.open("myapp://settings")
    let before = harness.state
    harness.open("myapp://orders/5/pay")
    #expect(harness.state != before)
    harness.send(.backRequested)
    #expect(harness.state == before)
    #expect(harness.model.continuation == nil)
    #expect(harness.model.session.signedIn == false)
    // Signing in later does not open the dropped URL.
    harness.open("myapp://session/sign-in")
    #expect(harness.state == before)
  }

  @Test func backInsideTheLoginModalPopsFirstAndKeepsTheContinuation() {
    var harness = Harness()
    harness.open("myapp://orders/5/pay")
    harness.open("myapp://about")
    #expect(harness.modalNames == [["login", "about"]])
    harness.send(.backRequested)
    #expect(harness.modalNames == [["login"]])
    #expect(harness.model.continuation?.url == "myapp://orders/5/pay")
    harness.follow("Sign in")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.topScreen.name == "payment")
  }

  @Test func signingInFromAScreenPushedOnLoginDismissesTheWholeModal() {
    var harness = Harness()
    harness.open("myapp://orders/5/pay")
    harness.open("myapp://about")
    harness.open("myapp://session/sign-in")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.names(tab: 0) == ["home", "payment"])
  }

  @Test func whenSignedInTheRouteOpensDirectly() {
    var harness = Harness()
    harness.open("myapp://session/sign-in")
    harness.open("myapp://orders/5/pay")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.names(tab: 0) == ["home", "payment"])
    #expect(harness.model.log.last?.outcome == .pushed("payment"))
    #expect(harness.model.continuation == nil)
  }

  @Test func signingOutGuardsAgain() {
    var harness = Harness()
    harness.open("myapp://session/sign-in")
    harness.open("myapp://session/sign-out")
    harness.open("myapp://secure/settings")
    #expect(harness.modalNames == [["login"]])
    #expect(harness.names(tab: 0) == ["home"])
  }

  @Test func guardFromInsideAModalContinuesInThatModal() {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    harness.open("myapp://secure/settings")
    #expect(harness.modalNames == [["user-profile"], ["login"]])
    harness.follow("Sign in")
    #expect(harness.modalNames == [["user-profile", "settings"]])
  }

  @Test func guardFromOutsideKeepsItsOrigin() throws {
    var harness = Harness()
    harness.open("myapp://secure/settings", from: .external)
    #expect(harness.model.continuation?.origin == .external)
    harness.follow("Sign in")
    let opened = try #require(harness.model.log.last { $0.outcome == .pushed("settings") })
    #expect(opened.origin == .external)
    #expect(harness.names(tab: 0) == ["home", "settings"])
  }

  /// Login is already shown (from Settings, say) when a guarded URL arrives: signing in must
  /// still dismiss it and open the URL on the tab, not inside the login modal.
  @Test func guardWhileLoginIsAlreadyShownStillDismissesLogin() {
    var harness = Harness()
    harness.open("myapp://login")
    harness.open("myapp://orders/5/pay")
    #expect(harness.modalNames == [["login"]])
    harness.follow("Sign in")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.names(tab: 0) == ["home", "payment"])
  }

  /// The same guarded URL twice (a double tap): one login, one payment after signing in.
  @Test func guardedURLOpenedTwiceOpensOnce() {
    var harness = Harness()
    harness.open("myapp://orders/5/pay")
    harness.open("myapp://orders/5/pay")
    #expect(harness.modalNames == [["login"]])
    harness.follow("Sign in")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.names(tab: 0) == ["home", "payment"])
  }

  /// The log is oldest first: the guarded URL was opened before the login screen it caused,
  /// and the sign-in before the URL it let through.
  @Test func logListsEntriesInTheOrderTheURLsWereOpened() {
    var harness = Harness()
    harness.open("myapp://orders/5/pay")
    harness.follow("Sign in")
    #expect(
      harness.model.log.map(\.url) == [
        "myapp://orders/5/pay", "myapp://login", "myapp://session/sign-in", "myapp://orders/5/pay",
      ])
  }

  @Test func guardedPickerKeepsItsResultKeyAcrossSignIn() {
    var harness = Harness()
    harness.open("myapp://orders/5")
    harness.send(
      .urlOpenedForResult(
        "myapp://secure-picker", origin: .prompt, request: ResultRequest(key: "address")))
    harness.follow("Sign in")
    #expect(harness.modalNames == [["address-picker"]])
    harness.follow("A")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.topScreen.body.contains("Deliver to: Road A"))
  }

  /// The login modal is gone (a state URL replaced the whole state): the waiting URL is
  /// dropped with it, so a later sign-in does not open it out of the blue.
  @Test func continuationIsDroppedWhenAStateURLRemovesLogin() {
    var harness = Harness()
    let start = harness.state
    harness.open("myapp://orders/5/pay")
    harness.open(StateURL.encode(start))
    #expect(harness.state == start)
    harness.send(.tabSelected(2))
    harness.open("myapp://session/sign-in")
    #expect(harness.model.session.signedIn)
    #expect(harness.names(tab: 0) == ["home"])
    #expect(harness.names(tab: 2) == ["personal-center"])
  }
}
