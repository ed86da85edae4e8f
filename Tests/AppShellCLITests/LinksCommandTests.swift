import Demo
import Foundation
import Interface
import Links
import Render
import Routing
import Shell
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// `appshell links check`, the demo's links, and apps whose link files are missing or broken.
@Suite struct LinksCommandTests {
  @Test func checkAnswersOneJSONLinePerURL() throws {
    let result = run([
      "links", "check", "https://appshell.example.com/orders/5",
      "https://appshell.example.com/help/returns", "shop2://x",
    ])
    #expect(result.status == 1)
    try #require(result.lines.count == 3)
    let app = try parseLine(result.lines[0])
    #expect(app["opens"] == .string("app"))
    #expect(
      app["decidedBy"]
        == .string("aasa/appshell.example.com.json: applinks.details[0].components[1]"))
    #expect(app["matched"] == .bool(true))
    #expect(app["pattern"] == .string("myapp://orders/<int:id>"))
    #expect(app["redirects"] == .array([.string("myapp://orders/5")]))
    #expect(
      result.lines[1]
        == #"{"url":"https://appshell.example.com/help/returns","opens":"safari","reason":"excluded by aasa/appshell.example.com.json: applinks.details[0].components[0]","decidedBy":"aasa/appshell.example.com.json: applinks.details[0].components[0]"}"#
    )
    #expect(
      result.lines[2]
        == #"{"url":"shop2://x","opens":"nothing","reason":"no installed app opens shop2:","decidedBy":null}"#
    )
  }

  @Test func exitZeroWhenEveryURLOpensTheAppAndMatches() {
    #expect(run(["links", "check", "myapp://orders/5", "navigator://user/x"]).status == 0)
    // The app gets it, but no route matches.
    #expect(run(["links", "check", "myapp://nowhere"]).status == 1)
  }

  @Test func streamsStandardInputAnsweringEachLineBeforeReadingMore() {
    let result = run(
      ["links", "check"],
      stdin: [Array("myapp://home\nhttp://x/".utf8), Array("\nshop2://y".utf8)])
    let home = run(["links", "check", "myapp://home"]).stdout
    let http = run(["links", "check", "http://x/"]).stdout
    let shop = run(["links", "check", "shop2://y"]).stdout
    #expect(result.terminal.outputAtRead.dropFirst().first == home)
    #expect(result.stdout == home + http + shop)
    #expect(result.status == 1)
  }

  @Test func explainListsTheComponentsThenTheRouting() {
    let result = run(["links", "check", "--explain", "https://appshell.example.com/track/5"])
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        """
        https://appshell.example.com/track/5
          opens: app: admitted by aasa/appshell.example.com.json: applinks.details[0].components[2]
          AASA components tried:
            applinks.details[0].components[0]: no match: "/": "/help/*" does not match the path "/track/5"
            applinks.details[0].components[1]: no match: "/": "/orders/*" does not match the path "/track/5"
            applinks.details[0].components[2]: matches: admitted
        URL https://appshell.example.com/track/5 (from outside the app)
        """), "\(result.stdout)")
    let safari = run(["links", "check", "--explain", "https://appshell.example.com/help/x"])
    #expect(safari.stdout.contains("not routed: the app does not get it"))
    #expect(safari.status == 1)
  }

  @Test func badUsageIsExit2() {
    #expect(run(["links"]).status == 2)
    #expect(run(["links", "verify"]).status == 2)
    #expect(run(["links", "check", "--bogus"]).status == 2)
    #expect(run(["links", "check", "--screens"]).status == 2)
    #expect(run(["links", "--help"]).status == 0)
  }

  /// Every URL that reached the demo from outside before it had `links` still reaches it:
  /// each sample URL of each route that matched from outside (a route without a scheme is
  /// tried with each of the schemes the demo's routes use).
  @Test func nothingThatReachedTheDemoStopsReachingIt() throws {
    DemoApp.register()
    let app = try AppLoader.loadApp(screens: nil, routes: nil)
    #expect(app.links != nil)
    let schemes = Set(app.table.entries.compactMap(\.pattern.scheme))
    var checked = 0
    var httpsGlobal = 0
    for entry in app.table.entries {
      var samples = AASAExport.sampleURLs(entry.pattern)
      if entry.pattern.scheme == nil {
        // A pattern without scheme and host matches any: it is reached through every scheme,
        // and over https on every associated host with an AASA.
        let text = entry.pattern.text.replacingOccurrences(of: ":userID", with: "42")
        samples = schemes.sorted().filter { $0 != "https" }.map { "\($0):/\(text)" }
        for host in app.links!.aasa.keys.sorted() {
          let https = AASAExport.sampleURLs(entry.pattern, host: host)
          #expect(!https.isEmpty)
          samples += https
          httpsGlobal += https.count
        }
      }
      for sample in samples where app.table.resolve(sample, from: .external).isMatched {
        #expect(app.delivery(of: sample).opens == .app, "\(sample): \(app.delivery(of: sample))")
        checked += 1
      }
    }
    #expect(checked > 30)
    #expect(httpsGlobal > 0)
    #expect(app.delivery(of: "https://appshell.example.com/user/view/bob").opens == .app)
    // The lint would say if a global route were not reached over https.
    let lint = run(["routes", "--lint"])
    #expect(!lint.stdout.contains("unreachable"), "\(lint.stdout)")
  }

  /// A global route an AASA does not admit is unreachable over https on that host.
  @Test func lintReportsAGlobalRouteTheAASANeverAdmits() throws {
    let directories = try PrivateDirectories()
    var files = Self.files
    files["routes.json"] =
      #"{"routes":[{"pattern":"shop://feed","screen":"feed"},{"pattern":"https://shop.example.com/p/:id","screen":"feed"},{"pattern":"/g/:id","screen":"feed"}]}"#
    let directory = try AppDirectoryTests.write(files, in: directories)
    let lint = run(["routes", "--lint", "--screens", directory])
    #expect(lint.status == 1)
    #expect(
      lint.stdout.contains(
        #"unreachable: routes[2] "/g/:id": iOS opens https://shop.example.com/g/sample in Safari"#),
      "\(lint.stdout)")
  }

  /// Each host serves its own file: an export for routes on several hosts needs --host.
  @Test func exportOfRoutesOnSeveralHostsNeedsAHost() throws {
    let directories = try PrivateDirectories()
    var files = Self.files
    files["app.json"] = files["app.json"]!.replacingOccurrences(
      of: #""schemes":["shop"]"#,
      with: #""schemes":["shop"],"associatedDomains":["applinks:*.example.org"]"#)
    files["routes.json"] =
      #"{"routes":[{"pattern":"shop://feed","screen":"feed"},{"pattern":"https://shop.example.com/p/:id","screen":"feed"},{"pattern":"https://m.example.org/q/:id","screen":"feed"}]}"#
    let directory = try AppDirectoryTests.write(files, in: directories)
    let both = run(["routes", "--export", "aasa", "--screens", directory])
    #expect(both.status == 2)
    #expect(both.stdout.isEmpty)
    #expect(
      both.stderr
        == "appshell routes: the table's https routes are on 2 hosts (shop.example.com, m.example.org), and each serves its own file: pick one with --host HOST\n"
    )
    let one = run(["routes", "--export", "aasa", "--screens", directory, "--host", "m.example.org"])
    #expect(one.status == 0)
    #expect(one.stdout.contains(#""/":"/q/?*""#))
    #expect(!one.stdout.contains("/p/"))
  }

  /// The tour: one link that opens the app, one that opens Safari and why, one that lands on
  /// its own tab.
  @Test func theToursLinks() throws {
    DemoApp.register()
    let app = try AppLoader.loadApp(screens: nil, routes: nil)
    var model = app.initialModel()
    _ = app.reduce(
      &model, .urlOpened("https://appshell.example.com/orders/2015032688", origin: .external))
    #expect(model.shell.topScreen.name == "order-detail")
    #expect(model.shell.selectedTab == 0)
    _ = app.reduce(
      &model, .urlOpened("https://appshell.example.com/help/returns", origin: .external))
    #expect(
      model.log.last?.outcome
        == .notDelivered(
          opens: "safari",
          reason: "excluded by aasa/appshell.example.com.json: applinks.details[0].components[0]"))
    _ = app.reduce(
      &model, .urlOpened("https://appshell.example.com/track/2015032688", origin: .external))
    #expect(model.shell.selectedTab == 1)
    #expect(model.shell.currentStack.map(\.name) == ["order-list", "order-detail"])
    #expect(model.log.last?.landing == "switched to Orders, reset")
  }

  /// The event log (F2) says who opened a URL the app did not get, and how a screen landed.
  @Test func theEventLogPaneShowsDeliveryAndArrival() throws {
    DemoApp.register()
    let app = try AppLoader.loadApp(screens: nil, routes: nil)
    var model = app.initialModel()
    _ = app.reduce(
      &model, .urlOpened("https://appshell.example.com/help/returns", origin: .external))
    _ = app.reduce(&model, .urlOpened("zzz://x", origin: .banner))
    _ = app.reduce(&model, .urlOpened("https://appshell.example.com/track/7", origin: .external))
    let lines = model.log.map { $0.headline + "\n" + $0.detail }
    #expect(
      lines == [
        "[external] https://appshell.example.com/help/returns\n→ opened in Safari: excluded by aasa/appshell.example.com.json: applinks.details[0].components[0]",
        "[banner] zzz://x\n→ nothing opens it: no installed app opens zzz:",
        "[external] https://appshell.example.com/track/7\n⇒ myapp://track/7 ~ myapp://track/<int:id> {orderid=7} → switched to Orders, reset, pushed order-detail",
      ])
  }

  @Test func exportOfTheDemoAdmitsItsHTTPSRoutes() throws {
    let both = run(["routes", "--export", "aasa"])
    #expect(both.status == 2, "the demo's https routes are on two hosts")
    #expect(both.stderr.contains("(appshell.example.com, *.appshell.example.com)"))
    let result = run(["routes", "--export", "aasa", "--host", "appshell.example.com"])
    #expect(result.status == 0)
    let document = try AASADocument(bytes: Array(result.stdout.utf8))
    for url in ["https://appshell.example.com/orders/5", "https://appshell.example.com/track/5"] {
      #expect(document.decide(try LinkURL(url), appID: "ABCDE12345.com.example.appshell").admitted)
    }
    #expect(!result.stdout.contains("/u/"), "a *. route is not served by the bare domain")
    let www = run(["routes", "--export", "aasa", "--host", "www.appshell.example.com"])
    let subdomain = try AASADocument(bytes: Array(www.stdout.utf8))
    let profile = try LinkURL("https://www.appshell.example.com/u/alice")
    #expect(subdomain.decide(profile, appID: "ABCDE12345.com.example.appshell").admitted)
    #expect(run(["routes", "--export", "json"]).status == 2)
    #expect(run(["routes", "--app-id", "A.b"]).status == 2)
    let other = run([
      "routes", "--export", "aasa", "--app-id", "OTHER.app", "--host", "appshell.example.com",
    ])
    #expect(other.stdout.contains(#""appIDs": ["OTHER.app"]"#))
  }

  /// `openurl` against the running demo: the decision is made before any routing, and the
  /// reply says who opened the URL instead.
  @Test func openurlShowsWhoOpenedTheURL() throws {
    let app = try HeadlessApp()
    try app.start([])
    defer { _ = app.stop() }
    let safari = try app.client(["openurl", "https://appshell.example.com/help/returns"])
    #expect(safari.status == 0, "\(safari.stderr)")
    #expect(safari.stdout.contains("opened in Safari: excluded by"), "\(safari.stdout)")
    #expect(try app.stackScreens() == ["home"])
    let tracked = try app.client(["openurl", "https://appshell.example.com/track/9"])
    #expect(
      tracked.stdout.contains("switched to Orders, reset, pushed order-detail"),
      "\(tracked.stdout)")
    #expect(try app.stackScreens() == ["order-list", "order-detail"])
  }

  // MARK: - Bad link files

  static let files: [String: String] = [
    "app.json": #"""
    {"name":"Shop","version":"1.0","tabs":[{"title":"Feed","root":"shop://feed"}],
     "links":{"appID":"T.shop","schemes":["shop"],"infoPlist":"Info.plist",
              "entitlements":"Shop.entitlements","aasa":{"shop.example.com":"aasa.json"}}}
    """#,
    "routes.json":
      #"{"routes":[{"pattern":"shop://feed","screen":"feed"},{"pattern":"https://shop.example.com/p/:id","screen":"feed"}]}"#,
    "feed.json": #"{"name":"feed","title":"Feed"}"#,
    "Info.plist":
      #"<plist><dict><key>CFBundleURLTypes</key><array><dict><key>CFBundleURLSchemes</key><array><string>shop2</string></array></dict></array></dict></plist>"#,
    "Shop.entitlements":
      #"<plist><dict><key>com.apple.developer.associated-domains</key><array><string>applinks:shop.example.com</string></array></dict></plist>"#,
    "aasa.json": #"{"applinks":{"details":[{"appIDs":["T.shop"],"components":[{"/":"/p/*"}]}]}}"#,
  ]

  @Test func aGoodAppReadsItsLinkFiles() throws {
    let directories = try PrivateDirectories()
    let directory = try AppDirectoryTests.write(Self.files, in: directories)
    let app = try AppLoader.loadApp(screens: directory, routes: nil)
    #expect(app.delivery(of: "shop2://x").opens == .app)
    #expect(app.delivery(of: "https://shop.example.com/p/1").opens == .app)
    #expect(app.delivery(of: "https://shop.example.com/q").opens == .safari)
    #expect(
      run(["links", "check", "--screens", directory, "https://shop.example.com/p/1"]).status == 0)
  }

  @Test(
    arguments: [
      (
        "aasa.json", nil,
        "aasa.json: cannot read the AASA file (app.json: links.aasa.\"shop.example.com\"): No such file or directory"
      ),
      ("aasa.json", "{", "aasa.json:1:2: invalid JSON"),
      (
        "aasa.json", #"{"applinks":{"details":[{"appIDs":["T.shop"],"components":[{"?":1}]}]}}"#,
        #"aasa.json:1:61: applinks.details[0].components[0]."?": must be a string or an object"#
      ),
      (
        "Info.plist", nil,
        "Info.plist: cannot read the property list (app.json: links.infoPlist): No such file or directory"
      ),
      ("Info.plist", "<plist><dict>", "Info.plist:1:14: </dict> missing"),
      (
        "Info.plist", "<plist><dict><key>CFBundleURLTypes</key><string>x</string></dict></plist>",
        "Info.plist: CFBundleURLTypes: must be an array, not a string"
      ),
      (
        "Shop.entitlements", nil,
        "Shop.entitlements: cannot read the property list (app.json: links.entitlements): No such file or directory"
      ),
      (
        "Shop.entitlements", "bplist00",
        "Shop.entitlements: binary property list: too short for its trailer"
      ),
      (
        "Shop.entitlements",
        "<plist><dict><key>com.apple.developer.associated-domains</key><array><integer>1</integer></array></dict></plist>",
        "Shop.entitlements: com.apple.developer.associated-domains[0]: must be a string, not an integer"
      ),
    ] as [(String, String?, String)])
  func aBadLinkFileRefusesTheAppAtStart(file: String, text: String?, message: String) throws {
    let directories = try PrivateDirectories()
    var files = Self.files
    files[file] = text
    let directory = try AppDirectoryTests.write(files, in: directories)
    let started = try AppDirectoryTests.replay(directory, "")
    #expect(started.status == 2)
    #expect(started.stderr.contains(directory + "/" + message), "\(started.stderr)")
    let checked = run(["links", "check", "--screens", directory, "shop://feed"])
    #expect(checked.status == 2)
    #expect(checked.stderr.contains(message), "\(checked.stderr)")
  }

  @Test func badLinksInAppJSONNameTheMember() throws {
    let directories = try PrivateDirectories()
    var files = Self.files
    files["app.json"] = files["app.json"]!.replacingOccurrences(
      of: #""schemes":["shop"]"#, with: #""schemes":["shop"],"universal":true"#)
    var directory = try AppDirectoryTests.write(files, in: directories)
    var started = try AppDirectoryTests.replay(directory, "")
    #expect(started.status == 2)
    #expect(
      started.stderr.contains("app.json:2:47: links.universal: unknown field"), "\(started.stderr)")
    files["app.json"] = Self.files["app.json"]!.replacingOccurrences(
      of: #""schemes":["shop"]"#, with: #""associatedDomains":["applinks:a.com:443"]"#)
    directory = try AppDirectoryTests.write(files, in: directories)
    started = try AppDirectoryTests.replay(directory, "")
    #expect(
      started.stderr.contains(
        #"app.json:2:49: links.associatedDomains[0]: "applinks:a.com:443": a host has no port"#),
      "\(started.stderr)")
  }

  @Test func anUnknownTabRefusesTheTable() throws {
    let directories = try PrivateDirectories()
    var files = Self.files
    files["routes.json"] =
      #"{"routes":[{"pattern":"shop://feed","screen":"feed","tab":"Cart"},{"pattern":"https://shop.example.com/p/:id","screen":"feed"}]}"#
    let directory = try AppDirectoryTests.write(files, in: directories)
    let started = try AppDirectoryTests.replay(directory, "")
    #expect(started.status == 2)
    #expect(
      started.stderr.contains(
        #"routes.json:1:53: routes[0].tab: no tab titled "Cart" (this app's tabs: "Feed")"#),
      "\(started.stderr)")
    // The lint reports what the app refuses.
    let lint = run(["routes", "--lint", "--screens", directory])
    #expect(lint.status == 1)
    #expect(
      lint.stdout.contains(
        #"routes[0] "shop://feed" lands on the tab "Cart", which this app does not have (its tabs: "Feed"); the app refuses the table"#
      ), "\(lint.stdout)")
    #expect(lint.lines.last == "1 problem: 1 tab")
  }

  @Test func aReloadWithABrokenAASAKeepsTheLastGoodApp() throws {
    let directories = try PrivateDirectories()
    let directory = try AppDirectoryTests.write(Self.files, in: directories)
    let app = try AppLoader.loadApp(screens: directory, routes: nil)
    var console = Console(app: app, size: Size(columns: 80, rows: 24))
    var source = TableSource(
      location: .file(directory + "/routes.json", shipped: false), key: nil,
      cache: TableCache(directory: directories.cache), shippedPath: directory + "/routes.json")
    source.appDirectory = directory
    try Data(#"{"applinks":{"details":{}}}"#.utf8).write(
      to: URL(fileURLWithPath: directory + "/aasa.json"))
    #expect(source.reload(into: &console) == nil)
    #expect(
      console.model.status.contains("aasa.json:1:14: applinks.details: must be an array"),
      "\(console.model.status)")
    #expect(console.model.status.contains("keeping the one in force"))
    #expect(console.app.delivery(of: "https://shop.example.com/p/1").opens == .app)
  }
}
