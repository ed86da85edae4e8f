import Foundation
import JSON
import Lint
import Routing
import Shell
import TestSupport
import Testing

@testable import AppShellCLI

// `appshell routes`: the tree of the shipped table (a golden), lint of the shipped table
// (clean) and of `Fixtures/lint-bad` (one planted problem of each kind), JSON, and options.
//
// The goldens are `Goldens/Routes/*.golden`; to re-record after an intended change:
// `APPSHELL_UPDATE_GOLDENS=1 swift test --filter RoutesCommandTests`, then read the diff. An
// update run always records an issue, so it never passes silently.

/// Files the tests read, found from this file.
enum RoutesFixtures {
  static let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  /// The shipped `Screens/` of this checkout.
  static let shipped = here.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Screens").path
  /// A screens directory whose `routes.json` plants one problem of each lint kind.
  static let bad = here.appendingPathComponent("Fixtures/lint-bad").path
  /// `Goldens/Routes`.
  static let goldens = here.appendingPathComponent("Goldens/Routes")
}

@Suite struct RoutesCommandTests {
  /// Compares `text` with `Goldens/Routes/NAME.golden`, or re-records it.
  private func expectGolden(
    _ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try TestSupport.expectGolden(
      text, at: RoutesFixtures.goldens.appendingPathComponent(name + ".golden"),
      name: "Goldens/Routes/\(name).golden", sourceLocation: sourceLocation)
  }

  // MARK: The tree

  @Test func theShippedTableAsATreeMatchesItsGolden() throws {
    let result = CapturedRun.run(["routes", "--screens", RoutesFixtures.shipped])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    try expectGolden(result.stdout, "shipped-tree")
  }

