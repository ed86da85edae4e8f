import Foundation
import TestSupport
import Testing

/// The README shows what the app really draws: its screen is an SVG picture made by
/// `appshell replay --format svg` from a checked-in script, so it cannot drift from the code.
///
/// After an intended change: `APPSHELL_UPDATE_GOLDENS=1 swift test --filter ReadmeTests`
/// rewrites `docs/images/readme-screen.svg` (and records an issue, so an update run never
/// passes silently); look at the picture before committing it.
@Suite struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let picture = root.appendingPathComponent("docs/images/readme-screen.svg")

  @Test func theScreenInTheREADMEIsTheReplayOfItsScript() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let marker =
      "<!-- The picture below is `appshell replay --format svg Tests/AppShellCLITests/Goldens/readme.keys`"
    let afterMarker = try #require(readme.range(of: marker), "the README lost its screen marker")
    #expect(
      readme[afterMarker.upperBound...].contains("](docs/images/readme-screen.svg)\n"),
      "the README shows the picture")
    let directories = try PrivateDirectories()
    let output = directories.root + "/images"
    let run = CapturedRun.run([
      "replay", "--screens", GoldenScripts.screens, "--format", "svg", "--output", output,
      GoldenScripts.scriptURL("readme").path,
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let made = try String(contentsOfFile: output + "/snapshot-1.svg", encoding: .utf8)
    try expectGolden(made, at: Self.picture, name: "docs/images/readme-screen.svg")
    if Golden.updating { return }
    let committed = try String(contentsOf: Self.picture, encoding: .utf8)
    // The picture still holds the screen the text replay prints.
    let text = CapturedRun.run([
      "replay", "--screens", GoldenScripts.screens, GoldenScripts.scriptURL("readme").path,
    ])
    for line in try #require(Snapshots(text.stdout).screens.last) where !line.isEmpty {
      let words = line.split(separator: " ").first.map(String.init) ?? ""
      #expect(
        committed.contains(words.replacingOccurrences(of: "&", with: "&amp;")),
        "the picture lacks \(words)")
    }
  }

  /// The picture's caption promises the log's parameters: the log line shows them whole.
  @Test func thePicturesLogShowsTheParameters() throws {
    let committed = try String(contentsOf: Self.picture, encoding: .utf8)
    #expect(committed.contains("{navigationKey=orderdetail orderid=2015032688} → pushed"))
  }

  static func text(_ path: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
  }

  /// A second terminal cannot `swift run` while the first builds: the README says how to call
  /// the built binary before it uses `appshell` in another terminal.
  @Test func theReadmeSaysHowToCallTheBuiltBinary() throws {
    let readme = try Self.text("README.md")
    let build = try #require(readme.range(of: ".build/debug"), "no word of .build/debug")
    let openurl = try #require(readme.range(of: "appshell openurl"))
    #expect(build.lowerBound < openurl.lowerBound)
  }

  /// The README's `routes --export aasa` command works on the demo as written.
  @Test func theReadmesAASAExportWorks() throws {
    let readme = try Self.text("README.md").replacing("\n", with: " ")
    let match = try #require(readme.firstMatch(of: #/routes --export aasa --host +([^ `]+)/#))
    let run = CapturedRun.run([
      "routes", "--screens", GoldenScripts.screens, "--export", "aasa", "--host",
      String(match.1),
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains(#""applinks""#))
  }

  /// docs/app.md says what `init` writes and where the screen format is.
  @Test func theAppPageIsCurrent() throws {
    let page = try Self.text("docs/app.md")
    #expect(!page.contains("no link contract yet"))
    #expect(page.contains("[the screen file format](shell.md#screens)"))
  }
}
