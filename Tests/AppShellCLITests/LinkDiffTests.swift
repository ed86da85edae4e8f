import Foundation
import JSON
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `appshell links diff`: one pair of small apps per finding kind, the evidence URL resolved in
/// both; the changes that break nothing; the four formats; `--fail-on`; `--urls`; bad input.
@Suite struct LinkDiffTests {
  static let item = #"{"pattern":"t://items/:id","screen":"item"}"#
  static let guards =
    #""flags":{"signedIn":false},"guards":{"signed-in":{"requires":{"signedIn":true},"open":"t://login"}}"#
  static let login = #"{"pattern":"t://login","screen":"login","presentation":"present"}"#

  /// A change of the item route, the finding it must give, and what resolving its URL in OLD
  /// and NEW must show.
  struct Case: Sendable, CustomTestStringConvertible {
    var kind: String
    var old: [String] = [LinkDiffTests.item]
    var new: [String]
    var oldMembers = ""
    var newMembers = ""
    var testDescription: String { kind }
  }

  static let cases: [Case] = [
    Case(kind: "removed", new: []),
    Case(kind: "retargeted", new: [#"{"pattern":"t://items/:id","screen":"other"}"#]),
    Case(
      kind: "params-changed",
      new: [#"{"pattern":"t://items/:id","screen":"item","rename":{"id":"itemID"}}"#]),
    Case(kind: "refused", new: [#"{"pattern":"t://items/:id","screen":"item","external":false}"#]),
    Case(
      kind: "refused", new: [item], oldMembers: #""links":{"appID":"A.b","schemes":["t"]}"#,
      newMembers: #""links":{"appID":"A.b","schemes":["u"]}"#),
    Case(
      kind: "needs-upgrade", new: [#"{"pattern":"t://items/:id","screen":"item","minVersion":"9"}"#]
    ),
    Case(
      kind: "guarded", old: [item, login],
      new: [#"{"pattern":"t://items/:id","screen":"item","guard":"signed-in"}"#, login],
      oldMembers: guards, newMembers: guards),
    Case(
      kind: "arrival-changed",
      new: [#"{"pattern":"t://items/:id","screen":"item","presentation":"present"}"#]),
    Case(
      kind: "redirected",
      new: [
        #"{"pattern":"t://items/:id","redirect":"t://item/:id"}"#,
        #"{"pattern":"t://item/:id","screen":"item"}"#,
      ]),
    Case(kind: "added", old: [], new: [item]),
  ]

  @Test(arguments: cases) func eachKindIsFoundWithItsEvidence(_ test: Case) throws {
    let apps = try SurfaceApps()
    let old = try apps.app("old", routes: test.old, appMembers: test.oldMembers)
    let new = try apps.app("new", routes: test.new, appMembers: test.newMembers)
    let (status, findings, _) = try diffFindings(old, new)
    let found = try #require(
      findings.first {
        guard case .string(let url)? = $0["url"] else { return false }
        return $0["kind"] == .string(test.kind) && url.hasPrefix("t://item")
      })
    guard case .string(let url)? = found["url"], case .string(let severity)? = found["severity"]
    else {
      Issue.record("no url or severity in \(found)")
      return
    }
    #expect(status == (severity == "breaking" ? 1 : 0))
    #expect(url.hasPrefix("t://item"))
    let before = try resolved(old, url)
    let after = try resolved(new, url)
    func route(_ answer: [String: JSON]) -> [String: JSON] { membersByKey(answer["route"]) }
    switch test.kind {
    case "removed":
      #expect(before["matched"] == .bool(true) && after["matched"] == .bool(false))
    case "retargeted":
      #expect(route(before)["screen"] == .string("item"))
      #expect(route(after)["screen"] == .string("other"))
    case "params-changed":
      #expect(before["params"] != after["params"])
      #expect(route(before)["screen"] == route(after)["screen"])
    case "refused":
      #expect(found["origin"] != .string("inside"))
      let outside = try checked(new, url)
      #expect(outside["opens"] == .string("nothing") || outside["refused"]?.isString == true)
      #expect(try checked(old, url)["matched"] == .bool(true))
    case "needs-upgrade":
      #expect(route(after)["minVersion"] == .string("9"))
      #expect(route(before)["minVersion"] == nil)
    case "guarded":
      #expect(route(after)["guard"] == .string("signed-in"))
      #expect(route(before)["guard"] == nil)
    case "arrival-changed":
      #expect(route(after)["presentation"] == .string("present"))
    case "redirected":
      #expect(before["redirects"] == nil)
      #expect(
        after["redirects"] == .array([.string(url.replacingOccurrences(of: "items", with: "item"))])
      )
      #expect(before["params"] == after["params"])
    case "added":
      #expect(before["matched"] == .bool(false) && after["matched"] == .bool(true))
    default:
      Issue.record("unknown kind \(test.kind)")
    }
  }

  @Test func renamingAPlaceholderWithARenameThatKeepsTheParameterBreaksNothing() throws {
    let apps = try SurfaceApps()
    let old = try apps.app(
      "old", routes: [Self.item, #"{"pattern":"t://a/<int:n>","action":"a"}"#])
    let new = try apps.app(
      "new",
      routes: [
        #"{"pattern":"t://items/:itemID","screen":"item","rename":{"itemID":"id"}}"#,
        #"{"pattern":"t://a/<int:count>","action":"a","rename":{"count":"n"}}"#,
      ])
    let (status, findings, summary) = try diffFindings(old, new)
    #expect(status == 0)
    #expect(findings.isEmpty)
    #expect(summary["urls"].flatMap(\.intValue).map { $0 > 0 } == true)
  }

  @Test func reorderingRoutesThatNeverTieBreaksNothing() throws {
    let routes = [
      Self.item, #"{"pattern":"t://items/<int:id>","screen":"numbered"}"#,
      #"{"pattern":"t://b(/:x)","screen":"b"}"#, #"{"pattern":"/g/:x","screen":"g"}"#,
    ]
    let apps = try SurfaceApps()
    let old = try apps.app("old", routes: routes)
    let new = try apps.app("new", routes: routes.reversed())
    let (status, findings, _) = try diffFindings(old, new)
    #expect(status == 0)
    #expect(findings.isEmpty)
  }

  @Test func addingARouteNoOldWitnessReachesIsOnlyInfo() throws {
    let apps = try SurfaceApps()
    let old = try apps.app("old", routes: [Self.item])
    let new = try apps.app(
      "new", routes: [Self.item, #"{"pattern":"t://fresh/<int:n>","screen":"f"}"#])
    let (status, findings, summary) = try diffFindings(old, new)
    #expect(status == 0)
    #expect(findings.map { $0["kind"] } == [.string("added")])
    #expect(summary["breaking"] == .number("0"))
    // --fail-on warning does not fail on info either; nothing is at or above it.
    #expect(CapturedRun.run(["links", "diff", old, new, "--fail-on", "warning"]).status == 0)
  }

  @Test func failOnChoosesTheThreshold() throws {
    let apps = try SurfaceApps()
    let old = try apps.app("old", routes: [Self.item])
    let new = try apps.app(
      "new", routes: [#"{"pattern":"t://items/:id","screen":"item","presentation":"present"}"#])
    #expect(CapturedRun.run(["links", "diff", old, new]).status == 0)
    #expect(CapturedRun.run(["links", "diff", old, new, "--fail-on", "warning"]).status == 1)
    let removed = try apps.app("removed", routes: [])
    #expect(CapturedRun.run(["links", "diff", old, removed, "--fail-on", "never"]).status == 0)
    #expect(CapturedRun.run(["links", "diff", old, removed, "--fail-on", "info"]).status == 2)
  }

  @Test func theFourFormats() throws {
    let apps = try SurfaceApps()
    let old = try apps.app("old", routes: [Self.item, #"{"pattern":"t://gone","screen":"gone"}"#])
    let new = try apps.app(
      "new", routes: [#"{"pattern":"t://items/:id","screen":"item","presentation":"present"}"#])
    let text = CapturedRun.run(["links", "diff", old, new])
    #expect(text.status == 1)
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.first?.hasPrefix("breaking removed: routes[2] t://gone: t://gone from inside") == true)
    #expect(lines.contains { $0.hasPrefix("warning arrival-changed: routes[1] t://items/:id:") })
    #expect(lines.last?.hasPrefix("3 breaking, 3 warning, 0 info; ") == true)

    let (_, findings, summary) = try diffFindings(old, new)
    #expect(findings.count == 6)
    #expect(summary["breaking"] == .number("3") && summary["warning"] == .number("3"))
    let first = findings[0]
    #expect(membersByKey(first["old"])["pattern"] == .string("t://gone"))
    #expect(membersByKey(membersByKey(first["old"])["outcome"])["screen"] == .string("gone"))
    #expect(membersByKey(membersByKey(first["new"])["outcome"])["unmatched"] == .bool(true))

    let markdown = CapturedRun.run(["links", "diff", old, new, "--format", "markdown"]).stdout
    let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }
    #expect(rows.count == 2 + 6)
    #expect(rows[1] == "| --- | --- | --- | --- | --- | --- |")
    #expect(rows.allSatisfy { $0.hasSuffix(" |") && $0.split(separator: " | ").count == 6 })

    let junit = CapturedRun.run(["links", "diff", old, new, "--format", "junit"])
    let document = try XMLDocument(data: Data(junit.output))
    let cases = try document.nodes(forXPath: "//testcase")
    let failures = try document.nodes(forXPath: "//failure")
    // home, items and gone, each from inside, outside and cold.
    #expect(cases.count == 9)
    #expect(failures.count == 6)
  }

  @Test func urlsFileLinesAreCheckedAndABadLineIsNamed() throws {
    let apps = try SurfaceApps()
    let old = try apps.app(
      "old",
      routes: [Self.item, #"{"pattern":"t://promo/<summer|winter:season>","screen":"promo"}"#])
    let new = try apps.app("new", routes: [Self.item])
    let list = try apps.file(
      "urls.txt", "# links in last year's emails\n\nt://promo/summer?utm=mail\nt://items/42 # QR\n")
    let (status, findings, _) = try diffFindings(old, new, ["--urls", list])
    #expect(status == 1)
    let listed = findings.filter { $0["subject"] == .string(list + ":3") }
    #expect(
      listed.map { $0["url"] } == [.string("t://promo/summer?utm=mail")] + [
        .string("t://promo/summer?utm=mail")
      ] * 2)
    #expect(listed.allSatisfy { $0["kind"] == .string("removed") })
    #expect(!findings.contains { $0["subject"] == .string(list + ":4") })

    let bad = try apps.file("bad.txt", "t://items/1\nt://items/2 t://items/3\n")
    let result = CapturedRun.run(["links", "diff", old, new, "--urls", bad])
    #expect(result.status == 2)
    #expect(result.stderr.contains("\(bad):2: one URL a line"))
  }

  @Test func anOperandThatCannotBeUsedExits2NamingWhichAndWhy() throws {
    let apps = try SurfaceApps()
    let good = try apps.app("good", routes: [Self.item])
    let missing = CapturedRun.run(["links", "diff", apps.root + "/nope", good])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("OLD cannot be used: \(apps.root)/nope: no such app directory"))
    let broken = try apps.file("broken.json", #"{"routes":[{"pattern":"t://x"}]}"#)
    let table = CapturedRun.run(["links", "diff", good, broken])
    #expect(table.status == 2)
    #expect(table.stderr.contains("NEW cannot be used: \(broken):1:12: routes[0]"))
    #expect(CapturedRun.run(["links", "diff", good]).status == 2)
  }

  @Test func aTableFileIsAnAppOfItsRoutesAlone() throws {
    let apps = try SurfaceApps()
    let old = try apps.file("old.json", #"{"routes":[{"pattern":"t://x/:id","screen":"x"}]}"#)
    let new = try apps.file("new.json", #"{"routes":[{"pattern":"t://x/<int:id>","screen":"x"}]}"#)
    let (status, findings, _) = try diffFindings(old, new)
    #expect(status == 1)
    #expect(findings.first?["kind"] == .string("removed"))
    #expect(findings.first?["url"] == .string("t://x/x1"))
    // The number witness still opens, now as a number.
    #expect(
      findings.contains {
        $0["kind"] == .string("params-changed") && $0["url"] == .string("t://x/7")
      })
  }
}

extension Array {
  fileprivate static func * (items: Array, count: Int) -> Array {
    (0..<count).flatMap { _ in items }
  }
}

extension JSON {
  fileprivate var isString: Bool {
    if case .string = self { return true }
    return false
  }
}