  @Test func theDefaultTableIsTheShippedOne() {
    let result = CapturedRun.run(["routes"])
    #expect(result.status == 0)
    #expect(
      result.stdout == CapturedRun.run(["routes", "--screens", RoutesFixtures.shipped]).stdout)
    #expect(result.stdout.hasPrefix("39 routes, table version 1\n"))
  }

  @Test func everyRouteAppearsOnceAlignedAndInert() throws {
    let result = CapturedRun.run(["routes", "--screens", RoutesFixtures.shipped])
    let lines = result.lines
    var indexes: [Int] = []
    var columns: Set<Int> = []
    for line in lines {
      #expect(!hasControlCharacter(line), "control character in |\(line)|")
      #expect(line.last != " ", "trailing space in |\(line)|")
      guard let open = line.range(of: "  ["),
        let close = line.range(of: "]", range: open.upperBound..<line.endIndex)
      else { continue }
      indexes.append(Int(line[open.upperBound..<close.lowerBound])!)
      columns.insert(displayWidth(String(line[..<open.upperBound])))
    }
    #expect(indexes.sorted() == Array(0..<39))
    #expect(columns.count == 1, "route columns: \(columns.sorted())")
  }

  @Test func hostileTextInATableIsShownInert() throws {
    let table = #"""
      {"routes":[
        {"pattern":"x://h%1B","screen":"h"},
        {"pattern":"x://a%1B%5B2J/<int:id>","screen":"s\u001b]52;c;x\u0007","parent":"x://h\u001b"},
        {"pattern":"x://%E2%80%AEevil","action":"a\u202e","rename":{"k":"\u0000"}},
        {"pattern":"x://a%2Fb/%3Ax/%2A(/c%28d)?k%26=v%3D","notification":"n"}
      ]}
      """#
    try withTableFile(table) { path in
      let result = CapturedRun.run(["routes", "--routes", path])
      #expect(result.status == 0)
      #expect(result.stderr.isEmpty, "\(result.stderr)")
      for line in result.lines {
        #expect(!hasControlCharacter(line), "control character in |\(line)|")
      }
      #expect(result.stdout.contains("a%1B[2J"))
      #expect(result.stdout.contains(#"screen s\x1b]52;c;x\x07  parent x://h\x1b"#))
      #expect(result.stdout.contains(#"rename k→\x00"#))
      #expect(result.stdout.contains(#"\u{202e}evil"#))
      // Decoded literals that would read as pattern syntax are escaped again.
      #expect(result.stdout.contains("a%2Fb"))
      #expect(result.stdout.contains("%3Ax"))
      #expect(result.stdout.contains("%2A"))
      #expect(result.stdout.contains("(/c%28d)?k%26=v%3D"))
    }
  }

  @Test func aTableTheAppRefusesIsStillShownWithANote() {
    let result = CapturedRun.run(["routes", "--screens", RoutesFixtures.bad])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("17 routes, table version 2\n"))
    #expect(
      result.stderr
        == "appshell routes: note: the app refuses this table (routes[4] conflicts with routes[3]); 'appshell routes --lint' lists every problem\n"
    )
  }

  @Test func anEmptyTableIsOneLine() throws {
    try withTableFile(#"{"routes":[]}"#) { path in
      let result = CapturedRun.run(["routes", "--routes", path])
      #expect(result.status == 0)
      #expect(result.stdout == "0 routes, no table version\n")
    }
  }

  // MARK: Lint

  @Test func theShippedTableIsLintClean() {
    let result = CapturedRun.run(["routes", "--lint"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout == "no problems in 39 routes\n")
    #expect(result.stderr.isEmpty)
    let explicit = CapturedRun.run([
      "routes", "--lint", "--screens", RoutesFixtures.shipped, "--json",
    ])
    #expect(explicit.status == 0)
    let lint = (try? JSON.parse(explicit.stdout))?["lint"]
    #expect(lint?.serialized == #"{"problems":0,"findings":[]}"#)
  }

  @Test func theBadTableHasExactlyEachPlantedProblem() throws {
    let result = CapturedRun.run(["routes", "--lint", "--json", "--screens", RoutesFixtures.bad])
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    let document = try JSON.parse(result.stdout)
    guard case .array(let findings)? = document["lint"]?["findings"] else {
      Issue.record("no lint findings in \(result.stdout)")
      return
    }
    func summary(_ finding: JSON) -> String {
      let kind = finding["kind"].flatMap { if case .string(let text) = $0 { text } else { nil } }
      return [
        kind ?? "?", finding["routes"]?.serialized ?? "?", finding["screen"]?.serialized ?? "?",
        finding["link"]?.serialized ?? "?",
      ].joined(separator: " ")
    }
    #expect(
      findings.map(summary) == [
        "conflict [4,3] null null",  // routes[3] and routes[4] differ only in the name
        "parent [8] null null",  // its parent matches no route
        "guard [9] null null",  // the guard 'admin' is not the app's
        "shadowed [6,5] null null",  // routes[5] has a higher priority and matches more
        "target [10] null null",  // the screen 'ghost' does not exist
        "rename [7] null null",  // 'item' declares no 'productID'
        #"link [] "item" 1"#,  // bad://item/{{id}}/reviews has no route
        #"params [7] "item" null"#,  // the rename leaves 'item' without its required 'id'
      ])
    #expect(document["lint"]?["problems"] == .number("8"))
    // The kinds about links need an app with links: LinksLintTests plants those, and
    // LinksCommandTests the tab.
    let linksKinds: [LintKind] = [
      .tab, .unreachable, .unrouted, .scheme, .shadowedComponent, .pathsIgnored,
    ]
    #expect(
      LintKind.allCases.count - linksKinds.count == findings.count,
      "one planted problem per kind")
  }

  @Test func theBadTablesReportMatchesItsGolden() throws {
    let result = CapturedRun.run(["routes", "--lint", "--screens", RoutesFixtures.bad])
    #expect(result.status == 1)
    #expect(
      result.lines.last
        == "8 problems: 1 conflict, 1 parent, 1 guard, 1 shadowed, 1 target, 1 rename, 1 link, "
        + "1 params")
    try expectGolden(result.stdout, "lint-bad")
  }

  @Test func lintWithAnotherTableUsesTheGivenScreens() throws {
    // The bad table with the shipped screens: `item` is missing, so routes to it are targets.
    let result = CapturedRun.run([
      "routes", "--lint", "--routes", RoutesFixtures.bad + "/routes.json", "--screens",
      RoutesFixtures.shipped,
    ])
    #expect(result.status == 1)
    #expect(
      result.stdout.contains(#"target: routes[3] "bad://item/<int:id>" opens the screen 'item'"#))
  }

  @Test func aTableNamedAloneIsLintedWithoutTheDemosScreens() throws {
    // The bad table alone: its own problems (the conflict, the shadowed route...), none of the
    // shipped demo's links or targets.
    let result = CapturedRun.run([
      "routes", "--lint", "--routes", RoutesFixtures.bad + "/routes.json",
    ])
    #expect(result.status == 1)
    #expect(result.stdout.contains("conflict: "))
    #expect(!result.stdout.contains("target: "))
    #expect(!result.stdout.contains("link: "))
    #expect(result.stderr.contains("note: the table alone was linted; --screens DIR also checks"))
    let withScreens = CapturedRun.run([
      "routes", "--lint", "--routes", RoutesFixtures.bad + "/routes.json", "--screens",
      RoutesFixtures.shipped,
    ])
    #expect(withScreens.stdout.contains("target: "))
    #expect(!withScreens.stderr.contains("note:"))
  }

  // MARK: JSON

  @Test func theJSONDocumentHasAStableShape() throws {
    let result = CapturedRun.run(["routes", "--json", "--screens", RoutesFixtures.shipped])
    #expect(result.status == 0)
    #expect(result.lines.count == 1)
    let document = try JSON.parse(result.stdout)
    #expect(document.keys == ["version", "routes", "tree"])
    #expect(document["version"] == .number("1"))
    guard case .array(let routes)? = document["routes"], case .array(let roots)? = document["tree"]
    else {
      Issue.record("routes and tree must be arrays")
      return
    }
    #expect(routes.count == 39)
    for route in routes {
      #expect(
        route.keys == [
          "index", "pattern", "target", "priority", "presentation", "external", "minVersion",
          "guard", "parent", "tab", "arrival", "rename",
        ])
    }
    #expect(
      routes[15].serialized
        == #"{"index":15,"pattern":"myapp://orders/<int:id>","target":{"kind":"screen","name":"order-detail"},"priority":0,"presentation":"push","external":true,"minVersion":null,"guard":null,"parent":"myapp://orders","tab":null,"arrival":"push","rename":{"id":"orderid"}}"#
    )
    let track = routes.first { $0["pattern"] == .string("myapp://track/<int:id>") }
    #expect(track?["tab"] == .string("Orders"))
    #expect(track?["arrival"] == .string("reset"))
    // Every route sits on exactly one node of the tree.
    var seen: [Int] = []
    func walk(_ node: JSON) {
      #expect(node.keys == ["label", "kind", "routes", "children"])
      if case .array(let indexes)? = node["routes"] {
        for index in indexes { if case .number(let text) = index { seen.append(Int(text)!) } }
      }
      if case .array(let children)? = node["children"] {
        for child in children { walk(child) }
      }
    }
    for root in roots { walk(root) }
    #expect(seen.sorted() == Array(0..<39))
    #expect(
      roots.map { $0["label"]?.serialized ?? "" } == [
        #""ccfurlresponder://""#, #""https://""#, #""JLRoutesThree://""#, #""myapp://""#,
        #""navigateApp://""#, #""navigator://""#, #""XYWAPP://""#, #""/""#,
      ])
    #expect(roots.last?["kind"] == .string("global"))
  }

  // MARK: Options

  @Test func helpAndTheTopLevelHelpDescribeTheCommand() {
    let help = CapturedRun.run(["routes", "--help"])
    #expect(help.status == 0)
    #expect(
      help.stdout.contains(
        "USAGE: appshell routes [--routes FILE] [--screens DIR] [--lint] [--json]"))
    #expect(CapturedRun.run(["routes", "-h"]).stdout == help.stdout)
    let top = CapturedRun.run(["--help"])
    #expect(
      top.stdout.contains("appshell routes [--routes FILE] [--screens DIR] [--lint] [--json]"))
    #expect(
      top.stdout.contains(
        "  routes              Show the route table as a tree, or lint it (--lint).\n"))
  }

  @Test(arguments: [
    (["--nope"], "unknown option '--nope'"),
    (["-x"], "unknown option '-x'"),
    (["myapp://home"], "unexpected argument 'myapp://home'"),
    (["--routes"], "--routes needs a value"),
    (["--screens"], "--screens needs a value"),
    (["--lint=yes"], "--lint takes no value"),
    (["--json=1"], "--json takes no value"),
  ])
  func unusableOptionsAreOneLineAndExit2(arguments: [String], message: String) {
    let result = CapturedRun.run(["routes"] + arguments)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr == "appshell routes: \(message)\nSee 'appshell routes --help'.\n")
  }

  @Test func anUnreadableTableOrScreensDirectoryExits2() throws {
    let missing = CapturedRun.run(["routes", "--routes", "/nonexistent/routes.json"])
    #expect(missing.status == 2)
    #expect(missing.stdout.isEmpty)
    #expect(
      missing.stderr
        == "appshell routes: /nonexistent/routes.json: cannot read the route table: No such file or directory\n"
    )
    try withTableFile(#"{"routes":[{"pattern":"/a/*/*","screen":"s"}]}"#) { path in
      for arguments in [["routes"], ["routes", "--lint"], ["routes", "--json"]] {
        let result = CapturedRun.run(arguments + ["--routes", path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
          result.stderr
            == "appshell routes: \(path):1:13: routes[0].pattern: only one '*' or path capture may stand in a pattern (column 6 of \"/a/*/*\")\n"
        )
      }
    }
    let noScreens = CapturedRun.run([
      "routes", "--lint", "--routes", RoutesFixtures.bad + "/routes.json", "--screens",
      "/nonexistent",
    ])
    #expect(noScreens.status == 2)
    #expect(
      noScreens.stderr == "appshell routes: /nonexistent: cannot list the screens directory\n")
  }

  @Test func optionsMayBeWrittenWithEquals() {
    let result = CapturedRun.run(["routes", "--lint", "--screens=\(RoutesFixtures.bad)"])
    #expect(result.status == 1)
    #expect(result.lines.count == 9)
  }
}
