import Foundation
import Testing

/// `docs/architecture.md` has one module-map row per target of `Package.swift`.
@Suite struct ArchitectureDocTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The names of every target `Package.swift` declares: `.target`, `.executableTarget`,
  /// `.systemLibrary` and `.testTarget`, and the fuzz targets of its `fuzzTargets` list.
  static func targets(in manifest: String) -> [String] {
    let declared = /\.(?:target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)"/
    let fuzz = /\("(fuzz-[a-z]+)",/
    return manifest.matches(of: declared).map { String($0.1) }
      + manifest.matches(of: fuzz).map { String($0.1) }
  }

  @Test func everyTargetHasARowInTheModuleMap() throws {
    let manifest = try String(
      contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
    let page = try String(
      contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let targets = Self.targets(in: manifest)
    #expect(targets.count >= 20, "read only \(targets) from Package.swift")
    #expect(targets.contains("Routing") && targets.contains("fuzz-render"))
    let rows = Set(
      page.split(separator: "\n").compactMap { line -> String? in
        guard let match = line.firstMatch(of: /^\| `([^`]+)` \|/) else { return nil }
        return String(match.1)
      })
    for target in targets {
      #expect(
        rows.contains(target),
        "docs/architecture.md: the module map has no row `| `\(target)` | ... |`")
    }
  }

  @Test func aMissingTargetIsNoticed() {
    let manifest = #".target(name: "Routing"), .testTarget(name: "New", dependencies: [])"#
    #expect(Self.targets(in: manifest) == ["Routing", "New"])
  }
}
