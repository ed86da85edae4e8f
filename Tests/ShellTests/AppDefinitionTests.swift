import JSON
import Routing
import Testing

@testable import Shell

/// `app.json`: what it accepts, each refusal naming its member, and data actions, flags and
/// guards at work.
@Suite struct AppDefinitionTests {
  static let table = try! RouteTable(
    json: #"""
      {"routes":[
        {"pattern":"shop://feed","screen":"feed"},
        {"pattern":"shop://cart","screen":"cart"},
        {"pattern":"shop://login","screen":"login","presentation":"present"},
        {"pattern":"shop://checkout","screen":"checkout","guard":"signed-in"},
        {"pattern":"shop://pro","screen":"checkout","guard":"premium"},
        {"pattern":"shop://upgrade","screen":"login","presentation":"present"},
        {"pattern":"shop://do/sign-in","action":"sign-in"},
        {"pattern":"shop://do/add/<int:id>","action":"add-to-cart"},
        {"pattern":"shop://do/pay","action":"pay"},
        {"pattern":"shop://do/go-pro","action":"go-pro"},
        {"pattern":"shop://go","action":"nowhere"}
      ]}
      """#)

  static let screens: [ScreenDefinition] = [
    #"{"name":"feed","title":"Feed","body":["Cart: {{flags.cartCount}}","Signed in: {{flags.signedIn}}"]}"#,
    #"{"name":"cart","title":"Cart ({{flags.cartCount}})"}"#,
    #"{"name":"login","title":"Sign in","links":[{"label":"Sign in","url":"shop://do/sign-in"}]}"#,
    #"{"name":"checkout","title":"Checkout"}"#,
  ].map { try! ScreenDefinition(json: try! JSON.parse($0)) }

  static let good = #"""
    {"name":"Shop","version":"2.3","tabs":[{"title":"Feed","root":"shop://feed"},{"title":"Cart","root":"shop://cart"}],
     "flags":{"signedIn":false,"cartCount":0,"plan":"free"},
     "guards":{"signed-in":{"requires":{"signedIn":true},"open":"shop://login"},
               "premium":{"requires":{"plan":"pro"},"open":"shop://upgrade"}},
     "actions":{"sign-in":{"set":{"signedIn":true},"status":"Signed in","then":"dismiss"},
                "add-to-cart":{"add":{"cartCount":1},"status":"Added {{id}}: {{flags.cartCount}} in the cart"},
                "pay":{"after":1.5,"status":"Paid","alert":{"title":"Thanks","message":"{{flags.cartCount}} items"},"then":"shop://cart"},
                "go-pro":{"set":{"plan":"pro"},"status":"Now {{flags.plan}}"}}}
    """#

  static func definition(_ text: String) throws(AppFileError) -> AppDefinition {
    try AppDefinition(bytes: Array(text.utf8))
  }

  static func app(_ text: String = good) throws -> ShellApp {
    try definition(text).makeApp(table: table, screens: screens, registry: AppRegistry())
  }

  /// Each refusal names the member and the problem.
  @Test(arguments: [
    (#"{"version":"1","tabs":[{"title":"A","root":"shop://feed"}]}"#, "app.json: name: required"),
    (
      #"{"name":"","version":"1","tabs":[{"title":"A","root":"shop://feed"}]}"#,
      "app.json: name: must not be empty"
    ),
    (
      #"{"name":"S","version":"1.x","tabs":[{"title":"A","root":"shop://feed"}]}"#,
      "app.json: version: "
    ),
    (
      #"{"name":"S","version":1,"tabs":[{"title":"A","root":"shop://feed"}]}"#,
      "app.json: version: must be a string"
    ),
    (#"{"name":"S","version":"1"}"#, "app.json: tabs: required"),
    (#"{"name":"S","version":"1","tabs":[]}"#, "app.json: tabs: must have 1 to 5 tabs, not 0"),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"1","root":"x://"},{"title":"2","root":"x://"},{"title":"3","root":"x://"},{"title":"4","root":"x://"},{"title":"5","root":"x://"},{"title":"6","root":"x://"}]}"#,
      "app.json: tabs: must have 1 to 5 tabs, not 6"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed","icon":"x"}]}"#,
      "app.json: tabs[0].icon: unknown field"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"},{"title":"A","root":"shop://cart"}]}"#,
      "app.json: tabs[1].title: "
    ),
    (#"{"name":"S","version":"1","tabs":[{"title":"A"}]}"#, "app.json: tabs[0].root: required"),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"colour":1}"#,
      "app.json: colour: unknown field"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"flags":{"f":1.5}}"#,
      "app.json: flags.f: must be a boolean, an integer or a string"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"guards":{"g":{"requires":{"x":true},"open":"shop://login"}}}"#,
      "app.json: guards.g.requires.x: no flag named"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"flags":{"x":false},"guards":{"g":{"requires":{"x":1},"open":"shop://login"}}}"#,
      "app.json: guards.g.requires.x: must be a boolean"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"flags":{"x":false},"guards":{"g":{"requires":{"x":true}}}}"#,
      "app.json: guards.g.open: required"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"flags":{"x":"a"},"actions":{"bump":{"add":{"x":1}}}}"#,
      "app.json: actions.bump.add.x: the flag is a string; add needs an integer flag"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"flags":{"x":1},"actions":{"bump":{"add":{"x":"1"}}}}"#,
      "app.json: actions.bump.add.x: must be an integer"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"bump":{"add":{"count":1}}}}"#,
      "app.json: actions.bump.add.count: no flag named"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"a":{"after":61}}}"#,
      "app.json: actions.a.after: must be 0 to 60 seconds"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"a":{"wait":1}}}"#,
      "app.json: actions.a.wait: unknown field"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"a":{"status":"{{flags.nope}}"}}}"#,
      "app.json: actions.a.status: {{flags.nope}}: no flag named"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"a":{"alert":{"message":"m"}}}}"#,
      "app.json: actions.a.alert.title: required"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"a":{"then":""}}}"#,
      "app.json: actions.a.then: "
    ),
    (
      #"{"name":"S","name":"T","version":"1","tabs":[{"title":"A","root":"shop://feed"}]}"#,
      #"duplicate key "name""#
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"flags":{"a":1,"a":2}}"#,
      #"duplicate key "a""#
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"flags":{"n":0},"actions":{"a":{"set":{"n":true}}}}"#,
      "app.json: actions.a.set.n: must be an integer, as the flag is, not a boolean"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"a":{"alert":{"title":"t","body":"b"}}}}"#,
      "app.json: actions.a.alert.body: unknown field"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":{"a":{"then":3}}}"#,
      "app.json: actions.a.then: must be a string"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"actions":[]}"#,
      "app.json: actions: must be an object"
    ),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://feed"}],"guards":{"g":{"requires":{},"open":"x://","when":1}}}"#,
      "app.json: guards.g.when: unknown field"
    ),
    (#"{"name":"S","version":"1","tabs":{"title":"A"}}"#, "app.json: tabs: must be an array"),
    (
      #"{"name":"S","version":"1","tabs":[{"title":"","root":"shop://feed"}]}"#,
      "app.json: tabs[0].title: must not be empty"
    ),
    ("[1]", "app.json: must be an object"),
  ])
  func aRefusalNamesTheMember(text: String, expected: String) {
    do {
      _ = try Self.definition(text)
      Issue.record("accepted: \(text)")
    } catch {
      #expect("\(error)".contains(expected), "\(error)")
    }
  }

  /// Refusals that need the route table or the screens.
  @Test(arguments: [
    (
      #"{"name":"S","version":"1","flags":{"signedIn":false,"cartCount":0,"plan":"free"},"guards":{"signed-in":{"requires":{"signedIn":true},"open":"shop://login"},"premium":{"requires":{"plan":"pro"},"open":"shop://upgrade"}},"tabs":[{"title":"A","root":"shop://feed"},{"title":"B","root":"shop://nowhere"}]}"#,
      "app.json: tabs[1].root: \"shop://nowhere\" matches no route"
    ),
    (
      #"{"name":"S","version":"1","flags":{"signedIn":false,"cartCount":0,"plan":"free"},"guards":{"signed-in":{"requires":{"signedIn":true},"open":"shop://login"},"premium":{"requires":{"plan":"pro"},"open":"shop://upgrade"}},"tabs":[{"title":"A","root":"shop://do/pay"}]}"#,
      "app.json: tabs[0].root: \"shop://do/pay\" ends on routes[8], which is not a screen"
    ),
    (
      #"{"name":"S","version":"1","flags":{"signedIn":false,"cartCount":0,"plan":"free"},"guards":{"signed-in":{"requires":{"signedIn":true},"open":"shop://login"},"premium":{"requires":{"plan":"pro"},"open":"shop://upgrade"}},"tabs":[{"title":"A","root":"shop://checkout"}]}"#,
      "app.json: tabs[0].root: \"shop://checkout\" ends on routes[3], which has the guard 'signed-in'"
    ),
    (
      #"{"name":"S","version":"1","flags":{"signedIn":false,"cartCount":0,"plan":"free"},"guards":{"signed-in":{"requires":{"signedIn":true},"open":"shop://pro"},"premium":{"requires":{"plan":"pro"},"open":"shop://upgrade"}},"tabs":[{"title":"A","root":"shop://login"}]}"#,
      "app.json: guards.signed-in.open: \"shop://pro\" opens a guarded route"
    ),
    (
      #"{"name":"S","version":"1","flags":{"cartCount":0},"tabs":[{"title":"A","root":"shop://login"}]}"#,
      "feed.json: {{flags.signedIn}}: no flag named"
    ),
    (
      #"{"name":"S","version":"1","flags":{"signedIn":false,"cartCount":0,"plan":"free"},"tabs":[{"title":"A","root":"shop://feed"}]}"#,
      "routes[3].guard: unknown guard 'signed-in'"
    ),
  ])
  func aRefusalThatNeedsTheTable(text: String, expected: String) {
    do {
      _ = try Self.app(text)
      Issue.record("accepted: \(text)")
    } catch {
      #expect("\(error)".contains(expected), "\(error)")
    }
  }

  @Test func aNameDefinedInDataAndInSwiftIsRefused() throws {
    var registry = AppRegistry()
    registry.action("sign-in") { _, _ in .done(.status("x")) }
    #expect(throws: AppFileError.self) {
      _ = try Self.definition(Self.good).makeApp(
        table: Self.table, screens: Self.screens, registry: registry)
    }
    var screens = AppRegistry()
    screens.screen("feed") { _ in Screen(name: "feed", title: "F") }
    #expect(throws: AppFileError.self) {
      _ = try Self.definition(Self.good).makeApp(
        table: Self.table, screens: Self.screens, registry: screens)
    }
  }

  @Test func aNameRegisteredTwiceInSwiftIsRefused() throws {
    var registry = AppRegistry()
    registry.action("pay") { _, _ in .done(.status("x")) }
    registry.action("pay") { _, _ in .done(.status("y")) }
    do {
      _ = try Self.definition(
        #"{"name":"S","version":"1","tabs":[{"title":"A","root":"shop://login"}]}"#
      )
      .makeApp(table: Self.table, screens: [], registry: registry)
      Issue.record("accepted an action registered twice")
    } catch {
      #expect(error.description == "action 'pay' is registered twice in Swift")
    }
  }

  @Test func flagsAreShownLiveAndInTheStateJSON() throws {
    var harness = Harness(app: try Self.app())
    #expect(harness.state.tabs[0].stack[0].body == ["Cart: 0", "Signed in: false"])
    #expect(
      harness.state.json(flags: harness.model.session.flags).serialized.hasSuffix(
        #""flags":{"signedIn":false,"cartCount":0,"plan":"free"}}"#))
    harness.open("shop://do/add/7")
    #expect(harness.model.status == "Added 7: 1 in the cart")
    #expect(harness.state.tabs[0].stack[0].body == ["Cart: 1", "Signed in: false"])
    #expect(harness.state.tabs[1].stack[0].title == "Cart (1)")
    #expect(
      harness.model.log.last?.outcome
        == .handled(action: "add-to-cart", status: "Added 7: 1 in the cart"))
  }

  @Test func theStateJSONHasEmptyFlagsWhenTheAppHasNone() {
    let state = Harness().state
    #expect(state.json(flags: Flags()).serialized.hasSuffix(#""alert":null,"flags":{}}"#))
  }

  @Test func aGuardOnAStringFlagOpensItsScreenAndGoesOnOnceItHolds() throws {
    var harness = Harness(app: try Self.app())
    harness.open("shop://pro")
    #expect(harness.state.modals.count == 1)
    #expect(harness.model.log.contains { $0.outcome == .guarded("premium") })
    harness.open("shop://do/go-pro")
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.topScreen.name == "checkout")
    #expect(harness.model.session.flags["plan"] == .string("pro"))
  }

  @Test func thenDismissClosesTheGuardScreenOnce() throws {
    var harness = Harness(app: try Self.app())
    harness.open("shop://checkout")
    #expect(harness.state.modals.count == 1)
    harness.send(.linkFollowed(0))
    #expect(harness.state.modals.isEmpty)
    #expect(harness.state.topScreen.name == "checkout")
    #expect(harness.state.tabs[0].stack.map(\.name) == ["feed", "checkout"])
  }

  @Test func anActionWithAfterFinishesLaterAndEscCancelsIt() throws {
    var harness = Harness(app: try Self.app())
    harness.open("shop://do/add/1")
    harness.open("shop://do/pay")
    #expect(harness.model.pending != nil)
    #expect(harness.model.status == "Running pay… (Esc cancels)")
    guard case .finishLater(let token, let after, let result)? = harness.effects.last else {
      Issue.record("no async work: \(harness.effects)")
      return
    }
    #expect(after == .milliseconds(1500))
    harness.send(.workFinished(token: token, result: result))
    // `then` comes last: its screen's status follows "Paid".
    #expect(harness.model.status == "Opened Cart (1)")
    #expect(harness.state.alert == Alert(title: "Thanks", message: "1 items"))
    #expect(harness.state.selectedTab == 0)
    #expect(harness.model.log.last?.url == "shop://cart")

    var cancelled = Harness(app: try Self.app())
    cancelled.open("shop://do/pay")
    cancelled.send(.backRequested)
    #expect(cancelled.model.pending == nil)
    #expect(cancelled.model.status.hasPrefix("Cancelled"))
  }

  @Test func theTabRootTakesParametersFromItsURL() throws {
    let table = try RouteTable(
      json: #"{"routes":[{"pattern":"x://list/<int:page>","screen":"list"}]}"#)
    let list = try ScreenDefinition(
      json: try JSON.parse(
        #"{"name":"list","title":"Page {{page}}","params":{"page":{"type":"int","required":true}}}"#
      ))
    let app = try Self.definition(
      #"{"name":"X","version":"1","tabs":[{"title":"List","root":"x://list/3"}]}"#
    ).makeApp(table: table, screens: [list], registry: AppRegistry())
    #expect(app.initialModel().shell.tabs[0].stack[0].title == "Page 3")
  }

  @Test func versionsCompareWithMissingPartsAsZero() throws {
    #expect(try Self.definition(Self.good).version == AppVersion("2.3.0")!)
  }
}
