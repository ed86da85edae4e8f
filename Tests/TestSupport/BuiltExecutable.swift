import Foundation

/// The path of the built executable `name` (`appshell`, `appshell-routegen`): next to the test
/// bundle, else in the package's `.build/debug`; nil when neither is there (run `swift build`
/// first).
package func builtExecutable(_ name: String) -> String? {
  var candidates: [String] = []
  if let bundle = Bundle.main.executableURL {
    candidates.append(bundle.deletingLastPathComponent().appendingPathComponent(name).path)
  }
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  candidates.append(root.appendingPathComponent(".build/debug/" + name).path)
  return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}
