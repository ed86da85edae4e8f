import Foundation
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

// Golden transcripts of `appshell resolve --explain`: every `ExplainGoldens/NAME.args` (one
// argument a line; `--routes` paths are relative to the package root) is run in process, and
// the transcript — the command line, standard output, then `[exit N]` — must equal
// `ExplainGoldens/NAME.golden` byte for byte.
//
// To re-record after an intended change: `APPSHELL_UPDATE_GOLDENS=1 swift test --filter
// ExplainGolden`, then read every changed golden (`git diff`) before committing. An update run
// always records an issue, so it never passes silently.

/// The explain goldens: their arguments, and the transcript of running them.
enum ExplainGoldens {
  /// `Tests/AppShellCLITests/ExplainGoldens`, found from this file.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("ExplainGoldens")

  /// The package root, which `--routes` paths are relative to.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The cases the issue asks for (at least three tricky ones); each must exist.
  static let required = [
    "typed-loses-to-literal", "priority-beats-specificity", "groups-and-wildcards",
    "redirect-chain", "external-refused", "near-misses", "query-invalid-inert", "json",
  ]

  /// Every `*.args` file, by name without the extension, sorted.
  static var names: [String] {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".args") }.map { String($0.dropLast(".args".count)) }
      .sorted()
  }

  /// The arguments of a case, one a line.
  static func arguments(_ name: String) throws -> [String] {
    let text = try String(
      contentsOf: directory.appendingPathComponent(name + ".args"), encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// `appshell resolve ARGUMENTS` run in process, as a transcript.
  static func transcript(_ name: String) throws -> String {
    let arguments = try arguments(name)
    var resolved = arguments
    for index in resolved.indices.dropLast() where resolved[index] == "--routes" {
      resolved[index + 1] = root.appendingPathComponent(resolved[index + 1]).path
    }
    let run = CapturedRun.run(["resolve"] + resolved)
    var text = "$ appshell resolve " + arguments.map(shellQuoted).joined(separator: " ") + "\n"
    text += run.stdout
    if !run.stderr.isEmpty { text += "[stderr] " + run.stderr }
    text += "[exit \(run.status)]\n"
    return text
  }

  /// An argument as a POSIX shell would need it.
  static func shellQuoted(_ argument: String) -> String {
    let plain = argument.unicodeScalars.allSatisfy {
      CharacterSet.alphanumerics.contains($0) || "-_./:=@%,+".unicodeScalars.contains($0)
    }
    if plain && !argument.isEmpty { return argument }
    return "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  static func goldenURL(_ name: String) -> URL {
    directory.appendingPathComponent(name + ".golden")
  }
}

@Suite struct ExplainGoldenTests {
  @Test func everyRequiredCaseIsThereAndHasAGolden() {
    let names = ExplainGoldens.names
    for name in ExplainGoldens.required {
      #expect(names.contains(name), "ExplainGoldens/\(name).args is missing")
    }
    let files =
      (try? FileManager.default.contentsOfDirectory(atPath: ExplainGoldens.directory.path)) ?? []
    for file in files where file.hasSuffix(".golden") {
      let name = String(file.dropLast(".golden".count))
      #expect(names.contains(name), "ExplainGoldens/\(file) has no \(name).args")
    }
    for name in names {
      #expect(files.contains(name + ".golden"), "ExplainGoldens/\(name).args has no golden")
    }
  }

  @Test(arguments: ExplainGoldens.names)
  func transcriptMatchesGolden(_ name: String) throws {
    try expectGolden(
      try ExplainGoldens.transcript(name), at: ExplainGoldens.goldenURL(name),
      name: "ExplainGoldens/\(name).golden")
  }

  /// Goldens are inert text: no control characters but line ends, no trailing spaces, and no
  /// stderr output in the transcript.
  @Test(arguments: ExplainGoldens.names)
  func goldenIsInertText(_ name: String) throws {
    let text = try String(contentsOf: ExplainGoldens.goldenURL(name), encoding: .utf8)
    for (number, line) in text.split(separator: "\n").enumerated() {
      #expect(!hasControlCharacter(String(line)), "\(name).golden line \(number + 1)")
      #expect(line.last != " ", "\(name).golden line \(number + 1) keeps trailing spaces")
      #expect(!line.hasPrefix("[stderr]"), "\(name).golden line \(number + 1): \(line)")
    }
  }
}
