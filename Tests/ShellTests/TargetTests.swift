import Demo
import Routing
import Testing

@testable import Shell

/// What each kind of route target does.
@Suite struct ScreenTargetTests {
  @Test func screenRouteIsPushed() {
    var harness = Harness()
    harness.open("myapp://user/ann")
    #expect(harness.names(tab: 0) == ["home", "user-profile"])
    #expect(harness.state.modals.isEmpty)
    let top = harness.state.topScreen
    #expect(top.title == "ann")
    #expect(top.params == ["username": .string("ann")])
    #expect(top.url == "myapp://user/ann")
    #expect(harness.model.log.last?.outcome == .pushed("user-profile"))
  }

  @Test func presentRouteIsPresentedInItsOwnStack() {
    var harness = Harness()
    harness.open("myapp://orders/1")
    harness.open("myapp://modal/user/ann")
    #expect(harness.names(tab: 0) == ["home", "order-detail"])
    #expect(harness.modalNames == [["user-profile"]])
    #expect(harness.model.log.last?.outcome == .presented("user-profile"))
  }

  @Test func renameAppliesBeforeTheScreenIsMade() {
    var harness = Harness()
    harness.open("myapp://orders/2015032688")
    #expect(harness.state.topScreen.params == ["orderid": .int(2_015_032_688)])
    #expect(harness.state.topScreen.title == "Order 2015032688")
    #expect(harness.model.log.last?.params == ["orderid": .int(2_015_032_688)])
    #expect(harness.model.log.last?.pattern == "myapp://orders/<int:id>")
  }

  @Test func swappingRenamesApplyAtOnce() {
    var harness = Harness()
    harness.open("myapp://renamed/one/two")
    #expect(harness.state.topScreen.params == ["a": .string("two"), "b": .string("one")])
  }

  @Test func queryParametersReachTheScreen() {
    var harness = Harness()
    harness.open("myapp://settings?x=1&y=a+b&y=c")
    #expect(
      harness.state.topScreen.params == ["x": .string("1"), "y": .strings(["a b", "c"])])
  }

  @Test func intParameterAcceptsADecimalString() {
    var harness = Harness()
    harness.open("myapp://text/123")
    #expect(harness.state.alert == nil)
    #expect(harness.state.topScreen.name == "order-detail")
    #expect(harness.state.topScreen.title == "Order 123")
    harness.open("myapp://pk/-4")
    #expect(harness.state.alert == nil)
    #expect(harness.state.topScreen.title == "PK -4")
  }

  @Test func duplicateOpenOfTheSameScreenOnTopDoesNotPush() {
    var harness = Harness()
    harness.open("myapp://orders/9")
    let once = harness.state
    harness.open("myapp://orders/9")
    #expect(harness.state == once)
    #expect(harness.model.log.last?.outcome == .alreadyShown("order-detail"))
    harness.open("myapp://old/9")
    #expect(harness.state == once)
    #expect(harness.model.log.last?.outcome == .alreadyShown("order-detail"))
  }

  @Test func duplicateCheckLooksOnlyAtTheTopWithTheSameParameters() {
    var harness = Harness()
    harness.open("myapp://orders/9")
    harness.open("myapp://orders/10")
    #expect(harness.names(tab: 0) == ["home", "order-detail", "order-detail"])
    harness.open("myapp://orders/9")
    #expect(harness.names(tab: 0) == ["home", "order-detail", "order-detail", "order-detail"])
    #expect(harness.model.log.last?.outcome == .pushed("order-detail"))
  }

  @Test func duplicatePresentOfTheScreenOnTopDoesNotPresentAgain() {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    let once = harness.state
    harness.open("myapp://modal/user/ann")
    #expect(harness.state == once)
    #expect(harness.model.log.last?.outcome == .alreadyShown("user-profile"))
  }
}

