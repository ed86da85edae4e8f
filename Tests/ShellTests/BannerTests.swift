import Routing
import Testing

@testable import Shell

// Push banners and the app's own notes in the reducer: `.pushReceived`, `.bannerOpened`,
// `.bannerExpired(id:)` and `.noted(_:isProblem:)`.

/// URLs that open only from inside the app (`external: false`, directly or by a redirect).
private let internalOnlyURLs = [
  "myapp://internal", "myapp://session/sign-in", "myapp://secret/5", "myapp://go/internal",
]

@Suite struct BannerTests {
  // MARK: Push

  @Test func aPushShowsABannerAndAsksForItsExpiry() {
    var harness = Harness()
    let effects = harness.send(
      .pushReceived(title: "Shipped", body: "Order 1 is on its way", url: "myapp://orders/1"))
    #expect(
      harness.model.banner
        == Banner(id: 1, title: "Shipped", body: "Order 1 is on its way", url: "myapp://orders/1"))
    #expect(effects == [.expireBanner(id: 1, after: .seconds(5))])
    #expect(harness.model.nextToken == 2)
  }

  @Test func theLifetimeIsFiveSeconds() {
    #expect(Banner.lifetime == .seconds(5))
  }

  @Test(arguments: [nil, "myapp://user/ann", "nope://x", ""] as [String?])
  func aPushLeavesEverythingElseAlone(url: String?) {
    var harness = Harness()
    harness.open("myapp://orders/1")
    harness.open("myapp://modal/user/ann")
    let before = harness.model
    harness.send(.pushReceived(title: "T", body: "B", url: url))
    var expected = before
    expected.banner = Banner(id: before.nextToken, title: "T", body: "B", url: url)
    expected.nextToken += 1
    // Navigation state, log, status, session and notes are untouched, whatever the URL.
    #expect(harness.model == expected)
  }

  @Test func aSecondPushReplacesTheBannerWithANewID() {
    var harness = Harness()
    let first = harness.send(.pushReceived(title: "One", body: "1", url: "myapp://orders/1"))
    let second = harness.send(.pushReceived(title: "Two", body: "2", url: nil))
    #expect(first == [.expireBanner(id: 1, after: Banner.lifetime)])
    #expect(second == [.expireBanner(id: 2, after: Banner.lifetime)])
    #expect(harness.model.banner == Banner(id: 2, title: "Two", body: "2", url: nil))
  }

  @Test func anIdenticalPushStillGetsAFreshID() {
    var harness = Harness()
    harness.send(.pushReceived(title: "Same", body: "Same", url: "myapp://home"))
    harness.send(.pushReceived(title: "Same", body: "Same", url: "myapp://home"))
    #expect(harness.model.banner?.id == 2)
    #expect(
      harness.effects == [
        .expireBanner(id: 1, after: .seconds(5)), .expireBanner(id: 2, after: .seconds(5)),
      ])
  }

  @Test func bannerIDsAndWorkTokensNeverCollide() {
    var harness = Harness()
    // Async work takes token 1, the banner 2, the next work 3.
    let work = harness.open("myapp://lookup/A-1")
    harness.send(.pushReceived(title: "T", body: "B", url: nil))
    #expect(harness.model.pending?.token == 1)
    #expect(harness.model.banner?.id == 2)
    guard case .finishLater(let token, _, _)? = work.first else {
      Issue.record("expected finishLater, got \(work)")
      return
    }
    #expect(token == 1)
    // The banner's expiry does not touch the work, nor the work's result the banner.
    harness.send(.bannerExpired(id: 1))
    #expect(harness.model.pending?.token == 1)
    harness.send(.workFinished(token: 2, result: .status("wrong")))
    #expect(harness.model.pending?.token == 1)
    #expect(harness.model.banner?.id == 2)
  }

  // MARK: Expiry

  @Test func theBannerExpires() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.send(.pushReceived(title: "T", body: "B", url: "myapp://orders/1"))
    var expected = harness.model
    expected.banner = nil
    let effects = harness.send(.bannerExpired(id: 1))
    #expect(effects.isEmpty)
    // Only the banner goes; navigation is untouched and nothing was opened.
    #expect(harness.model == expected)
    #expect(harness.names(tab: 0) == ["home", "settings"])
    #expect(harness.model.log.count == 1)
  }

  @Test func anOldBannersExpiryIsIgnored() {
    var harness = Harness()
    harness.send(.pushReceived(title: "One", body: "1", url: nil))
    harness.send(.pushReceived(title: "Two", body: "2", url: nil))
    let before = harness.model
    harness.send(.bannerExpired(id: 1))
    #expect(harness.model == before)
    #expect(harness.model.banner?.title == "Two")
    harness.send(.bannerExpired(id: 2))
    #expect(harness.model.banner == nil)
  }

  @Test(arguments: [0, 1, 2, 99, -1])
  func anExpiryWithoutABannerChangesNothing(id: Int) {
    var harness = Harness()
    harness.open("myapp://orders/1")
    let before = harness.model
    let effects = harness.send(.bannerExpired(id: id))
    #expect(effects.isEmpty)
    #expect(harness.model == before)
  }

  @Test func anExpiryForAnOpenedBannerIsIgnoredByTheNextOne() {
    var harness = Harness()
    harness.send(.pushReceived(title: "One", body: "1", url: nil))
    harness.send(.bannerOpened)
    harness.send(.pushReceived(title: "Two", body: "2", url: nil))
    harness.send(.bannerExpired(id: 1))
    #expect(harness.model.banner?.title == "Two")
  }

  // MARK: Opening

  @Test func openingABannerOpensItsURLFromABanner() throws {
    var harness = Harness()
    harness.send(.pushReceived(title: "Ann", body: "says hi", url: "myapp://user/ann"))
    let effects = harness.send(.bannerOpened)
    #expect(effects.isEmpty)
    #expect(harness.model.banner == nil)
    #expect(harness.names(tab: 0) == ["home", "user-profile"])
    #expect(harness.state.topScreen.title == "ann")
    let entry = try #require(harness.model.log.last)
    #expect(harness.model.log.count == 1)
    #expect(entry.origin == .banner)
    #expect(entry.url == "myapp://user/ann")
    #expect(entry.pattern == "myapp://user/<username>")
    #expect(entry.outcome == .pushed("user-profile"))
    #expect(harness.model.status == "Opened ann")
  }

  @Test func openingABannerWithoutAURLOnlyDismissesIt() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.send(.pushReceived(title: "FYI", body: "Nothing to open", url: nil))
    var expected = harness.model
    expected.banner = nil
    let effects = harness.send(.bannerOpened)
    #expect(effects.isEmpty)
    #expect(harness.model == expected)
    #expect(harness.model.log.count == 1)
  }

  @Test func openingWithoutABannerDoesNothing() {
    var harness = Harness()
    harness.open("myapp://orders/1")
    let before = harness.model
    #expect(harness.send(.bannerOpened).isEmpty)
    #expect(harness.model == before)
  }

  @Test func aBannerOpensOnlyOnce() {
    var harness = Harness()
    harness.send(.pushReceived(title: "T", body: "B", url: "myapp://settings"))
    harness.send(.bannerOpened)
    harness.send(.bannerOpened)
    #expect(harness.model.log.count == 1)
    #expect(harness.names(tab: 0) == ["home", "settings"])
  }

  @Test(arguments: internalOnlyURLs)
  func anInternalOnlyURLFromABannerIsRefusedAndLogged(url: String) throws {
    var harness = Harness()
    harness.send(.pushReceived(title: "T", body: "B", url: url))
    let shellBefore = harness.state
    harness.send(.bannerOpened)
    #expect(harness.model.banner == nil)
    // Nothing opened; an alert says why.
    #expect(harness.state.currentStack == shellBefore.currentStack)
    #expect(harness.state.modals == shellBefore.modals)
    let alert = try #require(harness.state.alert)
    #expect(alert.title == "Refused")
    #expect(alert.message.hasPrefix("\(url) came from a push banner: route "))
    #expect(alert.message.hasSuffix("can be opened only from inside the app"))
    let entry = try #require(harness.model.log.last)
    #expect(harness.model.log.count == 1)
    #expect(entry.origin == .banner)
    #expect(entry.url == url)
    #expect(entry.outcome == .refused(alert.message))
    #expect(harness.model.session.signedIn == false)
  }

  @Test(arguments: internalOnlyURLs)
  func theSameURLFromThePromptOpens(url: String) {
    // The refusal is about the banner's origin, not the URL.
    var harness = Harness()
    harness.open(url, from: .prompt)
    #expect(harness.state.alert == nil)
    guard case .refused = harness.model.log.first?.outcome else { return }
    Issue.record("\(url) was refused from the prompt")
  }

  @Test func aStateURLFromABannerIsRefused() throws {
    var harness = Harness()
    harness.open("myapp://settings")
    let url = StateURL.encode(harness.state)
    harness.send(.backRequested)
    harness.send(.pushReceived(title: "T", body: "B", url: url))
    harness.send(.bannerOpened)
    #expect(harness.names(tab: 0) == ["home"])
    let entry = try #require(harness.model.log.last)
    #expect(entry.origin == .banner)
    guard case .refused(let why) = entry.outcome else {
      Issue.record("expected refused, got \(entry.outcome)")
      return
    }
    #expect(why.contains("came from a push banner"))
    #expect(harness.state.alert?.title == "Refused")
  }

  @Test func anUnknownURLFromABannerFailsWithAnAlert() throws {
    var harness = Harness()
    harness.send(.pushReceived(title: "T", body: "B", url: "nope://x"))
    harness.send(.bannerOpened)
    #expect(harness.state.alert?.title == "No route")
    let entry = try #require(harness.model.log.last)
    #expect(entry.origin == .banner)
    #expect(entry.outcome == .failed(title: "No route", message: "No route for nope://x"))
  }

  @Test func aGuardedURLFromABannerWaitsWithTheBannerAsSource() throws {
    var harness = Harness()
    harness.send(.pushReceived(title: "T", body: "B", url: "myapp://secure/settings"))
    harness.send(.bannerOpened)
    #expect(harness.modalNames == [["login"]])
    let waiting = try #require(harness.model.continuation)
    #expect(waiting.url == "myapp://secure/settings")
    #expect(waiting.origin == .banner)
    // Signing in opens it, still from the banner.
    harness.follow("Sign in")
    #expect(harness.modalNames.isEmpty)
    #expect(harness.state.topScreen.name == "settings")
    #expect(harness.model.log.last?.origin == .banner)
    #expect(harness.model.log.last?.outcome == .pushed("settings"))
  }

  @Test func aBannerOpensOverAModalStack() {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    harness.send(.pushReceived(title: "T", body: "B", url: "myapp://settings"))
    harness.send(.bannerOpened)
    // Pushed on the top modal's stack, as any URL would be.
    #expect(harness.modalNames == [["user-profile", "settings"]])
    #expect(harness.names(tab: 0) == ["home"])
  }

  // MARK: Notes

  @Test(arguments: [false, true])
  func aNoteIsKeptWithItsPlaceInTheLog(isProblem: Bool) {
    var harness = Harness()
    let first = harness.send(.noted("Route table v2 loaded", isProblem: isProblem))
    #expect(first.isEmpty)
    #expect(
      harness.model.notes == [
        Note(text: "Route table v2 loaded", isProblem: isProblem, position: 0)
      ])
    #expect(harness.model.status == "Route table v2 loaded")
    harness.open("myapp://orders/1")
    harness.open("myapp://settings")
    let shell = harness.state
    let log = harness.model.log
    harness.send(.noted("socket message refused: not JSON", isProblem: !isProblem))
    #expect(
      harness.model.notes == [
        Note(text: "Route table v2 loaded", isProblem: isProblem, position: 0),
        Note(text: "socket message refused: not JSON", isProblem: !isProblem, position: 2),
      ])
    #expect(harness.model.status == "socket message refused: not JSON")
    // A note is not a URL: the log and navigation are untouched.
    #expect(harness.model.log == log)
    #expect(harness.state == shell)
  }

  @Test func notesDoNotTouchTheBanner() {
    var harness = Harness()
    harness.send(.pushReceived(title: "T", body: "B", url: nil))
    harness.send(.noted("something", isProblem: true))
    #expect(harness.model.banner?.id == 1)
    #expect(harness.model.nextToken == 2)
  }

  @Test func anEmptyNoteIsStillANote() {
    var harness = Harness()
    harness.open("myapp://settings")
    harness.send(.noted("", isProblem: false))
    #expect(harness.model.notes == [Note(text: "", isProblem: false, position: 1)])
    #expect(harness.model.status == "")
  }
}
