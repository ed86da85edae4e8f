import Foundation
import TestSupport
import Testing

@testable import AppShellCLI

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `appshell test`: flows and link contracts run in parallel, reported in path order, with a
/// summary line, JUnit XML, `--update` and exit statuses 0, 1 and 2.
@Suite struct TestCommandTests {
  /// A directory of flows and contracts, some passing, some failing, some unusable.
  static func suite(in root: String) throws -> String {
    let directory = root + "/suite"
    let files: [String: String] = [
      "pass.keys": "myapp://orders/42<Enter><ExpectScreen order-detail>\n",
      "fails.keys": "# size: 40x6\nmyapp://orders/42<Enter>\n<Expect \"Order 43\">\n",
      "sub/golden.keys": "myapp://me<Enter>",
      "sub/golden.golden": "=== snapshot 1 ===\nnot this\n",
      "broken.keys": "ab<Nope>",
      "notes.txt": "not a test",
      "links.links.json": """
      { "cases": [
        { "url": "myapp://orders/42", "expect": { "screen": "order-detail" } },
        { "url": "myapp://orders/42", "expect": { "screen": "order-list", "tab": "Orders" } }
      ] }
      """,
      "bad.links.json": """
      { "cases": [
        { "url": "myapp://orders/42", "expect": { "screen": "order-detail" } },
        { "url": "myapp://orders/42",
          "expect": { "screne": "order-list" } }
      ] }
      """,
    ]
    for (path, text) in files {
      let url = URL(fileURLWithPath: directory + "/" + path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return directory
  }

  static func test(_ arguments: [String]) -> CapturedRun {
    CapturedRun.run(["test", "--screens", GoldenScripts.screens] + arguments)
  }

  @Test func everyTestIsReportedInPathOrderWithItsReasonAndDetails() throws {
    let directories = try PrivateDirectories()
    let d = try Self.suite(in: directories.root)
    let run = Self.test(["-j", "1", d])
    #expect(run.status == 2, "an unusable file makes the exit status 2")
    #expect(run.stderr == "")
    let expected = """
      FAIL \(d)/bad.links.json: \(d)/bad.links.json:4:17: cases[1].expect.screne: unknown member; did you mean "screen"? (expect has screen, title, params, tab, stack, presentation, alert, matched, refused, action, notification, status, redirects, opens)
      FAIL \(d)/broken.keys: \(d)/broken.keys:1:3: unknown key <Nope>
      FAIL \(d)/fails.keys: \(d)/fails.keys:3:1: expected "Order 43" on the screen
          the screen then:
          | ‹ Home          Order 42
          |  Order number: 42
          |  Item: Umbrella
          |       [ Home ]    Orders      Me
          | Opened Order 42
          | URL›
      ok   \(d)/links.links.json#1 myapp://orders/42
      FAIL \(d)/links.links.json#2 myapp://orders/42: 2 expectations failed
          screen: expected "order-list", found "order-detail"
          tab: expected "Orders", found "Home"
      ok   \(d)/pass.keys
      FAIL \(d)/sub/golden.keys: differs from \(d)/sub/golden.golden (rewrite it with --update)
          --- \(d)/sub/golden.golden
          +++ this run
          @@ line 1 of expected, line 1 of actual, in snapshot 1 @@
            === snapshot 1 ===
          - not this
          + ‹ Home                                 Me

      """
    #expect(run.stdout.hasPrefix(expected), "\(run.stdout)")
    #expect(run.stdout.hasSuffix("\n    + URL›\n2 passed, 5 failed\n"), "\(run.stdout)")
  }

  @Test func theOutputIsTheSameWhateverTheNumberOfJobs() throws {
    let directories = try PrivateDirectories()
    let d = try Self.suite(in: directories.root)
    // Many flows, so that jobs finish out of order.
    for index in 0..<40 {
      let text =
        index % 3 == 0 ? "<Wait \(index)s><Expect \"Nope\">" : "myapp://orders/\(index)<Enter>"
      try Data(text.utf8).write(to: URL(fileURLWithPath: d + "/many-\(index).keys"))
    }
    let one = Self.test(["-j", "1", d])
    let four = Self.test(["-j4", d])
    let byDefault = Self.test([d])
    #expect(one.stdout == four.stdout)
    #expect(one.stdout == byDefault.stdout)
    #expect(one.stdout.hasSuffix("\n28 passed, 19 failed\n"))
  }

  @Test func exitStatusIsZeroWhenAllPassAndOneWhenAnyFailed() throws {
    let directories = try PrivateDirectories()
    let d = try Self.suite(in: directories.root)
    let passing = Self.test([d + "/pass.keys", d + "/links.links.json"])
    #expect(passing.status == 1)
    #expect(passing.stdout.hasSuffix("\n2 passed, 1 failed\n"))
    let pass = Self.test([d + "/pass.keys"])
    #expect(pass.status == 0)
    #expect(pass.stdout == "ok   \(d)/pass.keys\n1 passed, 0 failed\n")
    let missing = Self.test([d + "/nothing.keys"])
    #expect(missing.status == 2)
    #expect(
      missing.stdout
        == "FAIL \(d)/nothing.keys: \(d)/nothing.keys: no such file or directory\n"
        + "0 passed, 1 failed\n")
    let missingDirectory = Self.test([d + "/nowhere"])
    #expect(missingDirectory.status == 2)
    #expect(
      missingDirectory.stdout
        == "FAIL \(d)/nowhere: \(d)/nowhere: no such file or directory\n0 passed, 1 failed\n")
    let other = Self.test([d + "/notes.txt"])
    #expect(other.status == 2)
    #expect(
      other.stdout.hasPrefix(
        "FAIL \(d)/notes.txt: \(d)/notes.txt: not a flow (.keys) or a link contract (.links.json)\n"
      ))
  }

  /// A CI run that finds nothing to test does not pass.
  @Test func aDirectoryWithoutTestsExits2() throws {
    let directories = try PrivateDirectories()
    let d = try Self.suite(in: directories.root)
    let empty = directories.root + "/empty"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let run = Self.test([empty])
    #expect(run.status == 2)
    #expect(run.stdout == "0 passed, 0 failed\n")
    #expect(run.stderr == "appshell test: no flows or link contracts in \(empty)\n")
    let withOthers = Self.test([d + "/pass.keys", empty])
    #expect(withOthers.status == 2)
    #expect(withOthers.stdout == "ok   \(d)/pass.keys\n1 passed, 0 failed\n")
    #expect(withOthers.stderr == "appshell test: no flows or link contracts in \(empty)\n")
  }

  @Test(arguments: [
    (["-j", "0"], "-j needs a number of tests at a time (1 or more), not '0'"),
    (["--frobnicate"], "unknown option '--frobnicate'"),
    (["--junit"], "--junit needs a value"),
  ])
  func badOptionsExit2(arguments: [String], message: String) {
    let run = Self.test(arguments)
    #expect(run.status == 2)
    #expect(run.stderr.hasPrefix("appshell test: \(message)\n"), "\(run.stderr)")
  }

  @Test func withoutAPathItRunsTheAppsFlowsDirectory() throws {
    let directories = try PrivateDirectories()
    let run = CapturedRun.run(["test", "--screens", directories.root])
    #expect(run.status == 2)
    #expect(run.stderr.contains("routes.json"), "\(run.stderr)")
    let app = directories.root + "/app"
    #expect(CapturedRun.run(["init", app]).status == 0)
    let tested = CapturedRun.run(["test", "--screens", app])
    #expect(tested.status == 0, "\(tested.stdout)")
    try FileManager.default.removeItem(atPath: app + "/flows")
    let none = CapturedRun.run(["test", "--screens", app])
    #expect(none.status == 2)
    #expect(
      none.stderr
        == "appshell test: no flows or link contracts in \(app)/flows: no such directory (name a PATH)\n"
    )
  }

  @Test func updateWritesGoldensButNotForAFailedFlow() throws {
    let directories = try PrivateDirectories()
    let d = try Self.suite(in: directories.root)
    let updated = Self.test(["--update", d + "/pass.keys", d + "/sub", d + "/fails.keys"])
    #expect(updated.status == 1, "a failed expectation still fails the flow")
    #expect(updated.stdout.contains("ok   \(d)/pass.keys (wrote \(d)/pass.golden)\n"))
    #expect(updated.stdout.contains("ok   \(d)/sub/golden.keys (wrote \(d)/sub/golden.golden)\n"))
    let unchanged = Self.test(["--update", d + "/pass.keys"])
    #expect(unchanged.stdout == "ok   \(d)/pass.keys\n1 passed, 0 failed\n")
    #expect(FileManager.default.fileExists(atPath: d + "/pass.golden"), "a missing golden is made")
    #expect(!FileManager.default.fileExists(atPath: d + "/fails.golden"))
    let golden = try String(contentsOfFile: d + "/sub/golden.golden", encoding: .utf8)
    #expect(golden.hasPrefix("=== snapshot 1 ===\n‹ Home"))
    let again = Self.test([d + "/pass.keys", d + "/sub"])
    #expect(again.status == 0, "\(again.stdout)")
    #expect(again.stdout == "ok   \(d)/pass.keys\nok   \(d)/sub/golden.keys\n2 passed, 0 failed\n")
  }

  @Test func junitIsWellFormedAndCountsAsTheSummaryDoes() throws {
    let directories = try PrivateDirectories()
    let d = try Self.suite(in: directories.root)
    let report = directories.root + "/junit.xml"
    let run = Self.test(["--junit", report, d])
    #expect(run.stdout.hasSuffix("\n2 passed, 5 failed\n"))
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    let document = try XMLDocument(xmlString: xml)
    let root = try #require(document.rootElement())
    #expect(root.name == "testsuites")
    func number(_ element: XMLElement, _ name: String) -> Int {
      Int(element.attribute(forName: name)?.stringValue ?? "") ?? -1
    }
    let tests = number(root, "tests")
    let failures = number(root, "failures")
    let errors = number(root, "errors")
    #expect(tests == 7)
    #expect(failures + errors == 5)
    #expect(tests - failures - errors == 2)
    let suites = root.elements(forName: "testsuite")
    #expect(suites.count == 6, "one testsuite per file")
    #expect(suites.reduce(0) { $0 + $1.elements(forName: "testcase").count } == tests)
    let failureElements = suites.flatMap { $0.elements(forName: "testcase") }.flatMap {
      $0.elements(forName: "failure")
    }
    let errorElements = suites.flatMap { $0.elements(forName: "testcase") }.flatMap {
      $0.elements(forName: "error")
    }
    #expect(failureElements.count == failures)
    #expect(errorElements.count == errors)
    #expect(errors == 2, "the bad contract and the broken flow")
    let contract = try #require(
      suites.first { $0.attribute(forName: "name")?.stringValue == d + "/links.links.json" })
    #expect(number(contract, "tests") == 2)
    #expect(number(contract, "failures") == 1)
    let failure = try #require(
      contract.elements(forName: "testcase").last?.elements(forName: "failure").first)
    #expect(failure.attribute(forName: "message")?.stringValue == "2 expectations failed")
    #expect(failure.stringValue?.contains(#"tab: expected "Orders", found "Home""#) == true)
  }

  @Test func xmlTextIsEscaped() {
    #expect(
      JUnitReport.escaped("a<b>&\"c\"\u{1B}\n") == "a&lt;b&gt;&amp;&quot;c&quot;\u{FFFD}&#10;")
  }
}
