import JSON
import Routing
import Testing

@testable import Shell

/// Data screens (`Screens/*.json`): checked when loaded, made from checked parameters.
@Suite struct ScreenDefinitionTests {
  private func load(_ text: String) throws -> ScreenDefinition {
    try ScreenDefinition(json: try JSON.parse(text))
  }

  /// The `field: problem` text a file is refused with, or nil when it loads.
  private func problem(_ text: String) -> String? {
    do {
      _ = try ScreenDefinition(json: try JSON.parse(text))
      return nil
    } catch let error as ScreenFileError {
      return error.description
    } catch {
      return "not a screen file error: \(error)"
    }
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var file: String
    var field: String
    var problem: String
    var testDescription: String { "\(field): \(problem)" }
  }

  static let refusals: [Refusal] = [
    Refusal(
      file: #"{"name":"s","title":"Hi {{who}}"}"#, field: "title",
      problem: "unknown placeholder {{who}}"),
    Refusal(
      file: #"{"name":"s","title":"T","params":{"a":{}},"body":["ok {{a}}","{{b}}"]}"#,
      field: "body", problem: "unknown placeholder {{b}}"),
    Refusal(
      file: #"{"name":"s","title":"T","body":"line\n{{nope}}"}"#, field: "body line 2",
      problem: "unknown placeholder {{nope}}"),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"label":"{{l}}","url":"x://y"}]}"#,
      field: "links[0].label", problem: "unknown placeholder {{l}}"),
    Refusal(
      file:
        #"{"name":"s","title":"T","links":[{"label":"L","url":"x://y"},{"label":"L","url":"x://{{id}}"}]}"#,
      field: "links[1].url", problem: "unknown placeholder {{id}}"),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"label":"L","result":"{{r}}"}]}"#,
      field: "links[0].result", problem: "unknown placeholder {{r}}"),
    Refusal(
      file: #"{"name":"s","title":"T","colour":"red"}"#, field: "colour", problem: "unknown field"),
    Refusal(
      file: #"{"name":"s","title":"T","params":{"id":{"type":"int","default":1}}}"#,
      field: "params.id.default", problem: "unknown field"),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"label":"L","url":"x://y","target":"_blank"}]}"#,
      field: "links[0].target", problem: "unknown field"),
    Refusal(
      file: #"{"name":"s","title":"T","params":{"id":{"type":"bool"}}}"#, field: "params.id.type",
      problem: "must be"),
    Refusal(
      file: #"{"name":"s","title":"T","params":{"id":{"type":"path"}}}"#, field: "params.id.type",
      problem: "must be"),
    Refusal(
      file: #"{"name":"s","title":"T","params":{"id":{"type":3}}}"#, field: "params.id.type",
      problem: "must be"),
    Refusal(
      file: #"{"name":"s","title":"T","params":{"id":{"required":"yes"}}}"#,
      field: "params.id.required", problem: "must be true or false"),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"label":"L"}]}"#, field: "links[0]",
      problem: "needs a string \"url\""),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"label":"L","url":"x://y","result":"v"}]}"#,
      field: "links[0]", problem: "needs a string \"url\""),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"label":"L","result":"v","resultKey":"k"}]}"#,
      field: "links[0]", problem: "needs a string \"url\""),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"label":"L","url":7}]}"#, field: "links[0]",
      problem: "needs a string \"url\""),
    Refusal(
      file: #"{"name":"s","title":"T","links":[{"url":"x://y"}]}"#, field: "links[0].label",
      problem: "required"),
    Refusal(file: #"{"name":"s","title":"Hi {{who"}"#, field: "title", problem: "unclosed '{{'"),
    Refusal(file: #"{"name":"s","title":"Hi {{ }}"}"#, field: "title", problem: "empty '{{}}'"),
    Refusal(
      file: #"{"name":"s","title":"T","body":[1]}"#, field: "body[0]", problem: "must be a string"),
    Refusal(file: #"{"name":"s","title":"T","body":7}"#, field: "body", problem: "must be"),
    Refusal(file: #"{"title":"T"}"#, field: "name", problem: "required"),
    Refusal(file: #"{"name":"","title":"T"}"#, field: "name", problem: "required"),
    Refusal(file: #"{"name":"s"}"#, field: "title", problem: "required"),
    Refusal(
      file: #"{"name":"s","title":"T","links":{}}"#, field: "links", problem: "must be an array"),
    Refusal(file: #"{"name":"s","title":"T","params":[]}"#, field: "params", problem: "must be"),
  ]

  @Test(arguments: refusals)
  func badScreenFileIsRefusedWithFieldAndProblem(_ refusal: Refusal) throws {
    let message = try #require(problem(refusal.file), "\(refusal.file) should be refused")
    #expect(message.hasPrefix(refusal.field + ": ") || message.hasPrefix(refusal.field + " "))
    #expect(message.contains(refusal.problem), "\(message)")
  }

  @Test func notAnObjectIsRefused() {
    #expect(problem("[]") != nil)
    #expect(problem(#""screen""#) != nil)
  }

  @Test func placeholdersAreFilledAndURLValuesEncoded() throws {
    let definition = try load(
      #"{"name":"s","title":"{{ who }} #{{n}}","#
        + #""params":{"who":{"type":"string","required":true},"n":{"type":"int"}},"#
        + #""body":["Hello {{who}}","n={{n}}"],"#
        + #""links":[{"label":"See {{who}}","url":"x://user/{{who}}?n={{n}}"},"#
        + #"{"label":"Pick","url":"x://pick","resultKey":"choice"},{"label":"Done","result":"{{who}}!"}]}"#
    )
    let screen = definition.make(params: ["who": .string("a b/é"), "n": .int(3)], url: "x://s")
    #expect(screen.title == "a b/é #3")
    #expect(screen.body == ["Hello a b/é", "n=3"])
    #expect(
      screen.links == [
        Link("See a b/é", .open("x://user/a%20b%2F%C3%A9?n=3")),
        Link("Pick", .openForResult("x://pick", key: "choice")),
        Link("Done", .finish("a b/é!")),
      ])
    #expect(screen.url == "x://s")
    #expect(screen.params == ["who": .string("a b/é"), "n": .int(3)])
  }

  @Test func anAbsentOptionalParameterRendersEmpty() throws {
    let definition = try load(
      #"{"name":"s","title":"Q: {{q}}.","params":{"q":{}},"body":"a\nb {{q}}"}"#)
    let screen = definition.make(params: [:], url: nil)
    #expect(screen.title == "Q: .")
    #expect(screen.body == ["a", "b "])
  }

  @Test func valuesAreNotExpandedAgain() throws {
    let definition = try load(#"{"name":"s","title":"{{a}}","params":{"a":{},"b":{}}}"#)
    let screen = definition.make(params: ["a": .string("{{b}}"), "b": .string("no")], url: nil)
    #expect(screen.title == "{{b}}")
  }

  @Test func declarationsAreRead() throws {
    let definition = try load(
      #"{"name":"s","title":"T","params":{"a":{"type":"int","required":true},"b":{"type":"uuid"},"c":{}}}"#
    )
    #expect(definition.params["a"] == ParameterSpec(type: .int, required: true))
    #expect(definition.params["b"] == ParameterSpec(type: .uuid, required: false))
    #expect(definition.params["c"] == ParameterSpec(type: .string, required: false))
  }
}

/// The catalog checks parameters against the declaration before making a screen.
@Suite struct ScreenCatalogTests {
  private func catalog() -> ScreenCatalog {
    var catalog = ScreenCatalog()
    catalog.register(
      try! ScreenDefinition(
        json: try! JSON.parse(
          #"{"name":"typed","title":"T","params":{"i":{"type":"int","required":true},"#
            + #""f":{"type":"float"},"u":{"type":"uuid"},"s":{"type":"string"}}}"#)))
    return catalog
  }

  private func make(_ params: Parameters) -> Result<Screen, ScreenProblem> {
    let table = try! RouteTable(json: #"{"routes":[]}"#)
    return catalog().make("typed", params: params, url: nil, session: Session(), table: table)
  }

  @Test func unknownScreen() throws {
    let table = try RouteTable(json: #"{"routes":[]}"#)
    let made = catalog().make("nope", params: [:], url: nil, session: Session(), table: table)
    #expect(made == .failure(.unknownScreen("nope")))
  }

  @Test func missingRequiredParameter() {
    #expect(make(["f": .float(1)]) == .failure(.missingParameter(screen: "typed", name: "i")))
  }

  @Test(arguments: [
    ParamValue.int(3), .string("3"), .string("-12"), .string("0"),
  ])
  func intAcceptsAnIntCaptureOrADecimalString(value: ParamValue) throws {
    let screen = try make(["i": value]).get()
    #expect(screen.params["i"] == value)
  }

  @Test(arguments: [
    ParamValue.string("3.0"), .string("x"), .string(""), .string("99999999999999999999"), .float(3),
    .strings(["3"]),
  ])
  func intRefusesAnythingElse(value: ParamValue) {
    guard
      case .failure(.invalidParameter(let screen, let name, let expected, _)) = make(["i": value])
    else {
      Issue.record("\(value) should be refused")
      return
    }
    #expect(screen == "typed")
    #expect(name == "i")
    #expect(expected == .int)
  }

  @Test func floatAcceptsIntsAndDecimalStrings() {
    #expect((try? make(["i": .int(1), "f": .int(2)]).get()) != nil)
    #expect((try? make(["i": .int(1), "f": .string("2.5")]).get()) != nil)
    #expect((try? make(["i": .int(1), "f": .string("two")]).get()) == nil)
  }

  @Test func uuidIsChecked() {
    #expect(
      (try? make(["i": .int(1), "u": .string("123E4567-E89B-12D3-A456-426614174000")]).get()) != nil
    )
    #expect((try? make(["i": .int(1), "u": .string("123E4567")]).get()) == nil)
  }

  @Test func stringAcceptsAnything() {
    #expect((try? make(["i": .int(1), "s": .int(5)]).get()) != nil)
    #expect((try? make(["i": .int(1), "s": .strings(["a"])]).get()) != nil)
  }
}
