import Foundation
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

// `appshell resolve --explain [--json]`: the options, the text layout, the JSON form, and that
// plain `resolve` is unchanged by them.

@Suite struct ResolveExplainTests {
  private let table = #"""
    {"routes": [
      { "pattern": "shop://items/<int:id>", "screen": "item" },
      { "pattern": "shop://items/new", "screen": "new-item" },
      { "pattern": "/items/:slug", "screen": "generic" },
      { "pattern": "shop://a-pattern-that-is-much-longer-than-forty-columns/:x", "screen": "long" },
      { "pattern": "shop://old/:id", "redirect": "shop://items/:id" },
      { "pattern": "shop://admin", "screen": "admin", "external": false }
    ]}
    """#

  @Test func explainsOneURLAsAnAlignedTextBlock() throws {
    try withTableFile(table) { path in
      let result = CapturedRun.run(["resolve", "--explain", "--routes", path, "shop://items/new"])
      #expect(result.status == 0)
      #expect(result.stderr.isEmpty)
      #expect(
        result.stdout == """
          URL shop://items/new (from inside the app)
            read     scheme "shop"; segments 1 "items", 2 "new"; no query
            routes[0]  failed  shop://items/<int:id>                     segment 2: "new" is not an int
            routes[1]  WON     shop://items/new                          won over 1 other matching route
            routes[2]  lost    /items/:slug                              lost to routes[1], rule 2 (scheme): it names "shop", this route is global
            routes[3]  failed  shop://a-pattern-that-is-much-longer-than-forty-columns/:x
                                                                         segment 1: literal "a-pattern-that-is-much-longer-than-forty-columns" vs "items"
            routes[4]  failed  shop://old/:id                            segment 1: literal "old" vs "items"
            routes[5]  failed  shop://admin                              segment 1: literal "admin" vs "items"
            winner   routes[1] shop://items/new
            params   none
            target   screen "new-item" (push)
            result   matched routes[1]: screen "new-item" (push); params none

