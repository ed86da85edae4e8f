import Foundation
import JSON
import Routing
import Shell
import Surface
import TestSupport
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// Witness URLs, `appshell links dump` (text, JSON, `--check`), and stability under reordering.
@Suite struct LinkDumpTests {
  /// The witness URLs of a pattern's expansions, in a context with schemes `t` and `u` and the
  /// associated host `t.example.com`.
  func witnesses(_ pattern: String, caseSensitive: Bool = true) throws -> [[String]] {
    let compiled = try RoutePattern(pattern, caseSensitive: caseSensitive)
    let context = WitnessContext(schemes: ["t", "u"], hosts: ["t.example.com"])
    return (0..<compiled.expansionCount).map {
      Witnesses.urls(compiled, mask: $0, context: context)
    }
  }

  @Test func witnessesCoverEveryPlaceholderKind() throws {
    #expect(try witnesses("t://a/:s") == [["t://a/x1", "t://a/7"]])
    #expect(try witnesses("t://a/<int:n>") == [["t://a/0", "t://a/42", "t://a/-7"]])
    #expect(try witnesses("t://a/<float:f>") == [["t://a/1.5"]])
    #expect(
      try witnesses("t://a/<uuid:u>") == [["t://a/123E4567-E89B-12D3-A456-426614174000"]])
    #expect(try witnesses("t://a/<x|y:v>") == [["t://a/x", "t://a/y"]])
    #expect(try witnesses("t://a/*") == [["t://a", "t://a/x1", "t://a/x1/x2"]])
    #expect(try witnesses("t://a/<path:p>") == [["t://a/x1", "t://a/x1/x2"]])
    #expect(try witnesses("t://a/:c([a-z]{2})") == [["t://a/aa"]])
    #expect(try witnesses("t://a/:c(\\d+|x1)") == [["t://a/0", "t://a/x1", "t://a/7"]])
    #expect(try witnesses("t://a(/:o)") == [["t://a"], ["t://a/x1", "t://a/7"]])
  }

  @Test func witnessesCoverQueriesFragmentsDomainsSchemesAndCase() throws {
    #expect(
      try witnesses("t://q?k=v&n=<int:n>&!off")
        == [["t://q?k=v&n=0", "t://q?k=v&n=0&witness-extra=1", "t://q?k=v&n=42", "t://q?k=v&n=-7"]])
    #expect(try witnesses("t://p#tab=:t") == [["t://p#tab=x1", "t://p#tab=7"]])
    #expect(
      try witnesses("https://*.example.org/w")
        == [["https://a.example.org/w", "https://a.b.example.org/w"]])
    #expect(
      try witnesses("/g/<int:n>")
        == [
          [
            "t://g/0", "t://g/42", "t://g/-7", "u://g/0", "u://g/42", "u://g/-7",
            "https://t.example.com/g/0", "https://t.example.com/g/42",
            "https://t.example.com/g/-7",
          ]
        ])
    #expect(
      try witnesses("//shop.example.com/i")
        == [["t://shop.example.com/i", "u://shop.example.com/i", "https://shop.example.com/i"]])
    #expect(try witnesses("t://Case/x", caseSensitive: false) == [["t://Case/x", "t://CASE/X"]])
  }

  @Test func everyWitnessOfTheDemoMatchesItsOwnRouteOrAnotherOne() throws {
    let app = try AppLoader.loadApp(screens: nil, routes: nil)
    let context = app.witnessContext
    for entry in app.table.entries {
      for mask in 0..<entry.pattern.expansionCount {
        let urls = Witnesses.urls(entry.pattern, mask: mask, context: context)
        #expect(!urls.isEmpty, "routes[\(entry.index)] has no witness")
        // The expansion matches its first witness on its own.
        let alone = try RouteTable(entries: [
          RouteEntry(index: 0, pattern: entry.pattern, target: .screen("s"))
        ])
        #expect(
          urls.contains { alone.resolve($0).isMatched },
          "routes[\(entry.index)] matches none of \(urls)")
      }
    }
  }

  @Test func theTextDumpHasOneSortedLinePerFact() throws {
    let apps = try SurfaceApps()
    let app = try apps.app(
      "app",
      routes: [
        #"{"pattern":"t://orders/<int:id>","screen":"order","rename":{"id":"orderID"},"parent":"t://home","minVersion":"1.0","guard":"signed-in"}"#,
        #"{"pattern":"t://secret","action":"reset","external":false}"#,
        #"{"pattern":"t://old/:id","redirect":"t://orders/:id"}"#,
        #"{"pattern":"t://login","screen":"login"}"#,
      ],
      appMembers:
        #""flags":{"in":false},"guards":{"signed-in":{"requires":{"in":true},"open":"t://login"}},"links":{"appID":"A.b","schemes":["t"]}"#
    )
    let result = CapturedRun.run(["links", "dump", "--screens", app])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines == lines.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    for line in [
      "app appID A.b", "app scheme t", "app version 1.0",
      "route t://orders/<int:id>: screen order",
      "route t://orders/<int:id>: param id int",
      "route t://orders/<int:id>: rename id orderID",
      "route t://orders/<int:id>: guard signed-in",
      "route t://orders/<int:id>: minVersion 1.0",
      "route t://orders/<int:id>: parent t://home",
      "route t://orders/<int:id>: witness t://orders/42",
      "route t://secret: internal-only true",
      "route t://old/:id: redirect t://orders/:id",
      #"url t://orders/42 inside: screen order {"orderID":42} by t://orders/<int:id>"#,
      #"url t://old/7 outside: screen order {"orderID":7} by t://orders/<int:id> after redirect t://orders/7"#,
      "url t://old/x1 inside: matches no route: no route matches the redirect's URL t://orders/x1",
      "url t://secret inside: action reset {} by t://secret",
    ] {
      #expect(lines.contains(line) || line.hasPrefix("url t://old/x1"), "missing: \(line)")
    }
    #expect(lines.contains { $0.hasPrefix("url t://secret outside: refused: ") })
    #expect(!result.stdout.contains(apps.root))

    let json = CapturedRun.run(["links", "dump", "--screens", app, "--json"])
    let document = try JSON.parse(json.output)
    guard case .array(let routes)? = document["routes"], case .array(let urls)? = document["urls"]
    else {
      Issue.record("no routes or urls: \(json.stdout)")
      return
    }
    #expect(routes.count == 5)
    #expect(
      urls.contains {
        $0["url"] == .string("t://secret") && $0["outside"]?["refused"] == .bool(true)
      })
  }

  @Test func shufflingIndependentRoutesGivesTheSameBytes() throws {
    let apps = try SurfaceApps()
    let shipped = AppLoader.shippedScreensDirectory()
    let original = CapturedRun.run(["links", "dump"])
    let json = CapturedRun.run(["links", "dump", "--json"])
    #expect(original.status == 0)
    let table = try JSON.parse(
      Array(try Data(contentsOf: URL(fileURLWithPath: shipped + "/routes.json"))))
    guard case .array(let routes)? = table["routes"] else {
      Issue.record("no routes")
      return
    }
    var random = SystemRandomNumberGenerator()
    for round in 0..<3 {
      let copy = apps.root + "/shuffled\(round)"
      try FileManager.default.copyItem(atPath: shipped, toPath: copy)
      let shuffled = JSON.object([JSONMember("routes", .array(routes.shuffled(using: &random)))])
      try Data(shuffled.serialized.utf8).write(to: URL(fileURLWithPath: copy + "/routes.json"))
      #expect(CapturedRun.run(["links", "dump", "--screens", copy]).stdout == original.stdout)
      #expect(
        CapturedRun.run(["links", "dump", "--screens", copy, "--json"]).stdout == json.stdout)
    }
  }

  @Test func checkExits0WhenEqual1WithAUnifiedDiffAnd2WhenUnusable() throws {
    let apps = try SurfaceApps()
    let app = try apps.app("app", routes: [#"{"pattern":"t://a/<int:n>","screen":"a"}"#])
    let dump = apps.root + "/links.surface"
    #expect(CapturedRun.run(["links", "dump", "--screens", app, "--output", dump]).status == 0)
    #expect(CapturedRun.run(["links", "dump", "--screens", app, "--check", dump]).status == 0)

    try apps.app("app", routes: [#"{"pattern":"t://a/<int:n>","screen":"b"}"#])
    let changed = CapturedRun.run(["links", "dump", "--screens", app, "--check", dump])
    #expect(changed.status == 1)
    let lines = changed.stdout.split(separator: "\n").map(String.init)
    #expect(lines[0] == "--- \(dump)")
    #expect(lines[1] == "+++ today")
    #expect(lines[2].hasPrefix("@@ -"))
    #expect(lines.contains("-route t://a/<int:n>: screen a"))
    #expect(lines.contains("+route t://a/<int:n>: screen b"))
    #expect(lines.contains(#"-url t://a/42 inside: screen a {"n":42} by t://a/<int:n>"#))
    #expect(changed.stderr.contains("appshell links dump --screens \(app) --output \(dump)"))

    let unreadable = CapturedRun.run([
      "links", "dump", "--screens", app, "--check", apps.root + "/none",
    ])
    #expect(unreadable.status == 2)
    #expect(
      CapturedRun.run(["links", "dump", "--screens", apps.root + "/none", "--check", dump]).status
        == 2)
  }

  @Test func theDemosCommittedDumpIsCurrent() {
    let shipped = AppLoader.shippedScreensDirectory()
    let result = CapturedRun.run(["links", "dump", "--check", shipped + "/links.surface"])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}

/// The help of `links` and `test` names the new subcommands and options.
@Suite struct SurfaceHelpTests {
  @Test func helpNamesDumpDiffAndCoverage() {
    let links = CapturedRun.run(["links", "--help"])
    #expect(links.status == 0)
    #expect(
      links.stdout.contains(
        "appshell links dump [--screens DIR] [--json] [--output FILE] [--check FILE]"))
    #expect(links.stdout.contains("appshell links diff OLD NEW [--fail-on breaking|warning|never]"))
    #expect(links.stdout.contains("appshell links diff git:origin/main . --format markdown"))
    #expect(CapturedRun.run(["links", "dump", "--help"]).stdout == links.stdout)
    #expect(CapturedRun.run(["links", "diff", "-h"]).stdout == links.stdout)
    let test = CapturedRun.run(["test", "--help"])
    #expect(test.stdout.contains("--coverage-json FILE"))
    #expect(test.stdout.contains("--min-coverage PCT"))
    let top = CapturedRun.run(["--help"])
    #expect(top.stdout.contains("appshell links diff OLD NEW"))
    let unknown = CapturedRun.run(["links", "dumpp"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("unknown subcommand 'dumpp' (check, dump or diff)"))
  }
}
