import JSON
import Routing
import Testing

@testable import Shell

/// The state as JSON, member for member.
@Suite struct StateJSONTests {
  /// The example state of docs/shell.md (order 2015032688 open on Home), without its layout
  /// whitespace.
  static let specExample =
    #"{"tab":0,"#
    + #""tabs":[{"title":"Home","stack":[{"screen":"home","title":"Home","params":{}},"#
    + #"{"screen":"order-detail","title":"Order 2015032688","params":{"orderid":"2015032688"}}]},"#
    + #"{"title":"Orders","stack":[{"screen":"order-list","title":"Orders","params":{}}]},"#
    + #"{"title":"Me","stack":[{"screen":"personal-center","title":"Me","params":{}}]}],"#
    + #""modals":[],"#
    + #""alert":null}"#

  @Test func theSpecExampleIsWrittenExactly() {
    var harness = Harness()
    harness.open("myapp://text/2015032688")
    #expect(harness.state.json.serialized == Self.specExample)
  }

  @Test func initialStateJSON() {
    let harness = Harness()
    #expect(
      harness.state.json.serialized
        == #"{"tab":0,"tabs":[{"title":"Home","stack":[{"screen":"home","title":"Home","params":{}}]},"#
        + #"{"title":"Orders","stack":[{"screen":"order-list","title":"Orders","params":{}}]},"#
        + #"{"title":"Me","stack":[{"screen":"personal-center","title":"Me","params":{}}]}],"#
        + #""modals":[],"alert":null}"#)
  }

  @Test func typedParametersModalsAndAnAlert() throws {
    let home = Screen(name: "home", title: "Home")
    let weighed = Screen(
      name: "settings", title: "Set \"x\"",
      params: ["w": .float(2.5), "n": .int(-3), "z": .float(-0.0), "big": .float(1e21)])
    let files = Screen(
      name: "file-browser", title: "Files",
      params: ["*": .strings(["a", "b/c"]), "e": .strings([])])
    let user = Screen(name: "user-profile", title: "张三", params: ["username": .string("张三")])
    let state = try #require(
      ShellState(
        tabs: [
          Tab(title: "Home", stack: [home, weighed]),
          Tab(title: "Me", root: Screen(name: "personal-center", title: "Me")),
        ],
        selectedTab: 1,
        modals: [Modal(root: user), Modal(stack: [files, home])],
        alert: Alert(title: "No route", message: "No route for x://\ny", buttons: ["OK", "Retry"])))
    let expected =
      #"{"tab":1,"tabs":[{"title":"Home","stack":[{"screen":"home","title":"Home","params":{}},"#
      + #"{"screen":"settings","title":"Set \"x\"","#
      + #""params":{"big":1000000000000000000000,"n":-3,"w":2.5,"z":0}}]},"#
      + #"{"title":"Me","stack":[{"screen":"personal-center","title":"Me","params":{}}]}],"#
      + #""modals":[{"stack":[{"screen":"user-profile","title":"张三","params":{"username":"张三"}}]},"#
      + #"{"stack":[{"screen":"file-browser","title":"Files","params":{"*":["a","b/c"],"e":[]}},"#
      + #"{"screen":"home","title":"Home","params":{}}]}],"#
      + #""alert":{"title":"No route","message":"No route for x://\ny"}}"#
    #expect(state.json.serialized == expected)
  }

  @Test func paramsAreTheRouteParametersAfterRenameTyped() throws {
    var harness = Harness()
    harness.open("myapp://orders/42")
    harness.open("myapp://weigh/8.0")
    harness.open("myapp://files/a/b")
    let stack = try #require(
      harness.state.json["tabs"].flatMap { tabs -> JSON? in
        guard case .array(let items) = tabs else { return nil }
        return items.first?["stack"]
      })
    guard case .array(let screens) = stack else {
      Issue.record("stack is not an array")
      return
    }
    #expect(
      screens.map { $0["params"]?.serialized } == [
        "{}", #"{"orderid":42}"#, #"{"w":8}"#, #"{"*":["a","b"]}"#,
      ])
  }

  @Test func alertIsNullAgainOnceDismissed() {
    var harness = Harness()
    harness.open("myapp://nowhere")
    #expect(
      harness.state.json["alert"]?.serialized.hasPrefix(#"{"title":"No route","message":"#) == true)
    harness.send(.alertDismissed)
    #expect(harness.state.json["alert"] == .null)
  }

  @Test func theTopLevelKeysAreInTheSpecOrder() {
    var harness = Harness()
    harness.open("myapp://modal/user/ann")
    #expect(harness.state.json.keys == ["tab", "tabs", "modals", "alert"])
    #expect(harness.state.modals[0].stack[0].json.keys == ["screen", "title", "params"])
  }
}
