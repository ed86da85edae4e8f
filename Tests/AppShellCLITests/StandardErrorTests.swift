import Foundation
import TestSupport
import Testing

@testable import AppShellCLI

/// Error messages quote table keys, file names and script text; on the real standard error
/// they are shown inert, line by line, so a hostile table cannot set the terminal's title or
/// colours through an error.
@Suite struct StandardErrorTests {
  @Test func linesAreMadeInertAndLineBreaksKept() {
    #expect(inertLines("a\u{1b}]0;x\u{7}\nb\u{202e}\n") == "a\\x1b]0;x\\x07\nb\\u{202e}\n")
  }

  @Test func aHostileTableKeyReachesStandardErrorInert() throws {
    let appshell = try #require(builtExecutable("appshell"), "run `swift build` first")
    let directories = try PrivateDirectories()
    let file = URL(fileURLWithPath: directories.root + "/hostile.json")
    try Data(#"{"routes":[],"\u001b]0;pwned\u0007":1}"#.utf8).write(to: file)
    let result = try runProcess(
      appshell, ["routes", "--routes", file.path], environment: directories.environment)
    #expect(result.status == 2)
    #expect(result.stderr.contains("\\x1b]0;pwned\\x07: unknown field"), "\(result.stderr)")
    #expect(!result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
  }
}
