import Foundation
import JSON
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `appshell test --coverage`: an app with known flows and link contracts, and exactly what
/// they cover.
@Suite struct CoverageTests {
  /// The app, its flow and its contract; returns the app directory and the tests directory.
  static func app(_ apps: SurfaceApps) throws -> (app: String, tests: String) {
    let links =
      #""links":{"appID":"A.b","schemes":["t"],"associatedDomains":["applinks:t.example.com"],"aasa":{"t.example.com":"aasa.json"}}"#
    let app = try apps.app(
      "app",
      routes: [
        #"{"pattern":"t://items/<int:id>","screen":"item"}"#,
        #"{"pattern":"t://old/:id","redirect":"t://items/:id"}"#,
        #"{"pattern":"t://never","screen":"never"}"#,
        #"{"pattern":"https://t.example.com/items/<int:id>","redirect":"t://old/:id"}"#,
      ], appMembers: links)
    try Data(
      #"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/items/*"},{"/":"/never"}]}]}}"#
        .utf8
    ).write(to: URL(fileURLWithPath: app + "/aasa.json"))
    for screen in ["item", "never"] {
      try Data(#"{"name":"\#(screen)","title":"\#(screen)"}"#.utf8).write(
        to: URL(fileURLWithPath: app + "/\(screen).json"))
    }
    let tests = apps.root + "/tests"
    try FileManager.default.createDirectory(atPath: tests, withIntermediateDirectories: true)
    try Data("t://home<Enter>\n".utf8).write(to: URL(fileURLWithPath: tests + "/home.keys"))
    try Data(
      #"""
      { "cases": [
        { "url": "https://t.example.com/items/3", "from": "outside", "expect": { "screen": "item" } },
        { "url": "t://items/9", "from": "cold", "expect": { "screen": "item" } }
      ] }
      """#.utf8
    ).write(to: URL(fileURLWithPath: tests + "/items.links.json"))
    return (app, tests)
  }

  @Test func coveredAndUncoveredAreExactlyTheExpectedOnes() throws {
    let apps = try SurfaceApps()
    let (app, tests) = try Self.app(apps)
    let result = CapturedRun.run(["test", "--screens", app, "--coverage", tests])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.suffix(5)) == [
        "coverage: routes 4/5 (80%), destinations 2/3 (66%), link components 2/3 (66%)",
        "  not covered: routes[3] t://never",
        "  not covered: screen never",
        "  not covered: aasa.json applinks.details[0].components[1]",
        "3 passed, 0 failed",
      ])
  }

  @Test func aRedirectChainCountsEveryRoute() throws {
    let apps = try SurfaceApps()
    let (app, _) = try Self.app(apps)
    let contract = try apps.file(
      "chain.links.json",
      #"{"cases":[{"url":"https://t.example.com/items/3","from":"outside","expect":{"screen":"item"}}]}"#
    )
    let json = apps.root + "/coverage.json"
    let result = CapturedRun.run([
      "test", "--screens", app, "--coverage-json", json, contract,
    ])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    let document = try JSON.parse(Array(try Data(contentsOf: URL(fileURLWithPath: json))))
    #expect(document["routes"]?["covered"] == .number("3"))
    #expect(document["routes"]?["total"] == .number("5"))
    #expect(
      document["routes"]?["notCovered"]
        == .array([.string("routes[0] t://home"), .string("routes[3] t://never")]))
    #expect(
      document["destinations"]?["notCovered"]
        == .array([.string("screen home"), .string("screen never")]))
    #expect(document["components"]?["covered"] == .number("1"))
  }

  @Test func minCoverageExits1BelowItSayingSoBeforeTheLastLine() throws {
    let apps = try SurfaceApps()
    let (app, tests) = try Self.app(apps)
    let below = CapturedRun.run(["test", "--screens", app, "--min-coverage", "90", tests])
    #expect(below.status == 1)
    let lines = below.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.suffix(2) == ["coverage: routes 80% is below --min-coverage 90%", "3 passed, 0 failed"])
    #expect(CapturedRun.run(["test", "--screens", app, "--min-coverage", "80", tests]).status == 0)
    #expect(CapturedRun.run(["test", "--screens", app, "--min-coverage", "x", tests]).status == 2)
  }

  @Test func junitCarriesTheFiguresAsProperties() throws {
    let apps = try SurfaceApps()
    let (app, tests) = try Self.app(apps)
    let junit = apps.root + "/junit.xml"
    let result = CapturedRun.run(["test", "--screens", app, "--coverage", "--junit", junit, tests])
    #expect(result.status == 0)
    let document = try XMLDocument(contentsOf: URL(fileURLWithPath: junit))
    let properties = try document.nodes(forXPath: "//testsuite[1]/properties/property")
      .compactMap { $0 as? XMLElement }
    var values: [String: String] = [:]
    for property in properties {
      values[property.attribute(forName: "name")?.stringValue ?? ""] =
        property.attribute(forName: "value")?.stringValue
    }
    #expect(values["coverage.routes"] == "4/5")
    #expect(values["coverage.routes.percent"] == "80")
    #expect(values["coverage.destinations"] == "2/3")
    #expect(values["coverage.components"] == "2/3")
  }
}
