import Foundation
import Replay
import Testing

/// The one switch for golden files: `APPSHELL_UPDATE_GOLDENS=1 swift test --filter SUITE`
/// writes every golden the run compares instead of comparing; read them (`git diff`) before
/// committing. An update run records an issue per golden written, so it never passes silently.
package enum Golden {
  /// Whether `APPSHELL_UPDATE_GOLDENS` is `1`.
  package static var updating: Bool {
    ProcessInfo.processInfo.environment["APPSHELL_UPDATE_GOLDENS"] == "1"
  }
}

/// Expects `actual` to equal the golden file at `url` byte for byte (`name` is how messages
/// call the file); with ``Golden/updating`` on, writes the file instead and records that it
/// did.
package func expectGolden(
  _ actual: String, at url: URL, name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  if Golden.updating {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(actual.utf8).write(to: url)
    Issue.record(
      "APPSHELL_UPDATE_GOLDENS=1: wrote \(name); read it (git diff) and run again without it",
      sourceLocation: sourceLocation)
    return
  }
  let golden = try #require(
    try? String(contentsOf: url, encoding: .utf8), "\(name) is missing",
    sourceLocation: sourceLocation)
  if let diff = LineDiff.describe(
    expected: golden, actual: actual, expectedName: name, actualName: "the output")
  {
    Issue.record(
      "the output differs from \(name) (APPSHELL_UPDATE_GOLDENS=1 re-records it):\n\(diff)",
      sourceLocation: sourceLocation)
  }
}