          """)
    }
  }

  @Test func separatesBlocksWithABlankLineAndFollowsRedirects() throws {
    try withTableFile(table) { path in
      let result = CapturedRun.run([
        "resolve", "--explain", "--routes", path, "shop://old/5", "shop://nope",
      ])
      #expect(result.status == 1)
      let blocks = result.stdout.components(separatedBy: "\n\nURL ")
      #expect(blocks.count == 2)
      #expect(blocks[0].hasPrefix("URL shop://old/5 (from inside the app)\n"))
      #expect(blocks[0].contains("\n  redirect 1: shop://items/5\n\nredirect 1: shop://items/5\n"))
      #expect(
        blocks[0].hasSuffix(
          "  result   matched routes[0] after 1 redirect: screen \"item\" (push); params id=5"))
      #expect(blocks[1].hasSuffix("  result   no route matches\n"))
    }
  }

  @Test func readsURLsFromStandardInput() throws {
    try withTableFile(table) { path in
      let result = runStdin(
        [Array("shop://items/1\nshop://admin\n".utf8)], arguments: ["--explain", "--routes", path])
      #expect(result.status == 0)
      #expect(result.stdout.components(separatedBy: "\nURL ").count == 2)
    }
  }

  @Test func saysWhyAnInternalRouteIsRefusedFromOutside() throws {
    try withTableFile(table) { path in
      let result = CapturedRun.run([
        "resolve", "--explain", "--external", "--routes", path, "shop://admin",
      ])
      #expect(result.status == 1)
      #expect(result.stdout.hasPrefix("URL shop://admin (from outside the app)\n"))
      #expect(result.stdout.contains("  target   screen \"admin\" (push), internal only\n"))
      #expect(
        result.stdout.contains(
          "  refused  the URL came from outside and this route is internal only;"
            + " the next-ranked route is not tried\n"))
      #expect(
        result.stdout.hasSuffix(
          "  result   refused: route \"shop://admin\" can be opened only from inside the app\n"))
    }
  }

  @Test func showsHostileURLsInert() throws {
    try withTableFile(table) { path in
      let result = CapturedRun.run([
        "resolve", "--explain", "--routes", path, "shop://items/%1B%5B2J%C2%9B%E2%80%AE",
        "shop://\u{1B}]52;c;x\u{07}",
      ])
      #expect(!hasControlCharacter(result.stdout.replacingOccurrences(of: "\n", with: "")))
      #expect(result.stdout.contains(#"segment 2: "\x1b[2J\x9b\u{202e}" is not an int"#))
      #expect(result.stdout.contains(#"URL shop://\x1b]52;c;x\x07 (from inside the app)"#))
    }
  }

  @Test func explainsAsJSONWithThePlainAnswerFirst() throws {
    try withTableFile(table) { path in
      let urls = ["shop://old/5", "shop://nope", "shop://items/%zz"]
      let plain = CapturedRun.run(["resolve", "--routes", path] + urls)
      let explained = CapturedRun.run(["resolve", "--explain", "--json", "--routes", path] + urls)
      #expect(explained.status == plain.status)
      #expect(explained.lines.count == 3)
      for (plainLine, line) in zip(plain.lines, explained.lines) {
        let answer = try parseLine(line)
        let plainAnswer = try parseLine(plainLine)
        #expect(answer.keys == plainAnswer.keys + ["origin", "hops"])
        for key in plainAnswer.keys { #expect(answer[key] == plainAnswer[key]) }
        #expect(answer["origin"] == .string("app"))
      }
      let first = try parseLine(explained.lines[0])
      guard case .array(let hops)? = first["hops"] else {
        Issue.record("hops is not an array")
        return
      }
      #expect(hops.count == 2)
      #expect(hops[0]["winner"] == .number("4"))
      #expect(
        hops[0]["end"]?.serialized == #"{"kind":"redirect","to":"shop://items/5"}"#)
      guard case .array(let candidates)? = hops[1]["candidates"] else {
        Issue.record("candidates is not an array")
        return
      }
      #expect(candidates.count == 6)
      #expect(
        candidates[2].serialized
          == #"{"route":2,"pattern":"/items/:slug","verdict":"lost","rank":2,"kinds":["literal","string"],"lostTo":0,"rule":{"number":2,"name":"scheme","scheme":"shop"},"reason":"lost to routes[0], rule 2 (scheme): it names \"shop\", this route is global"}"#
      )
      #expect(
        candidates[1].serialized
          == #"{"route":1,"pattern":"shop://items/new","verdict":"failed","failure":{"kind":"literal","segment":2,"pattern":"new","url":"5"},"progress":1,"reason":"segment 2: literal \"new\" vs \"5\""}"#
      )
      let invalid = try parseLine(explained.lines[2])
      #expect(
        invalid["hops"]?.serialized
          == #"[{"url":"shop://items/%zz","candidates":[],"end":{"kind":"invalid","error":"invalid percent escape in path segment 2"}}]"#
      )
    }
  }

  @Test func jsonWithoutExplainIsAUsageError() {
    let result = CapturedRun.run(["resolve", "--json", "myapp://home"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("--json goes with --explain"))
  }

  @Test func plainResolveIsUnchangedAndHelpNamesExplain() {
    let plain = CapturedRun.run(["resolve", "myapp://home"])
    #expect(
      plain.stdout
        == #"{"url":"myapp://home","matched":true,"pattern":"myapp://home","route":{"pattern":"myapp://home","screen":"home"},"params":{}}"#
        + "\n")
    let help = CapturedRun.run(["resolve", "--help"])
    #expect(help.status == 0)
    #expect(
      help.stdout.contains(
        """
        USAGE: appshell resolve [--explain [--json]] [--routes FILE] [--screens DIR] [--external]
                                [URL...]
        """))
    #expect(help.stdout.contains("  --explain "))
    #expect(help.stdout.contains("  --json "))
  }

  @Test func aURLAfterDoubleDashIsNotAnOption() throws {
    try withTableFile(table) { path in
      let result = CapturedRun.run(["resolve", "--explain", "--routes", path, "--", "--json"])
      #expect(result.status == 1)
      #expect(result.stdout.hasPrefix("URL --json (from inside the app)\n"))
    }
  }
}
