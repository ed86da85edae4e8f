import Foundation

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when dropped.
package final class TemporaryDirectory {
  /// The directory.
  package let url: URL

  /// Its path.
  package var path: String { url.path }

  /// Makes `LABEL-XXXXXXXX` (eight random hex digits) under the temporary directory.
  package init(_ label: String = "appshell-test") throws {
    let unique = UUID().uuidString.prefix(8).lowercased()
    url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(unique)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// Runs `body` with a fresh `LABEL-XXXXXXXX` directory, removed after it.
  package static func with<T>(_ label: String = "appshell-test", _ body: (URL) throws -> T)
    throws -> T
  {
    let directory = try TemporaryDirectory(label)
    return try withExtendedLifetime(directory) { try body(directory.url) }
  }
}
