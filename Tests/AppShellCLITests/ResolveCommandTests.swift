import Foundation
import JSON
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

// `appshell resolve`, run in process (`CapturedRun`), with standard input fed in chunks and
// what is written recorded, and when.

@Suite struct ResolveCommandTests {
  // MARK: Answer lines

  /// The streamed answer is, byte for byte, the JSON object of its members: for every outcome,
  /// number, array, redirect and escape.
  @Test func streamedLinesAreTheSerializedMembers() throws {
    let table = try RouteTable(
      json: #"""
        {"routes": [
          {"pattern": "/i/<int:n>/<float:f>", "screen": "numbers", "priority": 2},
          {"pattern": "/s/:name", "screen": "s\u0007\"x", "rename": {"name": "who"}},
          {"pattern": "/old/:id", "redirect": "/s/:id"},
          {"pattern": "/loop", "redirect": "/loop"},
          {"pattern": "/inside", "action": "a", "external": false},
          {"pattern": "/rest/*", "notification": "N"}
        ]}
        """#)
    let urls = [
      "/i/-3/2.50?x=1&x=2", "/s/%E2%80%8Bz\u{1}?q=\"", "/old/7", "/loop", "/inside", "/rest/a/b",
      "/none", "/s/%zz", "\u{FFFD}\t",
    ]
    for origin in [Origin.app, .external] {
      for url in urls {
        let resolution = table.resolve(url, from: origin)
        var out: [UInt8] = []
        ResolveCommand.write(url: url, resolution, routes: [], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == ResolveCommand.line(url: url, resolution))
        let cached = table.entries.map { entry in
          var bytes: [UInt8] = []
          entry.json.write(to: &bytes)
          return bytes
        }
        var fast: [UInt8] = []
        ResolveCommand.write(url: url, resolution, routes: cached, to: &fast)
        #expect(fast == out, "\(url)")
      }
    }
  }

  @Test func writesTheExactLineForAMatchedURL() {
    let result = CapturedRun.run(["resolve", "myapp://home"])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == #"{"url":"myapp://home","matched":true,"pattern":"myapp://home","route":{"pattern":"myapp://home","screen":"home"},"params":{}}"#
        + "\n")
    #expect(result.stderr.isEmpty)
  }

  @Test func writesTheExactLineForAMatchedURLWithAParameter() {
    let result = CapturedRun.run(["resolve", "navigator://user/zhangsan"])
    #expect(result.status == 0)
    #expect(
      result.lines == [
        #"{"url":"navigator://user/zhangsan","matched":true,"pattern":"navigator://user/<username>","route":{"pattern":"navigator://user/<username>","screen":"user-profile"},"params":{"username":"zhangsan"}}"#
      ])
  }

  @Test func answersTheOrderDetailSeed() throws {
    let url = "navigateApp://action?navigationKey=orderdetail&orderid=2015032688"
    let result = CapturedRun.run(["resolve", url])
    #expect(result.status == 0)
    let line = try #require(result.lines.first)
    let answer = try parseLine(line)
    #expect(answer.keys == ["url", "matched", "pattern", "route", "params"])
    #expect(answer["url"] == .string(url))
    #expect(answer["matched"] == .bool(true))
    #expect(
      answer["pattern"]
        == .string("navigateApp://action?navigationKey=orderdetail&orderid=:orderid"))
    #expect(
      answer["route"]
        == .object([
          JSONMember(
            "pattern", .string("navigateApp://action?navigationKey=orderdetail&orderid=:orderid")),
          JSONMember("screen", .string("order-detail")),
        ]))
    #expect(
      membersByKey(answer["params"])
        == ["navigationKey": .string("orderdetail"), "orderid": .string("2015032688")])
  }

  @Test func answersTheSpecExamples() throws {
    try withTableFile(specExampleTable) { path in
      let result = CapturedRun.run([
        "resolve", "--routes", path, "tests://user/view/joeldev?foo=bar", "tests://nothing/here",
        "tests://user/%zz",
      ])
      #expect(result.status == 1)
      #expect(result.stderr.isEmpty)
      #expect(result.lines.count == 3)
      let first = try parseLine(try #require(result.lines.first))
      #expect(first.keys == ["url", "matched", "pattern", "route", "params"])
      #expect(first["url"] == .string("tests://user/view/joeldev?foo=bar"))
      #expect(first["matched"] == .bool(true))
      #expect(first["pattern"] == .string("/user/view/:userID"))
      #expect(
        first["route"]?.serialized
          == #"{"pattern":"/user/view/:userID","screen":"user-profile","priority":5}"#)
      #expect(
        membersByKey(first["params"]) == ["userID": .string("joeldev"), "foo": .string("bar")])
      #expect(result.lines.dropFirst().first == #"{"url":"tests://nothing/here","matched":false}"#)
      #expect(
        result.lines.last
          == #"{"url":"tests://user/%zz","matched":false,"error":"invalid percent escape in path segment 2"}"#
      )
    }
  }

  @Test func writesTheRouteExactlyAsWritten() throws {
    let table = #"""
      {"routes": [
        { "screen" : "用户",   "pattern": "/w/:a",
          "rename": {"a": "b", "c": "d"}, "priority": -7, "external": true,
          "guard": "signed-in", "minVersion": "2.10.0", "presentation": "present" },
        { "pattern": "/w/x", "parent": "/w/y", "action": "x" }
      ]}
      """#
    try withTableFile(table) { path in
      let result = CapturedRun.run(["resolve", "--routes", path, "/w/q", "myapp://w/x"])
      #expect(result.status == 0)
      #expect(
        result.lines == [
          #"{"url":"/w/q","matched":true,"pattern":"/w/:a","route":{"screen":"用户","pattern":"/w/:a","rename":{"a":"b","c":"d"},"priority":-7,"external":true,"guard":"signed-in","minVersion":"2.10.0","presentation":"present"},"params":{"b":"q"}}"#,
          #"{"url":"myapp://w/x","matched":true,"pattern":"/w/x","route":{"pattern":"/w/x","parent":"/w/y","action":"x"},"params":{}}"#,
        ])
    }
  }

  @Test func writesNumbersForTypedCaptures() throws {
    let result = CapturedRun.run([
      "resolve", "XYWAPP://pkdetail/like?id=123", "ccfurlresponder://animal/p/8.0",
    ])
    #expect(result.status == 0)
    let like = try parseLine(try #require(result.lines.first))
    #expect(like["params"] == .object([JSONMember("id", .number("123"))]))
    let animal = try parseLine(try #require(result.lines.last))
    #expect(
      membersByKey(animal["params"])
        == ["CCFAnimal": .string("p"), "CCFAverageWeight": .number("8")])
  }

  @Test func writesOneLinePerURLInOrder() throws {
    let urls = [
      "myapp://home", "tests://nothing", "myapp://user/%zz", "myapp://home", "myapp://me#frag",
      "", " ",
    ]
    let result = CapturedRun.run(["resolve"] + urls)
    #expect(result.status == 1)
    #expect(result.lines.count == urls.count)
    for (line, url) in zip(result.lines, urls) {
      let answer = try parseLine(line)
      #expect(answer["url"] == .string(url))
      #expect(Array(answer.keys.prefix(2)) == ["url", "matched"])
    }
  }

  @Test func anArgumentWithANewlineIsOneURL() throws {
    let result = CapturedRun.run(["resolve", "myapp://home\nmyapp://me", "myapp://home\r"])
    #expect(result.status == 1)
    try #require(result.lines.count == 2)
    #expect(try parseLine(result.lines[0])["url"] == .string("myapp://home\nmyapp://me"))
    #expect(try parseLine(result.lines[1])["url"] == .string("myapp://home\r"))
  }

  @Test func aRawArgumentThatIsNotUTF8IsAnInvalidURL() {
    let result = CapturedRun.run(rawArguments: [
      Array("resolve".utf8), Array("--external".utf8), Array("myapp://user/".utf8) + [0xFF],
      Array("myapp://user/a".utf8) + [0x00],
    ])
    #expect(result.status == 1)
    #expect(
      result.lines == [
        #"{"url":"myapp://user/\#u{FFFD}","matched":false,"error":"invalid UTF-8 in path segment 2"}"#,
        #"{"url":"myapp://user/a\u0000","matched":true,"pattern":"myapp://user/<username>","route":{"pattern":"myapp://user/<username>","screen":"user-profile"},"params":{"username":"a\u0000"}}"#,
      ])
  }

  @Test func writesTheUnmatchedLine() {
    let result = CapturedRun.run(["resolve", "tests://nothing/here"])
    #expect(result.status == 1)
    #expect(result.lines == [#"{"url":"tests://nothing/here","matched":false}"#])
    #expect(result.stderr.isEmpty)
  }

  @Test(arguments: [
    ("tests://user/%zz", "invalid percent escape in path segment 2"),
    ("myapp://user/abc%", "invalid percent escape in path segment 2"),
    ("myapp:/a/b/%4", "invalid percent escape in path segment 3"),
    ("myapp://home?a=1&b=%g0", "invalid percent escape in query item 2"),
    ("myapp://user/%FF", "invalid UTF-8 in path segment 2"),
  ])
  func writesTheInvalidLineWithItsError(url: String, error: String) {
    let result = CapturedRun.run(["resolve", url])
    #expect(result.status == 1)
    #expect(
      result.lines == [
        #"{"url":"\#(url)","matched":false,"error":"\#(error)"}"#
      ])
  }

  @Test func refusesAnInternalOnlyRouteWithExternal() throws {
    let inside = CapturedRun.run(["resolve", "myapp://debug/reset"])
    #expect(inside.status == 0)
    let outside = CapturedRun.run(["resolve", "--external", "myapp://debug/reset"])
    #expect(outside.status == 1)
    #expect(outside.stderr.isEmpty)
    let answer = try parseLine(try #require(outside.lines.first))
    #expect(answer.keys == ["url", "matched", "refused"])
    #expect(answer["url"] == .string("myapp://debug/reset"))
    #expect(answer["matched"] == .bool(false))
    guard case .string(let why)? = answer["refused"] else {
      Issue.record("refused must say why: \(outside.stdout)")
      return
    }
    #expect(!why.isEmpty)
  }

  @Test func aRefusedURLDoesNotTryTheNextRankedRoute() throws {
    let table = #"""
      {"routes": [
        {"pattern": "myapp://debug/reset", "action": "reset", "external": false},
        {"pattern": "myapp://debug/:what", "screen": "debug"},
        {"pattern": "/debug/reset", "screen": "global-reset"}
      ]}
      """#
    try withTableFile(table) { path in
      let result = CapturedRun.run([
        "resolve", "--routes", path, "--external", "myapp://debug/reset",
      ])
      #expect(result.status == 1)
      let answer = try parseLine(try #require(result.lines.first))
      #expect(answer["matched"] == .bool(false))
      #expect(answer["refused"] != nil)
      #expect(answer["pattern"] == nil)
      let other = CapturedRun.run([
        "resolve", "--routes", path, "--external", "myapp://debug/other",
      ])
      #expect(other.status == 0)
    }
  }

  @Test func listsRedirectsOnlyAfterRedirects() throws {
    let result = CapturedRun.run([
      "resolve", "myapp://old-orders/42", "myapp://orders/42", "myapp://old-orders/abc",
    ])
    #expect(result.status == 1)
    try #require(result.lines.count == 3)
    let redirected = try parseLine(try #require(result.lines.first))
    #expect(
      Array(redirected.keys.prefix(5)) == ["url", "matched", "pattern", "route", "params"])
    #expect(Set(redirected.keys) == ["url", "matched", "pattern", "route", "params", "redirects"])
    #expect(redirected["url"] == .string("myapp://old-orders/42"))
    #expect(redirected["pattern"] == .string("myapp://orders/<int:id>"))
    #expect(redirected["route"]?["screen"] == .string("order-detail"))
    #expect(redirected["params"] == .object([JSONMember("orderid", .number("42"))]))
    #expect(redirected["redirects"] == .array([.string("myapp://orders/42")]))
    let direct = try parseLine(result.lines[1])
    #expect(direct.keys == ["url", "matched", "pattern", "route", "params"])
    let failed = try parseLine(result.lines[2])
    #expect(failed["matched"] == .bool(false))
    #expect(failed["redirects"] == .array([.string("myapp://orders/abc")]))
  }

  @Test func listsEveryRedirectOfAChain() throws {
    let table = #"""
      {"routes": [
        {"pattern": "/a/:x", "redirect": "/b/:x"},
        {"pattern": "/b/:x", "redirect": "myapp://c/:x"},
        {"pattern": "myapp://c/:x", "screen": "c"}
      ]}
      """#
    try withTableFile(table) { path in
      let result = CapturedRun.run(["resolve", "--routes", path, "--external", "x://a/%E4%B8%AD"])
      #expect(result.status == 0)
      let answer = try parseLine(try #require(result.lines.first))
      #expect(
        answer["redirects"]
          == .array([.string("/b/%E4%B8%AD"), .string("myapp://c/%E4%B8%AD")]))
      #expect(answer["pattern"] == .string("myapp://c/:x"))
      #expect(answer["params"] == .object([JSONMember("x", .string("中"))]))
    }
  }

  @Test func aFailedRedirectIsAnErrorLine() throws {
    let table = #"""
      {"routes": [
        {"pattern": "/loop", "redirect": "/loop"},
        {"pattern": "/m/:a", "redirect": "/n/:b"},
        {"pattern": "/n/:b", "screen": "n"}
      ]}
      """#
    try withTableFile(table) { path in
      let result = CapturedRun.run(["resolve", "--routes", path, "/loop", "/m/1", "/m/1?b=2"])
      #expect(result.status == 1)
      try #require(result.lines.count == 3)
      for line in result.lines.prefix(2) {
        let answer = try parseLine(line)
        #expect(answer["matched"] == .bool(false))
        guard case .string(let why)? = answer["error"] else {
          Issue.record("expected an error: \(line)")
          continue
        }
        #expect(!why.isEmpty)
      }
      #expect(try parseLine(result.lines[2])["matched"] == .bool(true))
    }
  }

  // MARK: Exit status

  @Test func exitsZeroWhenEveryURLMatched() {
    let result = CapturedRun.run([
      "resolve", "myapp://home", "navigator://user/x", "JLRoutesThree://post/1",
    ])
    #expect(result.status == 0)
    #expect(result.lines.count == 3)
  }

  @Test(arguments: ["tests://nothing", "myapp://user/%zz", "myapp://old-orders/x"])
  func exitsOneWhenAnyURLDidNotMatch(bad: String) {
    let result = CapturedRun.run(["resolve", "myapp://home", bad, "myapp://me"])
    #expect(result.status == 1)
    #expect(result.lines.count == 3)
  }

  @Test func exitsOneWhenAnOutsideURLIsRefused() {
    let result = CapturedRun.run(["resolve", "--external", "myapp://home", "myapp://debug/reset"])
    #expect(result.status == 1)
    #expect(result.lines.count == 2)
  }

  @Test(arguments: [
    "{", #"{"routes": [{"pattern": "/a/*/*", "screen": "s"}]}"#,
    #"{"routes": [{"pattern": "/a", "screen": "s"}, {"pattern": "/a", "action": "t"}]}"#,
    #"{"routes": [], "extra": true}"#, #"{"version": 1}"#, "",
  ])
  func exitsTwoForAnUnusableTable(json: String) throws {
    try withTableFile(json) { path in
      let result = CapturedRun.run(["resolve", "--routes", path, "myapp://home"])
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(!result.stderr.isEmpty)
      let streamed = runStdin([Array("myapp://home\n".utf8)], arguments: ["--routes", path])
      #expect(streamed.status == 2)
      #expect(streamed.stdout.isEmpty)
      #expect(!streamed.stderr.isEmpty)
    }
  }

  @Test func namesTheRefusedEntryOnStandardError() throws {
    let json = #"{"routes": [{"pattern": "/a", "screen": "s"}, {"pattern": "/a", "action": "t"}]}"#
    try withTableFile(json) { path in
      let result = CapturedRun.run(["resolve", "--routes", path, "myapp://home"])
      #expect(result.status == 2)
      #expect(result.stderr.contains("routes[1] conflicts with routes[0]"), "\(result.stderr)")
    }
  }

  @Test func exitsTwoForATableThatCannotBeRead() throws {
    let missing = CapturedRun.run([
      "resolve", "--routes", "/nonexistent/routes.json", "myapp://home",
    ])
    #expect(missing.status == 2)
    #expect(missing.stdout.isEmpty)
    #expect(missing.stderr.contains("/nonexistent/routes.json"))
    let directory = CapturedRun.run([
      "resolve", "--routes", FileManager.default.temporaryDirectory.path, "x",
    ])
    #expect(directory.status == 2)
    #expect(directory.stdout.isEmpty)
    #expect(!directory.stderr.isEmpty)
  }

  @Test(arguments: [
    ["--bogus"], ["--bogus", "myapp://home"], ["myapp://home", "--bogus"],
    ["myapp://home", "--Routes", "x"], ["--external=yes", "myapp://home"], ["---", "myapp://home"],
  ])
  func exitsTwoForAnUnknownOption(arguments: [String]) {
    let result = CapturedRun.run(["resolve"] + arguments)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(!result.stderr.isEmpty)
    let streamed = runStdin(
      [Array("myapp://home\n".utf8)], arguments: arguments.filter { $0.hasPrefix("--") })
    #expect(streamed.status == 2)
    #expect(streamed.stdout.isEmpty)
  }

  @Test func exitsTwoWhenRoutesHasNoValue() {
    let result = CapturedRun.run(["resolve", "myapp://home", "--routes"])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("--routes"))
    let streamed = runStdin([Array("myapp://home\n".utf8)], arguments: ["--routes"])
    #expect(streamed.status == 2)
    #expect(streamed.stdout.isEmpty)
    #expect(!streamed.stderr.isEmpty)
  }

  // MARK: Options

  @Test func doubleDashEndsTheOptions() throws {
    let result = CapturedRun.run([
      "resolve", "--", "--external", "myapp://debug/reset", "--", "--bogus",
    ])
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    try #require(result.lines.count == 4)
    let urls = try result.lines.map { try parseLine($0)["url"] }
    #expect(
      urls == [
        .string("--external"), .string("myapp://debug/reset"), .string("--"), .string("--bogus"),
      ])
    // `--external` after `--` is a URL, so the internal-only route still opens from the app.
    #expect(try parseLine(result.lines[1])["matched"] == .bool(true))
    let outside = CapturedRun.run(["resolve", "--external", "--", "myapp://debug/reset"])
    #expect(try parseLine(try #require(outside.lines.first))["refused"] != nil)
  }

  @Test func aSingleDashArgumentIsAURL() throws {
    let result = CapturedRun.run(["resolve", "-x", "-"])
    #expect(result.status == 1)
    #expect(result.lines == [#"{"url":"-x","matched":false}"#, #"{"url":"-","matched":false}"#])
  }

  @Test func usesTheGivenRoutesFile() throws {
    let json = #"{"routes": [{"pattern": "myapp://only", "screen": "only"}]}"#
    try withTableFile(json) { path in
      let result = CapturedRun.run(["resolve", "myapp://only", "--routes", path, "myapp://home"])
      #expect(result.status == 1)
      let answers = try result.lines.map { try parseLine($0) }
      #expect(answers.map { $0["matched"] } == [.bool(true), .bool(false)])
    }
  }
}
