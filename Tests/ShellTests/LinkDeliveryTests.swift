import Links
import Routing
import Testing

@testable import Shell

/// A URL from outside that iOS does not hand to the app changes nothing but the event log.
@Suite struct LinkDeliveryTests {
  static func app() throws -> ShellApp {
    var app = Fixtures.app()
    let aasa = try AASADocument(
      bytes: Array(
        #"{"applinks":{"details":[{"appIDs":["T.app"],"components":[{"/":"/help/*","exclude":true},{"/":"*"}]}]}}"#
          .utf8))
    app.links = LinkPolicy(
      appID: "T.app", schemes: ["myapp", "XYWAPP"], domains: ["shop.example.com"],
      aasa: ["shop.example.com": ("aasa/shop.json", aasa)])
    return app
  }

  /// The model after `event`, and the model before with only the log changed.
  func unchangedButLog(_ event: ShellEvent, origin: URLOrigin) throws -> LogEntry {
    var harness = Harness(app: try Self.app())
    harness.open("myapp://user/alice")
    let before = harness.model
    let effects = harness.send(event)
    #expect(effects.isEmpty)
    var expected = before
    expected.log = harness.model.log
    #expect(harness.model == expected)
    #expect(harness.model.log.count == before.log.count + 1)
    let entry = try #require(harness.model.log.last)
    #expect(entry.origin == origin)
    return entry
  }

  @Test func unregisteredSchemeOpensNothing() throws {
    let entry = try unchangedButLog(.urlOpened("shop2://x", origin: .external), origin: .external)
    #expect(
      entry.outcome == .notDelivered(opens: "nothing", reason: "no installed app opens shop2:"))
    #expect(
      LogEntry.notDeliveredText(opens: "nothing", reason: "no installed app opens shop2:")
        == "nothing opens it: no installed app opens shop2:")
  }

  @Test func excludedLinkOpensSafari() throws {
    let entry = try unchangedButLog(
      .urlOpened("https://shop.example.com/help/x", origin: .external), origin: .external)
    #expect(
      entry.outcome
        == .notDelivered(
          opens: "safari",
          reason: "excluded by aasa/shop.json: applinks.details[0].components[0]"))
  }

  @Test func coldStartAndBannerAreDecidedToo() throws {
    let cold = try unchangedButLog(.launchedWithURL("http://shop.example.com/"), origin: .coldStart)
    #expect(cold.outcome == .notDelivered(opens: "safari", reason: "http links open in Safari"))
    var harness = Harness(app: try Self.app())
    harness.send(.pushReceived(title: "t", body: "b", url: "other://x"))
    harness.send(.bannerOpened)
    #expect(harness.model.banner == nil)
    #expect(
      harness.model.log.last?.outcome
        == .notDelivered(opens: "nothing", reason: "no installed app opens other:"))
    #expect(harness.state.topScreen.name == "home")
  }

  @Test func notDeliveredForAResultChangesNothingButTheLog() throws {
    var harness = Harness(app: try Self.app())
    let before = harness.state
    let effects = harness.send(
      .urlOpenedForResult("zzz://x", origin: .external, request: ResultRequest(key: "k")))
    #expect(effects.isEmpty)
    #expect(harness.state == before)
    #expect(
      harness.model.log.last?.outcome
        == .notDelivered(opens: "nothing", reason: "no installed app opens zzz:"))
  }

  @Test func deliveredURLsOpenAsBefore() throws {
    var harness = Harness(app: try Self.app())
    harness.open("MYAPP://user/bob", from: .external)
    #expect(harness.state.topScreen.name == "user-profile")
    harness.send(.launchedWithURL("xywapp://pkdetail/open?pkID=3"))
    #expect(harness.state.topScreen.name == "pk-detail")
  }

  @Test func fromInsideEveryURLOpensTheApp() throws {
    let app = try Self.app()
    #expect(app.delivery(of: "shop2://x", from: .prompt).opens == .app)
    #expect(app.delivery(of: "shop2://x", from: .link).opens == .app)
    #expect(app.delivery(of: "shop2://x", from: .external).opens == .nothing)
    var harness = Harness(app: app)
    harness.open("shop2://x", from: .prompt)
    #expect(harness.state.alert?.title == "No route")
  }

  @Test func fromOutsideTheAppMustGetTheURLItsTableCanOpen() throws {
    let app = try Self.app()
    #expect(app.delivery(of: "myapp://orders/1", from: .external).opens == .app)
    // The table has the route; iOS does not hand the unregistered scheme to the app.
    #expect(app.table.canOpen("ccf://animal/x/1.5"))
    #expect(app.delivery(of: "ccf://animal/x/1.5", from: .banner).opens != .app)
  }

  @Test func appWithoutLinksGetsEveryURL() {
    let app = Fixtures.app()
    #expect(app.delivery(of: "anything://x").opens == .app)
    #expect(app.delivery(of: "https://nowhere.example/x").opens == .app)
  }
}
