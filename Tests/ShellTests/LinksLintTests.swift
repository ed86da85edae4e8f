import Links
import Routing
import TestSupport
import Testing

@testable import Shell

/// `routes --lint` for an app with links.
@Suite struct LinksLintTests {
  static func app(routes: String, aasa: String) throws -> ShellApp {
    let table = try RouteTable(json: #"{"routes":[\#(routes)]}"#)
    var app = try FixtureApp.demo(table: table, screens: FixtureApp.screens("shell"), forLint: true)
    app.links = LinkPolicy(
      appID: "T.app", schemes: ["myapp"], domains: ["shop.example.com"],
      aasa: ["shop.example.com": ("aasa/shop.json", try AASADocument(bytes: Array(aasa.utf8)))])
    return app
  }

  static let routes = """
    {"pattern":"https://shop.example.com/orders/<int:id>","screen":"settings"},
    {"pattern":"https://shop.example.com/help/:page","screen":"settings"},
    {"pattern":"other://x","screen":"settings"},
    {"pattern":"other://internal","screen":"settings","external":false},
    {"pattern":"myapp://x","screen":"settings"}
    """

  func findings(_ aasa: String) throws -> [String] {
    LinksLint.findings(try Self.app(routes: Self.routes, aasa: aasa)).map(\.text)
  }

  @Test func eachKind() throws {
    let found = try findings(
      """
      {"applinks":{"details":[
        {"appIDs":["T.app"],"paths":["*"],"components":[
          {"/":"/orders/*"}, {"/":"/orders/5"}, {"/":"/blog/*"}]},
        {"appIDs":["Other.app"],"components":[{"/":"/nothing/*"}]}]}}
      """)
    #expect(
      found == [
        #"unreachable: routes[1] "https://shop.example.com/help/:page": iOS opens https://shop.example.com/help/sample in Safari: no component of aasa/shop.json admits it for T.app"#,
        #"scheme: routes[2] "other://x" uses the scheme other:, which the app does not register (links.schemes, Info.plist): nothing opens it from outside"#,
        "paths-ignored: aasa/shop.json: applinks.details[0] has both paths and components: its paths are ignored",
        "shadowed-component: aasa/shop.json: applinks.details[0].components[1] can never decide: aasa/shop.json: applinks.details[0].components[0] comes first and matches everything it matches",
        "unrouted: aasa/shop.json: applinks.details[0].components[2] admits URLs no route handles, such as https://shop.example.com/blog/",
      ])
  }

  @Test func catchAllBeforeAnExcludeShadowsIt() throws {
    let found = try findings(
      """
      {"applinks":{"details":[{"appIDs":["T.app"],"components":[
        {"/":"*"}, {"/":"/help/*","exclude":true}]}]}}
      """)
    #expect(
      found.contains {
        $0.hasPrefix("shadowed-component: aasa/shop.json: applinks.details[0].components[1]")
      })
  }

  @Test func cleanLinksHaveNoFindings() throws {
    let found = try findings(
      """
      {"applinks":{"details":[{"appIDs":["T.app"],"components":[
        {"/":"/orders/*"}, {"/":"/help/*"}]}]}}
      """)
    #expect(found.filter { !$0.hasPrefix("scheme:") } == [])
  }

  @Test func appWithoutLinksHasNoFindings() {
    #expect(LinksLint.findings(FixtureApp.app("shell")).isEmpty)
  }
}