@Suite struct ActionTargetTests {
  @Test func actionShowsItsResultInTheStatusLineAndPushesNothing() {
    var harness = Harness()
    harness.open("myapp://orders/1")
    let before = harness.state
    harness.open("XYWAPP://pkdetail/like?id=5")
    #expect(harness.state == before)
    #expect(harness.model.status == "Liked pk 5 (1 like)")
    #expect(harness.model.session.counters == ["likes/5": 1])
    #expect(
      harness.model.log.last?.outcome == .handled(action: "like", status: "Liked pk 5 (1 like)"))
  }

  @Test func likeIncrementsAndThePkScreenUpdatesLive() throws {
    var harness = Harness()
    harness.open("XYWAPP://pkdetail/open?pkID=10010")
    #expect(harness.state.topScreen.body.contains("Likes: 0"))
    harness.follow("Like this match")
    #expect(harness.names(tab: 0) == ["home", "pk-detail"])
    #expect(harness.state.topScreen.body.contains("Likes: 1"))
    harness.open("XYWAPP://pkdetail/like?id=10010")
    #expect(harness.state.topScreen.body.contains("Likes: 2"))
    #expect(harness.model.session.likes(of: 10010) == 2)
    #expect(harness.model.status == "Liked pk 10010 (2 likes)")
    let entry = try #require(harness.model.log.last)
    #expect(entry.params == ["id": .int(10010)])
  }

  @Test func likeForAnotherPkLeavesTheShownCountAlone() {
    var harness = Harness()
    harness.open("XYWAPP://pkdetail/open?pkID=1")
    harness.open("XYWAPP://pkdetail/like?id=2")
    #expect(harness.state.topScreen.body.contains("Likes: 0"))
    #expect(harness.model.session.counters == ["likes/2": 1])
  }

  @Test func signOutAndSignInChangeTheSession() {
    var harness = Harness()
    harness.open("myapp://session/sign-in")
    #expect(harness.model.session.signedIn)
    #expect(harness.model.status == "Signed in")
    harness.open("myapp://session/sign-out")
    #expect(harness.model.session.signedIn == false)
    #expect(harness.model.status == "Signed out")
  }
}

@Suite struct NotificationTargetTests {
  @Test func notificationIsPostedWithTheParametersAsUserInfo() throws {
    var harness = Harness()
    let before = harness.state
    harness.open("ccf://animal/platypus/8.0")
    #expect(harness.state == before)
    let posted = try #require(harness.model.session.notifications.last)
    #expect(posted.name == "AnimalNotification")
    #expect(posted.userInfo == ["name": .string("platypus"), "weight": .float(8)])
    #expect(harness.model.log.last?.outcome == .notified("AnimalNotification"))
  }

  @Test func notificationsScreenListsWhatWasReceived() {
    var harness = Harness()
    harness.open("ccf://animal/platypus/8.0")
    harness.open("ccf://animal/cat/4.5?colour=grey")
    harness.open("myapp://notifications")
    let body = harness.state.topScreen.body
    #expect(body.first == "Received: 2")
    #expect(body.contains("AnimalNotification name=platypus weight=8"))
    #expect(body.contains("AnimalNotification colour=grey name=cat weight=4.5"))
  }

  @Test func openNotificationsScreenUpdatesWhenOneArrives() {
    var harness = Harness()
    harness.open("myapp://notifications")
    #expect(harness.state.topScreen.body == ["Received: 0"])
    harness.open("ccf://animal/owl/1.25")
    #expect(harness.names(tab: 0) == ["home", "notifications"])
    #expect(
      harness.state.topScreen.body == ["Received: 1", "AnimalNotification name=owl weight=1.25"])
  }

  @Test func notificationsScreenUnderAModalUpdatesToo() {
    var harness = Harness()
    harness.open("myapp://notifications")
    harness.open("myapp://modal/user/ann")
    harness.open("ccf://animal/owl/2")
    #expect(harness.state.tabs[0].stack[1].body.first == "Received: 1")
  }
}

@Suite struct RedirectTargetTests {
  @Test func redirectOpensTheFinalScreenAndTheLogShowsTheRedirects() throws {
    var harness = Harness()
    harness.open("myapp://older/77")
    #expect(harness.names(tab: 0) == ["home", "order-detail"])
    #expect(harness.state.topScreen.params == ["orderid": .int(77)])
    let entry = try #require(harness.model.log.last)
    #expect(entry.url == "myapp://older/77")
    #expect(entry.redirects == ["myapp://old/77", "myapp://orders/77"])
    #expect(entry.pattern == "myapp://orders/<int:id>")
    #expect(entry.outcome == .pushed("order-detail"))
  }

  @Test func redirectToNothingIsNoRouteAndKeepsItsRedirects() throws {
    var harness = Harness()
    let before = harness.state
    harness.open("myapp://broken/3")
    #expect(harness.state.alert?.title == "No route")
    #expect(harness.state.alert?.message.contains("myapp://broken/3") == true)
    #expect(harness.state.tabs == before.tabs)
    let entry = try #require(harness.model.log.last)
    #expect(entry.redirects == ["myapp://nowhere/3"])
  }
}

