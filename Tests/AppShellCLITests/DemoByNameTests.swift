import Demo
import Foundation
import TestSupport
import Testing

@testable import AppRuntime
@testable import AppShellCLI

// The shipped demo is an app like any other: the `appshell` executable registers its Swift
// screens and actions for the app named in `Screens/app.json`, so a copy of `Screens/`
// anywhere behaves as `Screens/` does, and a data screen named like one of those Swift screens
// refuses the app (docs/app.md).

/// The README's tour, one URL after another, with a snapshot after each.
private let tour =
  [
    "navigateApp://action?navigationKey=personalcenter",
    "navigateApp://action?navigationKey=orderdetail&orderid=2015032688",
    "navigator://user/zhangsan", "navigator://modal/user/zhangsan",
    "XYWAPP://pkdetail/open?pkID=10010", "XYWAPP://pkdetail/like?id=10010",
    "ccfurlresponder://animal/platypus/8.0/17", "myapp://notifications",
    "JLRoutesThree://post/123", "JLRoutesThree://search/cats/page/2",
    "JLRoutesThree://files/a/b/c", "myapp://live/42", "myapp://orders/2015032688/pay",
    "myapp://old-orders/1024", "myapp://about", "myapp://PEOPLE/Carol",
    "https://eu.appshell.example.com/u/lisi", "myapp://profile#user=wangwu",
    "myapp://docs/guide/routing/3", "myapp://files#/music/2026",
  ].map { $0 + "<Enter><Snap>" }.joined(separator: "\n") + "\n"

@Suite struct DemoByNameTests {
  /// A copy of the shipped `Screens/` in `directories`, every file with it.
  static func copyOfScreens(in directories: PrivateDirectories) throws -> String {
    let copy = directories.root + "/x"
    try FileManager.default.copyItem(atPath: GoldenScripts.screens, toPath: copy)
    return copy
  }

  /// `appshell replay` of the tour by the built executable, with `--screens directory`.
  static func replayTour(screens directory: String, in directories: PrivateDirectories) throws
    -> ProcessResult
  {
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    let script = directories.root + "/tour.keys"
    try Data(tour.utf8).write(to: URL(fileURLWithPath: script))
    return try runProcess(
      appshell, ["replay", "--screens", directory, script], environment: directories.environment)
  }

  @Test func aCopyOfScreensShowsTheSameScreensAsScreens() throws {
    let directories = try PrivateDirectories()
    let shipped = try Self.replayTour(screens: GoldenScripts.screens, in: directories)
    let copied = try Self.replayTour(
      screens: try Self.copyOfScreens(in: directories), in: directories)
    #expect(shipped.status == 0, "\(shipped.stderr)")
    // The demo's Swift screens and actions are there: the order, the like, the route list.
    for text in ["Order number: 2015032688", "Liked pk 10010 (1 like)", "Routes in force"] {
      #expect(shipped.stdout.contains(text), "the tour never shows \(text)")
    }
    #expect(copied.status == shipped.status, "\(copied.stderr)")
    #expect(copied.stdout == shipped.stdout)
  }

  @Test func aDataScreenNamedLikeASwiftScreenRefusesTheApp() throws {
    let directories = try PrivateDirectories()
    let copy = try Self.copyOfScreens(in: directories)
    try Data(#"{"name":"about","title":"About"}"#.utf8)
      .write(to: URL(fileURLWithPath: copy + "/about.json"))
    let run = try Self.replayTour(screens: copy, in: directories)
    #expect(run.status == 2)
    #expect(run.stderr.contains("about.json"), "\(run.stderr)")
    #expect(run.stderr.contains("the screen 'about' is also registered in Swift"), "\(run.stderr)")
  }

  @Test func theDemoIsFoundByTheNameInAppJSON() throws {
    DemoApp.register()
    let directories = try PrivateDirectories()
    let copy = try Self.copyOfScreens(in: directories)
    #expect(try AppLoader.loadApp(screens: copy, routes: nil).catalog.has("order-detail"))
    // Renamed, the copy is another app: the demo's Swift screens are not its.
    let appJSON = URL(fileURLWithPath: copy + "/app.json")
    let renamed = try String(contentsOf: appJSON, encoding: .utf8)
      .replacingOccurrences(of: #""name": "AppShell""#, with: #""name": "Other""#)
    try Data(renamed.utf8).write(to: appJSON)
    #expect(
      try !AppLoader.loadApp(screens: copy, routes: nil, checkingTargets: false).catalog.has(
        "order-detail"))
    // Its own table names the demo's Swift screens, which it lacks: refused, naming one.
    #expect {
      try AppLoader.loadApp(screens: copy, routes: nil)
    } throws: { error in
      "\(error)".contains(#"no screen named "order-detail" in this app"#)
    }
  }
}
