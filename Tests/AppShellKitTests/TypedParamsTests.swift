import AppShellKit
import Testing

/// Swift screens and actions read declared parameters with their types.
@Suite struct TypedParamsTests {
  static var setup: AppSetup {
    var setup = HeadlessSessionTests.setup
    setup.screen("typed", params: ["n": ScreenParameter(.int), "x": ScreenParameter(.float)]) {
      input in
      let n: Int? = input.typed.int("n")
      let x: Double? = input.typed.double("x")
      let tail: [String]? = input.typed.strings("*")
      return ScreenContent(
        title: "Typed",
        body: [
          "n+1=\((n ?? 0) + 1)", "x*2=\((x ?? 0) * 2)", "rest=\(tail ?? [])",
          "text=\(input.typed.string("n") ?? "-")",
        ])
    }
    setup.action("double") { context in
      .status("doubled \((context.typed.int("id") ?? 0) * 2)")
    }
    return setup
  }

  @Test func intFloatAndListParametersArriveTyped() throws {
    var files = HeadlessSessionTests.files
    files["routes.json"] = files["routes.json"]!.replacing(
      #"{"routes":["#,
      with: #"""
        {"routes":[
          {"pattern":"kit://typed/<int:n>/<float:x>/*","screen":"typed"},
          {"pattern":"kit://double/<int:id>","action":"double"},
        """#)
    try HeadlessSessionTests.withApp(files: files) { directory in
      var session = try HeadlessSession(directory: directory, setup: Self.setup)
      session.open("kit://typed/41/1.25/a/b")
      let text = session.screenText()
      #expect(text.contains("n+1=42"), "\(text)")
      #expect(text.contains("x*2=2.5"), "\(text)")
      #expect(text.contains(#"rest=["a", "b"]"#), "\(text)")
      #expect(text.contains("text=41"), "\(text)")
      session.open("kit://double/21")
      #expect(session.status == "doubled 42")
    }
  }
}
