import AppShellKit
import Foundation
import TestSupport
import Testing

/// A small app with a Swift screen, a Swift action and a Swift guard, driven headless.
@Suite struct HeadlessSessionTests {
  static let files: [String: String] = [
    "app.json": #"""
    {"name":"Kit","version":"1.0","tabs":[{"title":"Shop","root":"kit://shop"},{"title":"Cart","root":"kit://cart"}],
     "flags":{"cartCount":0,"member":false},
     "actions":{"join":{"set":{"member":true},"status":"Welcome","then":"dismiss"}}}
    """#,
    "routes.json": #"""
    {"routes":[
      {"pattern":"kit://shop","screen":"shop"},
      {"pattern":"kit://cart","screen":"cart"},
      {"pattern":"kit://products/<int:id>","screen":"product","parent":"kit://shop"},
      {"pattern":"kit://cart/add/<int:id>","action":"add"},
      {"pattern":"kit://members","screen":"cart","guard":"member"},
      {"pattern":"kit://join","screen":"join","presentation":"present"},
      {"pattern":"kit://join/now","action":"join"},
      {"pattern":"kit://secret","screen":"cart","external":false},
      {"pattern":"kit://ping/<int:n>","notification":"Ping"},
      {"pattern":"kit://sizes","screen":"sizes","presentation":"present"}
    ]}
    """#,
    "shop.json":
      #"{"name":"shop","title":"Shop","links":[{"label":"Product 7","url":"kit://products/7"}]}"#,
    "cart.json": #"{"name":"cart","title":"Cart","body":["{{flags.cartCount}} items"]}"#,
    "sizes.json": #"{"name":"sizes","title":"Size","links":[{"label":"Large","result":"L"}]}"#,
    "join.json":
      #"{"name":"join","title":"Join","links":[{"label":"Join now","url":"kit://join/now"}]}"#,
  ]

  static var setup: AppSetup {
    var setup = AppSetup()
    setup.screen(
      "product",
      params: ["id": ScreenParameter(.int), "size": ScreenParameter(.string, required: false)],
      live: true
    ) { input in
      ScreenContent(
        title: "Product \(input.params["id"]!)",
        body: [
          "In the cart: \(input.flags["cartCount"]!)",
          "Size: \(input.params["size"] ?? "-")",
          "Pings: \(input.notifications.map { "\($0.name) \($0.info["n"] ?? "")" })",
        ],
        links: [
          .open("Add to cart", "kit://cart/add/\(input.params["id"]!)"),
          .openForResult("Choose a size", "kit://sizes", key: "size"),
        ])
    }
    setup.action("add") { context in
      guard case .int(let count)? = context.flags["cartCount"] else { return .status("?") }
      context.flags["cartCount"] = .int(count + 1)
      return .later(seconds: 1, working: "Adding", .status("Added \(context.params["id"]!)"))
    }
    setup.guard("member", opens: "kit://join") { $0["member"] == .bool(true) }
    return setup
  }

  static func withApp(files: [String: String] = files, _ body: (String) throws -> Void) throws {
    try TemporaryDirectory.with("appshellkit") { directory in
      for (name, text) in files {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
      }
      try body(directory.path)
    }
  }

  @Test func aSwiftScreenActionAndGuardWorkHeadless() throws {
    try Self.withApp { directory in
      var session = try HeadlessSession(directory: directory, setup: Self.setup)
      #expect(session.topScreen.name == "shop")
      session.open("kit://products/7", from: .outside)
      #expect(
        session.topScreen == TopScreen(name: "product", title: "Product 7", params: ["id": "7"]))
      try session.press("<Down><Enter>")
      #expect(session.status == "Adding… (Esc cancels)")
      session.wait(seconds: 1)
      #expect(session.status == "Added 7")
      #expect(session.flags["cartCount"] == .int(1))
      #expect(session.screenText().contains("In the cart: 1"))
      session.open("kit://members")
      #expect(session.topScreen.name == "join")
      try session.press("<Down><Enter>")
      #expect(session.topScreen.name == "cart")
      #expect(session.stateJSON.hasSuffix(#""flags":{"cartCount":1,"member":true}}"#))
      #expect(session.log.first == "external kit://products/7 -> pushed product")
    }
  }

  @Test func anActionThatFinishesLaterChangesTheFlagsOnlyIfItFinishes() throws {
    try Self.withApp { directory in
      var session = try HeadlessSession(directory: directory, setup: Self.setup)
      session.open("kit://products/7", from: .outside)
      try session.press("<Down><Enter>")
      #expect(session.status == "Adding… (Esc cancels)")
      #expect(session.flags["cartCount"] == .int(0))
      try session.press("<Esc>")
      session.wait(seconds: 2)
      #expect(session.flags["cartCount"] == .int(0))
      #expect(session.screenText().contains("In the cart: 0"))
      try session.press("<Enter>")
      session.wait(seconds: 1)
      #expect(session.flags["cartCount"] == .int(1))
      #expect(session.screenText().contains("In the cart: 1"))
    }
  }

  @Test func aSwiftScreenIsUpdatedByResultsAndNotifications() throws {
    try Self.withApp { directory in
      var session = try HeadlessSession(directory: directory, setup: Self.setup)
      session.open("kit://products/2")
      try session.press("<Down><Down><Enter>")
      #expect(session.topScreen.name == "sizes")
      try session.press("<Down><Enter>")
      #expect(session.topScreen.params == ["id": "2", "size": "L"])
      session.open("kit://ping/5")
      #expect(session.screenText().contains(#"Pings: ["Ping 5"]"#))
    }
  }

  @Test func coldStartsAndOutsideURLsFollowTheTable() throws {
    try Self.withApp { directory in
      var session = try HeadlessSession(directory: directory, setup: Self.setup)
      session.open("kit://products/3", from: .cold)
      #expect(session.topScreen.title == "Product 3")
      session.open("kit://secret", from: .outside)
      #expect(session.alert?.title == "Refused")
    }
  }

  @Test func anAppWithoutItsSwiftPartsIsRefusedOrAsksToUpgrade() throws {
    try Self.withApp { directory in
      #expect(throws: AppShellError.self) { _ = try HeadlessSession(directory: directory) }
      #expect(throws: AppShellError.self) {
        _ = try HeadlessSession(directory: directory + "/none", setup: Self.setup)
      }
    }
  }
}
