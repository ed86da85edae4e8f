import Demo
import Foundation
import Interface
import JSON
import Routing
import Shell
import TestSupport
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// Apps other than the shipped demo: a directory with `app.json`, `routes.json` and screens.
@Suite struct AppDirectoryTests {
  /// A shop unlike the demo: four tabs, no screen called `home`, a guard on a string flag and
  /// an action that finishes later.
  static let shop: [String: String] = [
    "app.json": #"""
    {"name":"Shop","version":"2.3.0",
     "tabs":[{"title":"Feed","root":"shop://feed"},{"title":"Search","root":"shop://search"},
             {"title":"Cart","root":"shop://cart"},{"title":"Me","root":"shop://me"}],
     "flags":{"plan":"free","cartCount":0},
     "guards":{"premium":{"requires":{"plan":"pro"},"open":"shop://upgrade"}},
     "actions":{"go-pro":{"set":{"plan":"pro"},"status":"Now on {{flags.plan}}","then":"dismiss"},
                "add":{"add":{"cartCount":1},"status":"Added {{id}}"},
                "checkout":{"after":1.5,"set":{"cartCount":0},"status":"Paid","then":"shop://feed"}}}
    """#,
    "routes.json": #"""
    {"routes":[
      {"pattern":"shop://feed","screen":"feed"},
      {"pattern":"shop://search","screen":"search"},
      {"pattern":"shop://cart","screen":"cart"},
      {"pattern":"shop://me","screen":"me"},
      {"pattern":"shop://deals","screen":"deals","guard":"premium"},
      {"pattern":"shop://upgrade","screen":"upgrade","presentation":"present"},
      {"pattern":"shop://do/go-pro","action":"go-pro"},
      {"pattern":"shop://do/add/<int:id>","action":"add"},
      {"pattern":"shop://do/checkout","action":"checkout"}
    ]}
    """#,
    "feed.json":
      #"{"name":"feed","title":"Feed","body":["Plan: {{flags.plan}}"],"links":[{"label":"Deals","url":"shop://deals"}]}"#,
    "search.json": #"{"name":"search","title":"Search"}"#,
    "cart.json":
      #"{"name":"cart","title":"Cart","body":["{{flags.cartCount}} items"],"links":[{"label":"Pay","url":"shop://do/checkout"}]}"#,
    "me.json": #"{"name":"me","title":"Me"}"#,
    "deals.json": #"{"name":"deals","title":"Deals"}"#,
    "upgrade.json":
      #"{"name":"upgrade","title":"Go pro","links":[{"label":"Go pro","url":"shop://do/go-pro"}]}"#,
  ]

  /// Writes files into a fresh directory under `directories`.
  static func write(_ files: [String: String], in directories: PrivateDirectories) throws -> String
  {
    let directory = directories.root + "/app"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (name, text) in files {
      try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }
    return directory
  }

  /// The app in `directory` in an 80x24 console, and the table source that reloads it from
  /// its files, as `appshell --screens DIRECTORY` runs it (its cache in `directories`).
  static func reloadable(_ directory: String, in directories: PrivateDirectories) throws -> (
    Console, TableSource
  ) {
    let app = try AppLoader.loadApp(screens: directory, routes: nil)
    var source = TableSource(
      location: .file(directory + "/routes.json", shipped: false), key: nil,
      cache: TableCache(directory: directories.cache), shippedPath: directory + "/routes.json")
    source.appDirectory = directory
    return (Console(app: app, size: Size(columns: 80, rows: 24)), source)
  }

  static func replay(_ directory: String, _ script: String, state: Bool = true) throws
    -> CapturedRun
  {
    let path = directory + "/flow.keys"
    try Data(script.utf8).write(to: URL(fileURLWithPath: path))
    return CapturedRun.run(
      ["replay", "--screens", directory] + (state ? ["--state"] : []) + [path])
  }

  @Test func aShopWithFourTabsAGuardOnAStringFlagAndAsyncWorkReplays() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.write(Self.shop, in: directories)
    let lint = CapturedRun.run(["routes", "--lint", "--screens", directory])
    #expect(lint.stdout == "no problems in 9 routes\n", "\(lint.stderr)")
    let run = try Self.replay(
      directory,
      "shop://deals<Enter><Snap><Down><Enter><Snap>shop://do/add/4<Enter>shop://cart<Enter><Snap>"
        + "shop://do/checkout<Enter><Snap>" + String(repeating: "<Left>", count: 15) + "<Snap>")
    #expect(run.status == 0, "\(run.stderr)")
    let states = try run.stdout.split(separator: "\n").map { try JSON.parse(String($0)) }
    try #require(states.count == 6)
    #expect(states[0]["tabs"]?.serialized.contains(#""title":"Search""#) == true)
    #expect(states[0]["modals"]?.serialized.contains("upgrade") == true)
    #expect(states[0]["flags"]?.serialized == #"{"plan":"free","cartCount":0}"#)
    // Going pro dismisses the upgrade screen once, and the deals open.
    #expect(states[1]["modals"]?.serialized == "[]")
    #expect(states[1]["tabs"]?.serialized.contains(#""screen":"deals""#) == true)
    #expect(states[1]["flags"]?.serialized == #"{"plan":"pro","cartCount":0}"#)
    #expect(states[2]["flags"]?.serialized == #"{"plan":"pro","cartCount":1}"#)
    // Checkout is still working, then done: the cart is empty and the feed is open.
    #expect(states[3]["flags"]?.serialized == #"{"plan":"pro","cartCount":1}"#)
    #expect(states[5]["flags"]?.serialized == #"{"plan":"pro","cartCount":0}"#)
    let screens = try Self.replay(directory, "shop://cart<Enter>", state: false)
    #expect(screens.stdout.contains(" 1 items") == false)
    #expect(screens.stdout.contains("Feed") && screens.stdout.contains("Search"))
    #expect(screens.stdout.contains(" 0 items"))
  }

  @Test func aDirectoryWithoutAppJSONIsRefusedSayingHowToAddOne() throws {
    let directories = try PrivateDirectories()
    var files = Self.shop
    files["app.json"] = nil
    let directory = try Self.write(files, in: directories)
    let run = try Self.replay(directory, "")
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(run.stderr.contains("no app.json"), "\(run.stderr)")
    #expect(run.stderr.contains("appshell init"), "\(run.stderr)")
    let lint = CapturedRun.run(["routes", "--lint", "--screens", directory])
    #expect(lint.status == 2)
    #expect(lint.stderr.contains("appshell init"))
  }

  @Test func aBrokenAppJSONAtStartIsExit2NamingTheMember() throws {
    let directories = try PrivateDirectories()
    var files = Self.shop
    files["app.json"] =
      #"{"name":"Shop","version":"1","flags":{"plan":"free","cartCount":0},"guards":{"premium":{"requires":{"plan":"pro"},"open":"shop://upgrade"}},"tabs":[{"title":"A","root":"shop://feed"},{"title":"B","root":"shop://nowhere"}]}"#
    let directory = try Self.write(files, in: directories)
    let run = try Self.replay(directory, "")
    #expect(run.status == 2)
    #expect(run.stdout.isEmpty)
    #expect(
      run.stderr.contains(#"app.json:1:197: tabs[1].root: "shop://nowhere" matches no route"#),
      "\(run.stderr)")
  }

  @Test func aReloadWithABrokenAppJSONKeepsTheLastGoodApp() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.write(Self.shop, in: directories)
    var (console, source) = try AppDirectoryTests.reloadable(directory, in: directories)
    try Data(#"{"name":"Shop","version":"1","tabs":[],"x":1}"#.utf8).write(
      to: URL(fileURLWithPath: directory + "/app.json"))
    #expect(source.reload(into: &console) == nil)
    #expect(
      console.model.status.contains("app.json:1:40: x: unknown field"), "\(console.model.status)")
    #expect(console.model.status.contains("keeping the one in force"))
    #expect(console.app.tabs.count == 4)
    // A good app.json is put in force, the flags keeping their values.
    console.send(.urlOpened("shop://do/add/1", origin: .prompt))
    var files = Self.shop
    files["app.json"] = files["app.json"]!.replacingOccurrences(
      of: #"{"title":"Me","root":"shop://me"}"#, with: #"{"title":"You","root":"shop://me"}"#)
    try Data(files["app.json"]!.utf8).write(to: URL(fileURLWithPath: directory + "/app.json"))
    #expect(source.reload(into: &console) != nil, "\(console.model.status)")
    #expect(console.app.tabs.map(\.title) == ["Feed", "Search", "Cart", "You"])
    #expect(console.model.session.flags["cartCount"] == .int(1))
  }

  @Test func theShippedDemoIsItsAppJSONAndItsSwiftPart() throws {
    DemoApp.register()
    let app = try AppLoader.loadApp(screens: nil, routes: nil)
    #expect(app.name == DemoApp.name)
    #expect(app.tabs.map(\.title) == ["Home", "Orders", "Me"])
    #expect(app.tabs.map(\.root) == ["home", "order-list", "personal-center"])
    #expect(app.version == AppVersion(DemoApp.version)!)
    #expect(app.flags == Flags([("signedIn", .bool(false))]))
    #expect(app.dataActions.keys.sorted() == ["sign-in", "sign-out"])
    #expect(app.guards.keys.sorted() == ["signed-in"])
    #expect(app.guards["signed-in"]?.url == "myapp://login")
    let swiftActions = DemoApp.setup.registry.actions.keys
    #expect(Set(app.actions.keys) == Set(swiftActions).union(app.dataActions.keys))
    for name in DemoApp.setup.registry.catalog.factories.keys {
      #expect(app.catalog.has(name), "the demo's Swift screen \(name) is missing")
    }
  }

  @Test func anotherDirectoryGetsNoneOfTheDemosSwiftScreens() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.write(Self.shop, in: directories)
    let app = try AppLoader.loadApp(screens: directory, routes: nil)
    #expect(!app.catalog.has("order-detail"))
    #expect(Set(app.actions.keys) == Set(app.dataActions.keys))
  }

  @Test func theShopRunsThroughTheSocket() throws {
    let app = try HeadlessApp()
    let directory = try Self.write(Self.shop, in: app.directories)
    try app.start(["--screens", directory])
    defer { _ = app.stop() }
    let opened = try app.client(["openurl", "shop://deals"])
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(try app.stackScreens().last == "upgrade")
    // The action runs from inside the app (a link on the upgrade screen's modal).
    let pro = try app.client(["openurl", "shop://do/go-pro"])
    #expect(pro.status == 0, "\(pro.stderr)")
    let reply = try app.state()
    let state = try #require(reply["state"] as? [String: Any])
    let flags = try #require(state["flags"] as? [String: Any])
    #expect(flags["plan"] as? String == "pro")
    #expect(try app.stackScreens() == ["feed", "deals"])
    let tabs = try #require(state["tabs"] as? [[String: Any]])
    #expect(tabs.map { $0["title"] as? String } == ["Feed", "Search", "Cart", "Me"])
  }

  @Test func initWritesAnAppThatLintsCleanAndWhoseTestsPass() throws {
    let directories = try PrivateDirectories()
    let directory = directories.root + "/x"
    let made = CapturedRun.run(["init", directory, "--name", "Shop", "--scheme", "shop"])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains("appshell --screens \(directory)"))
    #expect(made.stdout.contains("appshell test --screens \(directory)\n"))
    #expect(made.stdout.contains("appshell links diff git:origin/main \(directory)"))
    let surface = CapturedRun.run([
      "links", "dump", "--screens", directory, "--check", directory + "/links.surface",
    ])
    #expect(surface.status == 0, "\(surface.stdout)\(surface.stderr)")
    let lint = CapturedRun.run(["routes", "--lint", "--screens", directory])
    #expect(lint.status == 0)
    #expect(lint.stdout == "no problems in 8 routes\n", "\(lint.stderr)")
    let flow = directory + "/flows/first-run"
    let replay = CapturedRun.run([
      "replay", "--screens", directory, "--expect", flow + ".golden", flow + ".keys",
    ])
    #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    #expect(replay.stdout == "ok: 4 snapshots match \(flow).golden\n")
    // `appshell test` with no PATH runs the app's flows/: the flow and every contract case.
    let tested = CapturedRun.run(["test", "--screens", directory])
    #expect(tested.status == 0, "\(tested.stdout)\(tested.stderr)")
    #expect(
      tested.stdout.hasPrefix("ok   \(flow).keys\nok   \(directory)/flows/links.links.json#1 "))
    #expect(tested.stdout.hasSuffix("\n8 passed, 0 failed\n"), "\(tested.stdout)")
    let golden = try String(contentsOfFile: flow + ".golden", encoding: .utf8)
    #expect(golden.contains("Opened Your orders"), "the flow signs in and reaches the orders")
    let again = CapturedRun.run(["init", directory])
    #expect(again.status == 2)
    #expect(again.stderr.contains("is not empty"))
  }

  /// The app's `app.json` is watched: a broken one is refused and the last good app stays;
  /// `appshell reload` puts a good one in force.
  @Test func aWatchedAppJSONReloadsAndABrokenOneIsRefused() throws {
    let app = try HeadlessApp()
    let directory = try Self.write(Self.shop, in: app.directories)
    try app.start(["--screens", directory])
    defer { _ = app.stop() }
    let file = directory + "/app.json"
    func replace(_ text: String) throws {
      let temporary = directory + "/.app.json.swp"
      try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
      try #require(rename(temporary, file) == 0)
    }
    try replace(
      #"{"name":"Shop","version":"1","tabs":[{"title":"A","root":"shop://feed","icon":"x"}]}"#)
    let refused = try waitForState(app, "the broken app.json refused") {
      status($0).hasPrefix("App refused: ")
    }
    #expect(
      status(refused).contains("app.json:1:72: tabs[0].icon: unknown field"), "\(status(refused))")
    #expect(status(refused).hasSuffix("keeping the one in force"))
    let state = try #require(refused["state"] as? [String: Any])
    #expect((state["tabs"] as? [Any])?.count == 4)

    let renamed = Self.shop["app.json"]!.replacingOccurrences(
      of: #""title":"Me""#, with: #""title":"You""#)
    let hidden = directory + "/../app.json"
    try Data(renamed.utf8).write(to: URL(fileURLWithPath: hidden))
    try #require(rename(hidden, file) == 0)
    let reloaded = try app.client(["reload"])
    #expect(reloaded.status == 0, "\(reloaded.stderr)")
    let after = try waitForState(app, "the renamed tab") { reply in
      let state = reply["state"] as? [String: Any]
      let tabs = state?["tabs"] as? [[String: Any]] ?? []
      return tabs.last?["title"] as? String == "You"
    }
    #expect(!status(after).hasPrefix("App refused"))
  }

  @Test(arguments: [
    (["init"], "needs a directory"),
    (["init", "DIR", "--scheme", "9x"], "--scheme needs a URL scheme"),
    (["init", "DIR", "--scheme", "https"], "http and https are not custom schemes"),
    (["init", "DIR", "--name", ""], "--name needs a non-empty name"),
    (["init", "DIR", "--colour"], "unknown option '--colour'"),
    (["init", "DIR", "OTHER"], "unexpected argument 'OTHER'"),
  ])
  func initRefusesBadUsageWithExit2(arguments: [String], message: String) throws {
    let directories = try PrivateDirectories()
    let run = CapturedRun.run(
      arguments.map { $0 == "DIR" ? directories.root + "/new" : $0 })
    #expect(run.status == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: directories.root + "/new"))
  }
}
