import Testing

@testable import Replay

/// The diff `appshell replay --expect` prints: hunks of changed lines with two lines of
/// context, headed with line numbers and the snapshot.
@Suite struct LineDiffTests {
  @Test func equalTextsHaveNoDiff() {
    #expect(
      LineDiff.describe(expected: "a\nb\n", actual: "a\nb\n", expectedName: "g", actualName: "r")
        == nil)
  }

  @Test func aChangedLineShowsWithContextAndItsSnapshot() {
    let expected = "=== snapshot 1 ===\nA\nB\nC\nD\nE\nF\n"
    let actual = "=== snapshot 1 ===\nA\nB\nC\nX\nE\nF\n"
    let diff = LineDiff.describe(
      expected: expected, actual: actual, expectedName: "g", actualName: "r")
    #expect(
      diff == """
        --- g
        +++ r
        @@ line 3 of expected, line 3 of actual, in snapshot 1 @@
          B
          C
        - D
        + X
          E
          F

        """)
  }

  @Test func farApartChangesMakeSeparateHunks() {
    let expected = (1...20).map { "line \($0)\n" }.joined()
    var lines = (1...20).map { "line \($0)" }
    lines[1] = "two"
    lines[17] = "eighteen"
    let actual = lines.map { $0 + "\n" }.joined()
    let diff =
      LineDiff.describe(expected: expected, actual: actual, expectedName: "g", actualName: "r")
      ?? ""
    #expect(diff.components(separatedBy: "@@ line").count == 3)
    #expect(diff.contains("- line 2\n+ two\n"))
    #expect(diff.contains("- line 18\n+ eighteen\n"))
    #expect(!diff.contains("line 10"))
  }

  @Test func insertedAndRemovedLinesAlign() {
    let diff =
      LineDiff.describe(
        expected: "a\nb\nc\n", actual: "a\nnew\nb\n", expectedName: "g", actualName: "r") ?? ""
    #expect(diff.contains("  a\n+ new\n  b\n- c\n"))
  }

  @Test func aMissingFinalLineBreakIsSaid() {
    let diff = LineDiff.describe(expected: "a\n", actual: "a", expectedName: "g", actualName: "r")
    #expect(diff?.contains("no line break at the end") == true)
  }

  @Test func controlCharactersInAGoldenAreShownInert() {
    let diff =
      LineDiff.describe(
        expected: "\u{1b}[2Jx\n", actual: "y\n", expectedName: "g", actualName: "r") ?? ""
    #expect(diff.contains("- \\x1b[2Jx\n"))
    #expect(!diff.unicodeScalars.contains { $0.value == 0x1B })
  }

  // `==` on Strings calls canonically equivalent text equal, and a CRLF golden must not read
  // as one long line: the diff compares bytes.
  @Test func textIsComparedByteForByte() {
    let diff = LineDiff.describe(
      expected: "caf\u{E9}\n", actual: "cafe\u{301}\n", expectedName: "g", actualName: "r")
    #expect(diff != nil)
    let crlf =
      LineDiff.describe(
        expected: "a\r\nb\r\nc\r\n", actual: "a\nb\nc\n", expectedName: "g", actualName: "r") ?? ""
    #expect(crlf.contains("- a\\x0d\n") && crlf.contains("+ a\n"))
  }
}
