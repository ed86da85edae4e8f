import JSON
import Routing
import Testing

@testable import Shell

// The app-level lint (`AppLint`): guards, targets, renames and links, each against an app
// made here from a small table and a few screens.

/// An app with a `home` tab root, an `item` screen declaring `id` (int), an `open` action and
/// a `signed-in` guard whose URL is `t://login`, over the given routes (JSON entries).
private func app(_ routes: [String], version: String = "2.0", itemLinks: String = "[]") throws
  -> ShellApp
{
  let inspection = try RouteTable.inspect(
    json: Array((#"{"routes":["# + routes.joined(separator: ",") + "]}").utf8))
  var catalog = ScreenCatalog()
  let home = try ScreenDefinition(
    json: try JSON.parse(
      #"{"name":"home","title":"Home","links":[{"label":"Item 5","url":"t://item/5"}]}"#))
  let item = try ScreenDefinition(
    json: try JSON.parse(
      #"{"name":"item","title":"Item {{id}}","params":{"id":{"type":"int","required":true}},"links":"#
        + itemLinks + "}"))
  catalog.register(home)
  catalog.register(item)
  catalog.register("unrouted") { _ in
    Screen(name: "unrouted", title: "U", links: [Link("Nowhere", .open("t://nowhere"))])
  }
  return ShellApp(
    table: inspection.table, catalog: catalog, actions: ["open": { _, _ in .done(.status("ok")) }],
    guards: ["signed-in": GuardRule(url: "t://login") { $0.signedIn }],
    tabs: [ShellApp.TabSpec(title: "Home", root: "home")], version: AppVersion(version)!)
}

private let baseRoutes = [
  #"{"pattern":"t://home","screen":"home"}"#,
  #"{"pattern":"t://item/<int:id>","screen":"item"}"#,
  #"{"pattern":"t://login","screen":"home"}"#,
]

@Suite struct AppLintTests {
  @Test func aCleanAppHasNoFindings() throws {
    #expect(AppLint.findings(try app(baseRoutes)).isEmpty)
  }

  @Test func guardsTheAppLacksAndGuardedGuardURLs() throws {
    let findings = AppLint.findings(
      try app([
        #"{"pattern":"t://home","screen":"home"}"#,
        #"{"pattern":"t://item/<int:id>","screen":"item","guard":"admin"}"#,
        #"{"pattern":"t://login","screen":"home","guard":"signed-in"}"#,
      ]))
    #expect(findings.map(\.kind) == [.guard, .guard])
    #expect(findings.map(\.routes) == [[1], [2]])
    #expect(
      findings[0].message
        == #"routes[1] "t://item/<int:id>" needs the guard 'admin', which this app does not have (it has: signed-in); the app refuses the table"#
    )
    #expect(findings[1].message.contains("guard's own URL \"t://login\""))
  }

  @Test func targetsThisBuildLacksUnlessTheRouteAsksForANewerApp() throws {
    let findings = AppLint.findings(
      try app(
        baseRoutes + [
          #"{"pattern":"t://ghost","screen":"ghost"}"#,
          #"{"pattern":"t://later","screen":"later","minVersion":"3"}"#,
          #"{"pattern":"t://old","screen":"old","minVersion":"2.0"}"#,
          #"{"pattern":"t://act","action":"open"}"#,
          #"{"pattern":"t://missing","action":"missing"}"#,
          #"{"pattern":"t://note","notification":"Anything"}"#,
        ]))
    #expect(findings.map(\.kind) == [.target, .target, .target])
    #expect(findings.map(\.routes) == [[3], [5], [7]])
    #expect(
      findings[0].message
        == #"routes[3] "t://ghost" opens the screen 'ghost', which this build does not have, and it has no minVersion asking for a newer app: every URL it wins shows "Upgrade required""#
    )
    #expect(findings[1].message.contains("its minVersion 2.0 is not newer than this app's 2.0"))
    #expect(findings[2].message.contains("calls the action 'missing'"))
  }

  @Test func renamesToNamesTheScreenDoesNotDeclare() throws {
    let findings = AppLint.findings(
      try app(
        baseRoutes + [
          #"{"pattern":"t://a/<int:n>","screen":"item","rename":{"n":"id"}}"#,
          #"{"pattern":"t://b/<int:n>","screen":"item","rename":{"n":"itemId","x":"id"}}"#,
          #"{"pattern":"t://c/:n","screen":"home","rename":{"n":"name"}}"#,
          #"{"pattern":"t://d/:n","screen":"ghost","rename":{"n":"name"}}"#,
          #"{"pattern":"t://e/:n","redirect":"t://item/:id","rename":{"n":"id"}}"#,
        ]))
    // The rename to a screen this build lacks cannot be checked; the route is a target
    // finding instead. Redirects are not screens.
    #expect(findings.map(\.kind) == [.target, .rename, .rename])
    #expect(findings.map(\.routes) == [[6], [4], [5]])
    #expect(
      findings[1].message
        == #"routes[4] "t://b/<int:n>" renames 'n' to 'itemId', which the screen 'item' does not declare (it declares: id)"#
    )
    #expect(findings[2].message.hasSuffix("(it declares no parameters)"))
  }

  @Test func linksAreFilledWithSampleValuesAndResolvedFromInsideTheApp() throws {
    let links = """
      [{"label":"Again","url":"t://item/{{id}}"},
       {"label":"Reviews","url":"t://item/{{id}}/reviews"},
       {"label":"Done","result":"x"},
       {"label":"Old","url":"t://old/{{id}}"},
       {"label":"Internal","url":"t://internal"}]
      """
    let findings = AppLint.findings(
      try app(
        baseRoutes + [
          #"{"pattern":"t://old/:n","redirect":"t://gone/:n"}"#,
          #"{"pattern":"t://internal","action":"open","external":false}"#,
        ], itemLinks: links))
    #expect(findings.map(\.kind) == [.link, .link])
    #expect(findings.map(\.screen) == ["item", "item"])
    #expect(findings.map(\.link) == [1, 3])
    #expect(
      findings[0].message
        == #"screen 'item' links[1] "Reviews" opens "t://item/1/reviews" with sample parameters, which resolves to nothing: no route matches"#
    )
    #expect(
      findings[1].message
        == #"screen 'item' links[3] "Old" opens "t://old/1" with sample parameters, which resolves to nothing (after redirects to "t://gone/1"): no route matches"#
    )
  }

  @Test func linksOnScreensTheAppNeverShowsAreNotChecked() throws {
    // `unrouted` links to nowhere, but no route opens it and it is not a tab root.
    #expect(AppLint.findings(try app(baseRoutes)).isEmpty)
    let routed = AppLint.findings(
      try app(baseRoutes + [#"{"pattern":"t://u","screen":"unrouted"}"#]))
    #expect(routed.map(\.kind) == [.link])
    #expect(routed.first?.screen == "unrouted")
  }

  @Test func samplesFitTheirTypes() {
    for type in [CaptureType.string, .int, .float, .uuid] {
      #expect(ParameterSpec(type: type, required: true).accepts(AppLint.sample(type)))
    }
  }
}
