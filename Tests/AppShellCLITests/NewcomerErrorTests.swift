import Foundation
import Interface
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// Mistakes a newcomer makes on purpose, as commands see them: each error says where
/// (`FILE:LINE:COL: member`), keeps the system's reason, and names a close name when there is
/// one.
@Suite struct NewcomerErrorTests {
  /// A fresh `appshell init` app in a private directory.
  static func starter(_ directories: PrivateDirectories) throws -> String {
    let directory = directories.root + "/app"
    let run = CapturedRun.run(["init", directory, "--name", "Shop", "--scheme", "shop"])
    try #require(run.status == 0, "\(run.stderr)")
    return directory
  }

  /// Replaces `old` with `new` in one of the app's files.
  static func edit(_ directory: String, _ file: String, _ old: String, _ new: String) throws {
    let path = directory + "/" + file
    let text = try String(contentsOfFile: path, encoding: .utf8)
    try #require(text.contains(old), "\(file) has no \(old)")
    try Data(text.replacing(old, with: new, maxReplacements: 1).utf8)
      .write(to: URL(fileURLWithPath: path))
  }

  static func script(_ directories: PrivateDirectories, _ text: String) throws -> String {
    let path = directories.root + "/s.keys"
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func aMisspeltScreenInTheAppsOwnTableIsRefusedAtStartAndByTest() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.starter(directories)
    try Self.edit(directory, "routes.json", #""screen": "item""#, #""screen": "itme""#)
    let message =
      "\(directory)/routes.json:4:43: routes[1].screen: no screen named \"itme\" in this app; did you mean \"item\"?\n"
    let replay = CapturedRun.run([
      "replay", "--screens", directory, try Self.script(directories, "<Snap>"),
    ])
    #expect(replay.status == 2)
    #expect(replay.stderr == "appshell replay: " + message)
    let test = CapturedRun.run(["test", "--screens", directory])
    #expect(test.status == 2)
    #expect(test.stderr == "appshell test: " + message)
  }

  @Test func aMisspeltActionInTheAppsOwnTableIsRefused() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.starter(directories)
    try Self.edit(directory, "routes.json", #""action": "save""#, #""action": "svae""#)
    let test = CapturedRun.run(["test", "--screens", directory])
    #expect(test.status == 2)
    #expect(
      test.stderr.contains(#".action: no action named "svae" in this app; did you mean "save"?"#),
      "\(test.stderr)")
  }

  @Test func anotherTableGivenWithRoutesKeepsTheUpgradePath() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.starter(directories)
    let other = directories.root + "/other.json"
    let table = try String(contentsOfFile: directory + "/routes.json", encoding: .utf8)
      .replacing(#""screen": "item""#, with: #""screen": "coupon""#, maxReplacements: 1)
    try Data(table.utf8).write(to: URL(fileURLWithPath: other))
    let run = CapturedRun.run([
      "replay", "--screens", directory, "--routes", other,
      try Self.script(directories, "shop://items/3<Enter>"),
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.text.contains("Upgrade required"))
  }

  @Test(
    arguments: [
      (
        "routes.json", #""pattern": "shop://home", "screen""#,
        #""pattern": "shop://home", "sreen""#,
        #"routes.json:3:33: routes[0].sreen: unknown field; did you mean "screen"?"#
      ),
      (
        "app.json", #""title": "Home""#, #""titel": "Home""#,
        #"app.json:5:7: tabs[0].titel: unknown field; did you mean "title"? (fields: root, title)"#
      ),
      (
        "item.json", #""title""#, #""titel""#,
        #"item.json:3:3: titel: unknown field; did you mean "title"?"#
      ),
      (
        "app.json", #""version": "1.0.0""#, #""version": 1"#,
        #"app.json:3:3: version: must be a string"#
      ),
    ])
  func everyFileErrorSaysFileLineColumnAndMember(
    file: String, old: String, new: String, message: String
  ) throws {
    let directories = try PrivateDirectories()
    let directory = try Self.starter(directories)
    try Self.edit(directory, file, old, new)
    let run = CapturedRun.run(["routes", "--lint", "--screens", directory])
    #expect(run.status == 2)
    #expect(run.stderr.contains("\(directory)/\(message)"), "\(run.stderr)")
  }

  @Test func aMisspeltKeyOrOptionNamesTheCloseOne() throws {
    let directories = try PrivateDirectories()
    let path = try Self.script(directories, "<enter>")
    #expect(
      CapturedRun.run(["replay", path]).stderr
        == "\(path):1:1: unknown key <enter>; did you mean <Enter>?\n")
    try Data("ab<Entr>".utf8).write(to: URL(fileURLWithPath: path))
    #expect(
      CapturedRun.run(["replay", path]).stderr
        == "\(path):1:3: unknown key <Entr>; did you mean <Enter>?\n")
    #expect(
      CapturedRun.run(["opnurl", "x"]).stderr
        == "appshell: unknown command 'opnurl'; did you mean \"openurl\"?\nSee 'appshell --help'.\n"
    )
    let option = CapturedRun.run(["replay", "--screenz", "x", path])
    #expect(option.status == 2)
    #expect(
      option.stderr.hasPrefix(
        #"appshell replay: unknown option '--screenz'; did you mean "--screens"?"#))
    #expect(
      CapturedRun.run(["test", "--updat"]).stderr.hasPrefix(
        #"appshell test: unknown option '--updat'; did you mean "--update"?"#))
  }

  @Test func fileErrorsKeepTheSystemsReason() throws {
    let directories = try PrivateDirectories()
    let missing = directories.root + "/nope.keys"
    let replay = CapturedRun.run(["replay", missing])
    #expect(replay.status == 2)
    #expect(
      replay.stderr
        == "appshell replay: cannot read the key script \(missing): No such file or directory\n")
    let screens = CapturedRun.run(["test", "--screens", directories.root + "/nonexist"])
    #expect(screens.status == 2)
    #expect(
      screens.stderr
        == "appshell test: --screens \(directories.root)/nonexist: No such file or directory\n")
  }

  @Test func initPrintsHowToReplayTheApp() throws {
    let directories = try PrivateDirectories()
    let directory = directories.root + "/app"
    let run = CapturedRun.run(["init", directory])
    #expect(run.status == 0)
    #expect(
      run.text.contains(
        "Replay its flow:      appshell replay --screens \(directory) \(directory)/flows/first-run.keys\n"
      ),
      "\(run.text)")
  }

  @Test func aLinkContractsUnknownMemberIsPlacedAtItsKeyWithACloseName() throws {
    let directories = try PrivateDirectories()
    let path = directories.root + "/c.links.json"
    try Data(#"{"cases":[{"url":"myapp://home","expect":{"screne":"home"}}]}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    let run = CapturedRun.run(["test", "--screens", GoldenScripts.screens, path])
    #expect(run.status == 2)
    #expect(
      run.text.contains(
        #"\#(path):1:43: cases[0].expect.screne: unknown member; did you mean "screen"?"#),
      "\(run.text)")
  }

  @Test func aMisspeltScreenOnReloadIsRefusedAndTheAppKept() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.starter(directories)
    let app = try AppLoader.loadApp(screens: directory, routes: nil)
    var console = Console(app: app, size: Size(columns: 80, rows: 24))
    var source = TableSource(
      location: .file(directory + "/routes.json", shipped: false), key: nil,
      cache: TableCache(directory: directories.cache), shippedPath: directory + "/routes.json")
    source.appDirectory = directory
    try Self.edit(directory, "routes.json", #""screen": "item""#, #""screen": "itme""#)
    #expect(source.reload(into: &console) == nil)
    #expect(
      console.model.status.contains(
        #"routes[1].screen: no screen named "itme" in this app; did you mean "item"?"#),
      "\(console.model.status)")
    #expect(console.app.table.entries.count == app.table.entries.count)
  }

  @Test func aMisspeltGuardNamesTheCloseOne() throws {
    let directories = try PrivateDirectories()
    let directory = try Self.starter(directories)
    try Self.edit(directory, "routes.json", #""guard": "signed-in""#, #""guard": "signed-on""#)
    let run = CapturedRun.run(["test", "--screens", directory])
    #expect(run.status == 2)
    #expect(
      run.stderr.contains(#"unknown guard 'signed-on'; did you mean "signed-in"?"#), "\(run.stderr)"
    )
  }

  @Test func aFailedContractCaseHasItsDetailsUnderTheFailLine() throws {
    let directories = try PrivateDirectories()
    let path = directories.root + "/c.links.json"
    try Data(#"{"cases":[{"url":"myapp://orders","expect":{"screen":"home"}}]}"#.utf8)
      .write(to: URL(fileURLWithPath: path))
    let run = CapturedRun.run(["test", "--screens", GoldenScripts.screens, path])
    #expect(run.status == 1)
    #expect(
      run.text
        == "FAIL \(path)#1 myapp://orders: 1 expectation failed\n"
        + "    screen: expected \"home\", found \"order-list\"\n0 passed, 1 failed\n")
  }
}
