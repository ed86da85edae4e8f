import Foundation
import TestSupport
import Testing

@testable import AppShellCLI

/// `appshell replay SCRIPT --expect GOLDEN [--update]`: how users check their own routes in
/// their own CI.
@Suite struct ReplayExpectTests {
  /// A scratch directory with a script `s.keys`.
  private static func scratch() throws -> TemporaryDirectory {
    let directory = try TemporaryDirectory("appshell-expect")
    try Data("<Resize 40x8>myapp://user/alice<Enter><Snap>myapp://nowhere<Enter>".utf8)
      .write(to: directory.url.appendingPathComponent("s.keys"))
    return directory
  }

  private static func replay(_ arguments: [String]) -> CapturedRun {
    CapturedRun.run(["replay", "--screens", GoldenScripts.screens] + arguments)
  }

  @Test func updateWritesTheGoldenAndExpectThenPasses() throws {
    let scratch = try Self.scratch()
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    let script = directory.appendingPathComponent("s.keys").path
    let golden = directory.appendingPathComponent("s.golden").path
    let plain = Self.replay([script])
    let updated = Self.replay(["--expect", golden, "--update", script])
    #expect(updated.status == 0, "\(updated.stderr)")
    #expect(updated.stdout == "updated \(golden) (2 snapshots)\n")
    #expect(try String(contentsOfFile: golden, encoding: .utf8) == plain.stdout)
    let checked = Self.replay(["--expect", golden, script])
    #expect(checked.status == 0, "\(checked.stderr)")
    #expect(checked.stdout == "ok: 2 snapshots match \(golden)\n")
  }

  @Test func aDifferenceIsADiffAndExitOne() throws {
    let scratch = try Self.scratch()
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    let script = directory.appendingPathComponent("s.keys").path
    let golden = directory.appendingPathComponent("s.golden").path
    let plain = Self.replay([script]).stdout
    try Data(plain.replacingOccurrences(of: "alice", with: "bob").utf8)
      .write(to: URL(fileURLWithPath: golden))
    let checked = Self.replay(["--expect", golden, script])
    #expect(checked.status == 1)
    #expect(checked.stdout.hasPrefix("--- \(golden)\n+++ this replay\n@@ line "))
    #expect(checked.stdout.contains("in snapshot 1 @@"))
    #expect(checked.stdout.contains("\n- ") && checked.stdout.contains("bob"))
    #expect(checked.stdout.contains("\n+ ") && checked.stdout.contains("alice"))
    #expect(checked.stdout.hasSuffix("differs from \(golden) (rewrite it with --update)\n"))
  }

  @Test func usageErrorsExitTwo() throws {
    let scratch = try Self.scratch()
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    let script = directory.appendingPathComponent("s.keys").path
    let missing = Self.replay([
      "--expect", directory.appendingPathComponent("no.golden").path, script,
    ])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("cannot read the golden file (write it with --update)"))
    #expect(missing.stdout.isEmpty)
    let alone = Self.replay(["--update", script])
    #expect(alone.status == 2)
    #expect(alone.stderr.hasPrefix("appshell replay: --update needs --expect GOLDEN\n"))
    let noValue = Self.replay([script, "--expect"])
    #expect(noValue.status == 2)
    #expect(noValue.stderr.contains("--expect needs a value"))
  }
}
