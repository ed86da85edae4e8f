import Foundation
import Testing

// Version compatibility end to end: a table loaded at start or by a live reload may
// name screens and actions this build lacks, or need a newer app (`minVersion`); opening such
// a route from outside shows "Upgrade required" and the app keeps running.

@Suite struct VersionCompatibilityTests {
  /// The shipped table with routes from the future added, as a file in `app`'s directory.
  private func futureTable(in app: HeadlessApp, version: Int) throws -> String {
    let shipped = try String(
      contentsOfFile: GoldenScripts.screens + "/routes.json", encoding: .utf8)
    let future = """
      { "pattern": "myapp://future/screen", "screen": "hologram-viewer" },
      { "pattern": "myapp://future/action", "action": "teleport" },
      { "pattern": "myapp://future/version/:id", "screen": "user-profile", "minVersion": "99.1" },
      """
    let text = shipped.replacingOccurrences(of: "\"routes\": [", with: "\"routes\": [\n" + future)
      .replacingOccurrences(of: "\"version\": 1,", with: "\"version\": \(version),")
    let path = app.root + "/routes-\(version).json"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  private func alert(_ app: HeadlessApp) throws -> [String: Any]? {
    let state = try #require(try app.state()["state"] as? [String: Any])
    return state["alert"] as? [String: Any]
  }

  @Test(arguments: ["myapp://future/screen", "myapp://future/action", "myapp://future/version/7"])
  func aRouteFromTheFutureAsksForAnUpgrade(url: String) throws {
    let app = try HeadlessApp()
    try app.start(["--routes", try futureTable(in: app, version: 2)])
    defer { app.stop() }
    let before = try app.stackScreens()
    let result = try app.client(["openurl", url])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Upgrade required"), "\(result.stdout)")
    let shown = try #require(try alert(app), "an alert is shown")
    #expect(shown["title"] as? String == "Upgrade required")
    #expect(try app.stackScreens() == before, "nothing was pushed")
    #expect(app.isRunning)
  }

  @Test func aReloadedTableFromTheFutureAsksForAnUpgradeToo() throws {
    let app = try HeadlessApp()
    let path = app.root + "/routes.json"
    try FileManager.default.copyItem(atPath: GoldenScripts.screens + "/routes.json", toPath: path)
    try app.start(["--routes", path])
    defer { app.stop() }
    let unknown = try app.client(["openurl", "myapp://future/screen"])
    #expect(unknown.stdout.contains("No route"), "\(unknown.stdout)")
    // Replace the file by a rename, as editors do, and reload explicitly.
    let future = try futureTable(in: app, version: 2)
    #expect(rename(future, path) == 0)
    let reload = try app.client(["reload"])
    #expect(reload.status == 0, "\(reload.stderr)")
    #expect(reload.stdout.contains("Loaded route table v2"), "\(reload.stdout)")
    let opened = try app.client(["openurl", "myapp://future/screen"])
    #expect(opened.status == 0, "\(opened.stderr)")
    #expect(try alert(app)?["title"] as? String == "Upgrade required")
    #expect(app.isRunning)
  }
}