/// Every case that shows an alert instead of opening: its exact title, what the message names,
/// and the stacks left as they were.
@Suite struct AlertTitleTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var url: String
    var origin: URLOrigin = .prompt
    var title: String
    var mentions: [String]
    var testDescription: String { "\(url) from \(origin)" }
  }

  static let cases: [Case] = [
    Case(url: "myapp://nowhere", title: "No route", mentions: ["myapp://nowhere"]),
    Case(url: "other://orders/1", title: "No route", mentions: ["other://orders/1"]),
    Case(url: "", title: "No route", mentions: []),
    Case(url: "myapp://orders/%zz", title: "No route", mentions: ["myapp://orders/%zz"]),
    Case(url: "myapp://user/%4", title: "No route", mentions: ["myapp://user/%4"]),
    Case(url: "myapp://user/%C3%28", title: "No route", mentions: ["myapp://user/%C3%28"]),
    Case(
      url: "myapp://live/42", title: "Upgrade required", mentions: ["myapp://live/42", "live-room"]),
    Case(url: "myapp://unknown-action", title: "Upgrade required", mentions: ["no-such-action"]),
    Case(url: "myapp://new/1", title: "Upgrade required", mentions: ["myapp://new/1", "99"]),
    Case(url: "myapp://version/patch", title: "Upgrade required", mentions: ["1.0.1"]),
    Case(url: "myapp://profile", title: "Missing parameter", mentions: ["username"]),
    Case(url: "myapp://text/abc", title: "Invalid parameter", mentions: ["orderid", "abc"]),
    Case(url: "myapp://text/1.5", title: "Invalid parameter", mentions: ["orderid"]),
    Case(
      url: "myapp://text/99999999999999999999", title: "Invalid parameter", mentions: ["orderid"]),
    Case(url: "myapp://pk/x", title: "Invalid parameter", mentions: ["pkID"]),
    Case(url: "myapp://internal", origin: .banner, title: "Refused", mentions: ["push banner"]),
    Case(url: "myapp://internal", origin: .external, title: "Refused", mentions: ["outside"]),
    Case(url: "myapp://internal", origin: .coldStart, title: "Refused", mentions: ["cold start"]),
    Case(
      url: "myapp://session/sign-in", origin: .external, title: "Refused",
      mentions: ["myapp://session/sign-in"]),
    Case(
      url: "myapp://go/internal", origin: .banner, title: "Refused",
      mentions: ["myapp://go/internal", "push banner"]),
  ]

  @Test(arguments: cases)
  func alertInsteadOfOpening(_ testCase: Case) throws {
    var harness = Harness()
    harness.open("myapp://orders/1")
    harness.open("myapp://modal/user/ann")
    let before = harness.state
    let session = harness.model.session
    harness.open(testCase.url, from: testCase.origin)
    let alert = try #require(harness.state.alert)
    #expect(alert.title == testCase.title)
    for word in testCase.mentions {
      #expect(alert.message.contains(word), "\(alert.message) should name \(word)")
    }
    #expect(harness.state.tabs == before.tabs)
    #expect(harness.state.modals == before.modals)
    #expect(harness.state.selectedTab == before.selectedTab)
    #expect(harness.model.session == session)
    let entry = try #require(harness.model.log.last)
    #expect(entry.url == testCase.url)
    #expect(entry.origin == testCase.origin)
    if testCase.title == "Refused" {
      #expect(entry.outcome == .refused(alert.message))
    } else {
      #expect(entry.outcome == .failed(title: alert.title, message: alert.message))
    }
  }

  @Test func coldStartAlertsLeaveTheStacksUnchanged() throws {
    var harness = Harness()
    let before = harness.state
    harness.send(.launchedWithURL("myapp://internal"))
    #expect(harness.state.alert?.title == "Refused")
    #expect(harness.state.tabs == before.tabs)
    #expect(harness.model.log.last?.origin == .coldStart)
  }

  @Test(arguments: [URLOrigin.prompt, .link])
  func internalOnlyRouteOpensFromInsideTheApp(origin: URLOrigin) {
    var harness = Harness()
    harness.open("myapp://internal", from: origin)
    #expect(harness.state.alert == nil)
    #expect(harness.names(tab: 0) == ["home", "settings"])
    #expect(harness.model.log.last?.outcome == .pushed("settings"))
    #expect(harness.model.log.last?.origin == origin)
  }

  @Test(arguments: [URLOrigin.banner, .external, .coldStart])
  func externalRouteOpensFromOutside(origin: URLOrigin) {
    var harness = Harness()
    harness.open("myapp://settings", from: origin)
    #expect(harness.state.alert == nil)
    #expect(harness.names(tab: 0) == ["home", "settings"])
  }

  @Test(arguments: ["myapp://version/same", "myapp://version/old"])
  func minVersionNotNewerThanTheAppOpens(url: String) {
    var harness = Harness()
    harness.open(url)
    #expect(harness.state.alert == nil)
    #expect(harness.state.currentStack.count == 2)
  }

  @Test func upgradeMessageNamesTheVersions() throws {
    var harness = Harness()
    harness.open("myapp://new/1")
    let alert = try #require(harness.state.alert)
    #expect(alert.message.contains(DemoApp.version))
  }

  @Test func missingParameterStillNamesTheParameterFromAModal() throws {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    harness.open("myapp://profile")
    #expect(harness.state.alert?.title == "Missing parameter")
    #expect(harness.modalNames == [["user-profile"]])
  }
}
