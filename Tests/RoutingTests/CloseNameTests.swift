import JSON
import Testing

@testable import Routing

/// The close name behind every "did you mean", and where a member is written in a file.
@Suite struct CloseNameTests {
  @Test(
    arguments: [
      ("sreen", ["pattern", "screen", "action"], "screen"),
      ("cupon", ["coupon", "cart"], "coupon"),
      ("<enter>", ["<Enter>", "<Esc>"], "<Enter>"),
      ("Entr", ["Enter", "Esc"], "Enter"),
      ("--screenz", ["--screens", "--size"], "--screens"),
      ("scerens", ["screens"], "screens"),
    ])
  func aCloseNameIsFound(name: String, known: [String], expected: String) {
    #expect(CloseName.closest(to: name, in: known) == expected)
  }

  @Test func aFarNameHasNone() {
    #expect(CloseName.closest(to: "banana", in: ["screen", "pattern"]) == nil)
    #expect(CloseName.closest(to: "x", in: ["screen"]) == nil)
    #expect(CloseName.hint(for: "zz", in: []) == "")
  }

  @Test func membersArePlacedWhereTheirKeysAreWritten() throws {
    let text = """
      {"routes": [
        {"pattern": "a://b", "screen": "x"},
        {"pattern": "a://c",
         "sreen": "y"}
      ], "a b": {"?": [1, 2]}}
      """
    let located = try JSON.parseLocated(Array(text.utf8))
    #expect(located.position(of: "routes[1].sreen") == (4, 4))
    #expect(located.position(of: "routes[0]") == (2, 3))
    #expect(located.position(of: "routes[0].nope") == (2, 3))
    #expect(located.position(of: #""a b"."?"[1]"#) == (5, 21))
    #expect(located.position(of: "nothing") == (1, 1))
    #expect(
      located.located("routes[1].sreen: unknown field", file: "t.json")
        == "t.json:4:4: routes[1].sreen: unknown field")
    #expect(
      located.located("routes[0] conflicts with routes[1]", file: "t.json")
        == "t.json:2:3: routes[0] conflicts with routes[1]")
  }
}
