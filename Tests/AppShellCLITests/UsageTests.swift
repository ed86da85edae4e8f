import Foundation
import Testing

@testable import AppShellCLI

/// Each command's usage is written once (`Usage`): its `--help`, `appshell --help` and the
/// README's command table agree with it.
@Suite struct UsageTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The README's command table as the usages give it: each command's forms as its help shows
  /// them, then its summary indented by four spaces.
  static var expectedTable: String {
    ([AppShellCommand.usage] + AppShellCommand.commands).map { usage in
      (usage.forms + usage.summary.split(separator: "\n").map { "    " + $0 })
        .joined(separator: "\n")
    }.joined(separator: "\n") + "\n"
  }

  /// The fenced block under `## Commands` in `text`.
  static func table(inReadme text: String) -> String? {
    guard let heading = text.range(of: "\n## Commands\n"),
      let open = text[heading.upperBound...].range(of: "```\n"),
      let close = text[open.upperBound...].range(of: "\n```\n")
    else { return nil }
    return String(text[open.upperBound..<close.lowerBound]) + "\n"
  }

  @Test func theReadmeTableIsTheUsage() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let table = try #require(
      Self.table(inReadme: readme), "README.md has no ``` block under '## Commands'")
    #expect(
      table == Self.expectedTable,
      "README.md's command table differs from the commands' usage; it should read:\n\(Self.expectedTable)"
    )
  }

  @Test func aChangedUsageIsNoticed() throws {
    let readme = "# AppShell\n\n## Commands\n\n```\n" + Self.expectedTable + "```\n"
    #expect(Self.table(inReadme: readme) == Self.expectedTable)
    let changed = readme.replacingOccurrences(of: "[--external]", with: "[--outside]")
    #expect(Self.table(inReadme: changed) != Self.expectedTable)
  }

  /// `appshell --help` lists every command's forms and its summary; each command's help has
  /// its own forms as its USAGE section.
  @Test(arguments: AppShellCommand.commands.map(\.command))
  func eachHelpShowsTheUsage(command: String) throws {
    let usage = try #require(AppShellCommand.commands.first { $0.command == command })
    let top = CapturedRun.run(["--help"]).text
    #expect(top.contains("       " + Usage.section(usage.forms).dropFirst("USAGE: ".count)))
    #expect(top.contains(usage.listEntry + "\n"))
    let own = CapturedRun.run([command, "--help"])
    #expect(own.status == 0)
    #expect(own.text.contains("\n\n" + usage.section + "\n\n"))
  }

  /// A long summary goes on under its first line; a long name puts the summary on a line of
  /// its own.
  @Test func aListEntryLinesUpTheSummary() {
    let entry = Usage(command: "sign-table", forms: [], summary: "Sign.\nThen serve.")
    #expect(entry.listEntry == "  sign-table          Sign.\n                      Then serve.")
    let long = Usage(command: "a-much-longer-command-name", forms: [], summary: "Do.")
    #expect(long.listEntry == "  a-much-longer-command-name\n                      Do.")
  }
}
