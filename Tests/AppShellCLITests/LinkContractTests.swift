import Demo
import Foundation
import Testing

@testable import AppRuntime
@testable import AppShellCLI
@testable import Shell

/// Link contracts: each `expect` member holds or says what it expected and what it found; a
/// contract that cannot be used says where.
@Suite struct LinkContractTests {
  static let app = {
    DemoApp.register()
    return try! AppLoader.loadApp(screens: GoldenScripts.screens, routes: nil)
  }()

  /// The problems of one case, written as a contract's case.
  static func problems(_ caseJSON: String) throws -> [String] {
    let contract = try LinkContract(text: #"{"cases":["# + caseJSON + "]}", file: "c.links.json")
    return LinkContract.run(try #require(contract.cases.first), app: app)
  }

  static func error(_ text: String) -> String? {
    do {
      _ = try LinkContract(text: text, file: "c.links.json")
      return nil
    } catch {
      return error.description
    }
  }

  /// For each member: a case where it holds, and one where it does not with its message.
  @Test(arguments: [
    (
      "screen", #"{"url":"myapp://orders/42","expect":{"screen":"order-detail"}}"#,
      #"{"url":"myapp://orders/42","expect":{"screen":"order-list"}}"#,
      #"screen: expected "order-list", found "order-detail""#
    ),
    (
      "title", #"{"url":"myapp://orders/42","expect":{"title":"Order 42"}}"#,
      #"{"url":"myapp://orders/42","expect":{"title":"Order 43"}}"#,
      #"title: expected "Order 43", found "Order 42""#
    ),
    (
      "params", #"{"url":"myapp://orders/42","expect":{"params":{"orderid":42.0}}}"#,
      #"{"url":"myapp://orders/42","expect":{"params":{"orderid":43,"nope":"x"}}}"#,
      #"params: expected {"orderid":43,"nope":"x"}, found {"orderid":42,"nope":null}"#
    ),
    (
      "tab", #"{"url":"myapp://orders/42","expect":{"tab":"Home"}}"#,
      #"{"url":"myapp://orders/42","expect":{"tab":"Orders"}}"#,
      #"tab: expected "Orders", found "Home""#
    ),
    (
      "stack",
      #"{"url":"myapp://orders/42","from":"cold","expect":{"stack":["order-list","order-detail"],"tab":"Orders"}}"#,
      #"{"url":"myapp://orders/42","expect":{"stack":["order-list","order-detail"]}}"#,
      #"stack: expected ["order-list","order-detail"], found ["home","order-detail"]"#
    ),
    (
      "presentation",
      #"{"url":"navigator://modal/user/alice","expect":{"presentation":"present"}}"#,
      #"{"url":"myapp://orders/42","expect":{"presentation":"present"}}"#,
      #"presentation: expected "present", found "push""#
    ),
    (
      "alert", #"{"url":"myapp://nope","expect":{"alert":"No route"}}"#,
      #"{"url":"myapp://orders/42","expect":{"alert":"No route"}}"#,
      #"alert: expected "No route", found null"#
    ),
    (
      "alert", #"{"url":"myapp://orders/42","expect":{"alert":null}}"#,
      #"{"url":"myapp://nope","expect":{"alert":null}}"#,
      #"alert: expected null, found "No route""#
    ),
    (
      "matched", #"{"url":"myapp://nope","expect":{"matched":false}}"#,
      #"{"url":"myapp://nope","expect":{"matched":true}}"#,
      "matched: expected true, found false"
    ),
    (
      "refused", #"{"url":"myapp://debug/reset","from":"outside","expect":{"refused":true}}"#,
      #"{"url":"myapp://debug/reset","expect":{"refused":true}}"#,
      "refused: expected true, found false"
    ),
    (
      "action",
      #"{"url":"myapp://lookup/order/A1","expect":{"action":"lookup-order","screen":"order-detail"}}"#,
      #"{"url":"XYWAPP://pkdetail/like?id=7","expect":{"action":"lookup-order"}}"#,
      #"action: expected "lookup-order", found "like""#
    ),
    (
      "notification",
      #"{"url":"ccfurlresponder://animal/cat/4.5","expect":{"notification":"CCFAnimalNotification"}}"#,
      #"{"url":"ccfurlresponder://animal/cat/4.5","expect":{"notification":"Other"}}"#,
      #"notification: expected "Other", found ["CCFAnimalNotification"]"#
    ),
    (
      "status",
      #"{"url":"XYWAPP://pkdetail/like?id=7","expect":{"status":"Liked pk 7 (1 like)"}}"#,
      #"{"url":"myapp://orders/42","expect":{"status":"Opened"}}"#,
      #"status: expected "Opened", found "Opened Order 42""#
    ),
    (
      "redirects", #"{"url":"myapp://old-orders/7","expect":{"redirects":["myapp://orders/7"]}}"#,
      #"{"url":"myapp://orders/7","expect":{"redirects":["myapp://orders/7"]}}"#,
      #"redirects: expected ["myapp://orders/7"], found []"#
    ),
    (
      "opens",
      #"{"url":"https://appshell.example.com/help","from":"outside","expect":{"opens":"safari"}}"#,
      #"{"url":"myapp://orders/7","from":"outside","expect":{"opens":"nothing"}}"#,
      #"opens: expected "nothing", found "app""#
    ),
  ])
  func eachMemberHoldsOrSaysWhatItFound(
    member: String, passing: String, failing: String, message: String
  ) throws {
    #expect(try Self.problems(passing) == [], "\(member)")
    #expect(try Self.problems(failing) == [message], "\(member)")
  }

  @Test func anUnfinishedActionDoesNotHold() throws {
    // The lookup of a code without digits ends in an alert after 1.5 s: it has finished.
    #expect(
      try Self.problems(
        #"{"url":"myapp://lookup/order/zz","expect":{"action":"lookup-order","alert":"Not found"}}"#
      ) == [])
  }

  @Test(arguments: [
    ("{", "c.links.json:1:2: unexpected end of input; expected a string key or '}'"),
    ("[]", "c.links.json:1:1: a link contract is an object with \"cases\""),
    (
      #"{"cases":[],"x":1}"#,
      #"c.links.json:1:13: x: unknown member (a link contract has only "cases")"#
    ),
    ("{}", #"c.links.json:1:1: a link contract needs "cases": an array of cases"#),
    (#"{"cases":[1]}"#, "c.links.json:1:11: cases[0] must be an object"),
    (
      "{\"cases\":[\n {\"url\":\"a://b\",\"expect\":{}},\n {\"url\":\"a://b\",\"expext\":{}}]}",
      #"c.links.json:3:17: cases[1].expext: unknown member; did you mean "expect"? (a case has url, from and expect)"#
    ),
    (#"{"cases":[{"expect":{}}]}"#, "c.links.json:1:11: cases[0].url must be a string"),
    (
      #"{"cases":[{"url":"a://b","from":"inbox","expect":{}}]}"#,
      #"c.links.json:1:26: cases[0].from is "inside", "outside" or "cold""#
    ),
    (#"{"cases":[{"url":"a://b"}]}"#, "c.links.json:1:11: cases[0].expect must be an object"),
    (
      #"{"cases":[{"url":"a://b","expect":{"screen":1}}]}"#,
      "c.links.json:1:36: cases[0].expect.screen must be a string"
    ),
    (
      #"{"cases":[{"url":"a://b","expect":{"presentation":"modal"}}]}"#,
      #"c.links.json:1:36: cases[0].expect.presentation is "push" or "present""#
    ),
    (
      #"{"cases":[{"url":"a://b","expect":{"opens":"browser"}}]}"#,
      #"c.links.json:1:36: cases[0].expect.opens is "app", "safari" or "nothing""#
    ),
    (
      #"{"cases":[{"url":"a://b","expect":{"stack":["a",1]}}]}"#,
      "c.links.json:1:36: cases[0].expect.stack must be an array of strings"
    ),
    (
      #"{"cases":[{"url":"a://b","expect":{"matched":"yes"}}]}"#,
      "c.links.json:1:36: cases[0].expect.matched must be true or false"
    ),
    (
      #"{"cases":[{"url":"a://b","expect":{"alert":false}}]}"#,
      "c.links.json:1:36: cases[0].expect.alert must be a string or null"
    ),
    (
      #"{"cases":[{"url":"a://b","expect":{"params":[]}}]}"#,
      "c.links.json:1:36: cases[0].expect.params must be an object"
    ),
    (
      #"{"cases":[{"url":"a://b","expect":{"screens":"x"}}]}"#,
      #"c.links.json:1:36: cases[0].expect.screens: unknown member; did you mean "screen"? (expect has screen, title, params, tab, stack, presentation, alert, matched, refused, action, notification, status, redirects, opens)"#
    ),
    // The member checked is found among the members of its own object, not nested ones.
    (
      "{\"cases\":[{\"url\":\"a\",\"expect\":{\"params\":{\"screen\":\"x\"},\n \"screen\":5}}]}",
      "c.links.json:2:2: cases[0].expect.screen must be a string"
    ),
    (
      #"{"cases":[{"url":"a","expect":{}},{"expect":{"params":{"url":"x"}},"url":5}]}"#,
      "c.links.json:1:68: cases[1].url must be a string"
    ),
    (
      #"{"cases":[{"url":"a\"url\":","expect":{}},{"url":"b","expect":{"tab":1}}]}"#,
      "c.links.json:1:64: cases[1].expect.tab must be a string"
    ),
  ])
  func anUnusableContractSaysWhere(text: String, message: String) {
    #expect(Self.error(text) == message)
  }

  /// `opens` is the app's delivery decision for a URL from outside (`outside` and `cold`); from
  /// inside the app every URL opens the app.
  @Test func opensFollowsWhereTheURLComesFrom() throws {
    for item in [
      #"{"url":"nope://x","expect":{"opens":"app"}}"#,
      #"{"url":"nope://x","from":"outside","expect":{"opens":"nothing"}}"#,
      #"{"url":"nope://x","from":"cold","expect":{"opens":"nothing"}}"#,
      #"{"url":"http://appshell.example.com/orders/1","from":"cold","expect":{"opens":"safari"}}"#,
    ] {
      #expect(try Self.problems(item) == [], "\(item)")
    }
  }
}
