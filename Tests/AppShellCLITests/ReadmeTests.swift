import Foundation
import Testing

/// The README shows what the app really draws: its screen block is the replay of a checked-in
/// script, so it cannot drift from the code.
@Suite struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test func theScreenInTheREADMEIsTheReplayOfItsScript() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let marker =
      "<!-- The screen below is `appshell replay Tests/AppShellCLITests/Goldens/readme.keys`"
    let afterMarker = try #require(readme.range(of: marker), "the README lost its screen marker")
    let rest = readme[afterMarker.upperBound...]
    let open = try #require(rest.range(of: "```\n"))
    let close = try #require(rest[open.upperBound...].range(of: "\n```\n"))
    let shown = String(rest[open.upperBound..<close.lowerBound]) + "\n"
    let run = CapturedRun.run([
      "replay", "--screens", GoldenScripts.screens, GoldenScripts.scriptURL("readme").path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let screens = Snapshots(run.text).screens
    let replayed = try #require(screens.last).map { $0 + "\n" }.joined()
    #expect(shown == replayed, "README screen:\n\(shown)\nreplay:\n\(replayed)")
  }
}
