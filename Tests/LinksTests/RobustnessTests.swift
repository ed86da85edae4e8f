import TestSupport
import Testing

@testable import Links

/// The matcher against a plain backtracking reading of `*` and `?`, and damaged files that
/// must be refused, never crash.
@Suite struct RobustnessTests {
  /// `*` any run, `?` one character, the rest itself; the whole text.
  static func reference(_ pattern: [Character], _ text: [Character]) -> Bool {
    guard let first = pattern.first else { return text.isEmpty }
    switch first {
    case "*":
      return (0...text.count).contains {
        reference(Array(pattern.dropFirst()), Array(text.dropFirst($0)))
      }
    case "?":
      return !text.isEmpty && reference(Array(pattern.dropFirst()), Array(text.dropFirst()))
    default:
      return text.first == first && reference(Array(pattern.dropFirst()), Array(text.dropFirst()))
    }
  }

  @Test func matcherAgreesWithBacktrackingOnRandomPatterns() throws {
    var generator = SeededGenerator(seed: 2026)
    for _ in 0..<3000 {
      let pattern = String(
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in
          "ab/*?".randomElement(using: &generator)!
        })
      let text = String(
        (0..<Int.random(in: 0...7, using: &generator)).map { _ in
          "ab/".randomElement(using: &generator)!
        })
      let compiled = try AASAPattern(pattern, options: AASAPattern.Options(), variables: [:])
      #expect(
        compiled.matches(text, options: AASAPattern.Options())
          == Self.reference(Array(pattern), Array(text)), "\(pattern) vs \(text)")
    }
  }

  @Test func variablesWithWildcardsAgreeWithTheirExpansion() throws {
    let variables = ["v": ["a*", "?b", "ab"]]
    var generator = SeededGenerator(seed: 7)
    for _ in 0..<500 {
      let text = String(
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in
          "ab".randomElement(using: &generator)!
        })
      let compiled = try AASAPattern(
        "x$(v)*y", options: AASAPattern.Options(), variables: variables)
      let expected = variables["v"]!.contains {
        Self.reference(Array("x\($0)*y"), Array("x" + text + "y"))
      }
      #expect(
        compiled.matches("x" + text + "y", options: AASAPattern.Options()) == expected, "\(text)")
    }
  }

  @Test func damagedXMLAndAASAAreRefusedNeverCrash() {
    let xml = Array(PropertyListTests.xmlInfoPlist.utf8)
    for length in stride(from: 0, to: xml.count, by: 3) {
      _ = try? PropertyList.read(Array(xml.prefix(length)))
    }
    for index in stride(from: 0, to: xml.count, by: 5) {
      for value in Array("<>/&;\"x\u{0}".utf8) {
        var bytes = xml
        bytes[index] = value
        _ = try? PropertyList.read(bytes)
      }
    }
    let aasa = Array(AASAMatchingTests.appleExample.utf8)
    for index in aasa.indices {
      for value in Array("{}[]\":,$(*?x".utf8) {
        var bytes = aasa
        bytes[index] = value
        _ = try? AASADocument(bytes: bytes)
      }
    }
  }
}
