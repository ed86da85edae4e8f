import Foundation
import Testing

@testable import Routing

/// The seeds' own URLs resolved through the shipped `Screens/routes.json`.
@Suite struct SeedURLTests {

  struct Seed: Sendable, CustomTestStringConvertible {
    var url: String
    var pattern: String
    var target: RouteTarget
    var params: Parameters
    var testDescription: String { url }
  }

  private static let seeds: [Seed] = [
    Seed(
      url: "navigateApp://action?navigationKey=personalcenter",
      pattern: "navigateApp://action?navigationKey=personalcenter",
      target: .screen("personal-center"), params: ["navigationKey": .string("personalcenter")]),
    Seed(
      url: "navigateApp://action?navigationKey=orderdetail&orderid=2015032688",
      pattern: "navigateApp://action?navigationKey=orderdetail&orderid=:orderid",
      target: .screen("order-detail"),
      params: ["navigationKey": .string("orderdetail"), "orderid": .string("2015032688")]),
    Seed(
      url: "navigator://user/zhangsan", pattern: "navigator://user/<username>",
      target: .screen("user-profile"), params: ["username": .string("zhangsan")]),
    Seed(
      url: "XYWAPP://pkdetail/like?id=123", pattern: "XYWAPP://pkdetail/like?id=<int:id>",
      target: .action("like"), params: ["id": .int(123)]),
    Seed(
      url: "ccfurlresponder://animal/platypus/8.0",
      pattern:
        "ccfurlresponder://animal/:CCFAnimal/<float:CCFAverageWeight>(/<int:CCFAverageLifeExpectancy>)",
      target: .notification("CCFAnimalNotification"),
      params: ["CCFAnimal": .string("platypus"), "CCFAverageWeight": .float(8.0)]),
    Seed(
      url: "ccfurlresponder://animal/platypus/8.0/17",
      pattern:
        "ccfurlresponder://animal/:CCFAnimal/<float:CCFAverageWeight>(/<int:CCFAverageLifeExpectancy>)",
      target: .notification("CCFAnimalNotification"),
      params: [
        "CCFAnimal": .string("platypus"), "CCFAverageWeight": .float(8.0),
        "CCFAverageLifeExpectancy": .int(17),
      ]),
    Seed(
      url: "ccfurlresponder://Pure%20red/1.0/0.0/0.0",
      pattern:
        "ccfurlresponder://:MyColorNameKey/<float:MyRedKey>/<float:MyGreenKey>/<float:MyBlueKey>",
      target: .notification("CCFColorNotification"),
      params: [
        "MyColorNameKey": .string("Pure red"), "MyRedKey": .float(1.0), "MyGreenKey": .float(0),
        "MyBlueKey": .float(0),
      ]),
    Seed(
      url: "JLRoutesThree://post/123", pattern: "JLRoutesThree://:object/:primaryKey",
      target: .screen("object-detail"),
      params: ["object": .string("post"), "primaryKey": .string("123")]),
    Seed(
      url: "tests://user/view/joeldev?userID=evil", pattern: "/user/view/:userID",
      target: .screen("user-profile"), params: ["username": .string("joeldev")]),
    Seed(
      url: "myapp://old-orders/42", pattern: "myapp://orders/<int:id>",
      target: .screen("order-detail"), params: ["orderid": .int(42)]),
  ]

  @Test(arguments: seeds)
  func resolvesSeedURL(_ seed: Seed) throws {
    let table = try shippedTable()
    for origin in [Origin.app, .external] {
      let resolved = try #require(matched(table.resolve(seed.url, from: origin)))
      #expect(resolved.entry.pattern.text == seed.pattern)
      #expect(resolved.entry.target == seed.target)
      #expect(resolved.params == seed.params)
    }
  }

  @Test func theShippedInternalOnlyRouteRefusesOutsideURLs() throws {
    let table = try shippedTable()
    #expect(table.resolve("myapp://debug/reset").isMatched)
    guard case .refused(let why) = table.resolve("myapp://debug/reset", from: .external).outcome
    else {
      Issue.record("expected a refusal")
      return
    }
    #expect(!why.isEmpty)
  }

  @Test func loadsTheShippedTable() throws {
    let table = try shippedTable()
    #expect(table.version == 1)
    let patterns = Set(table.entries.map(\.pattern.text))
    for seed in Self.seeds {
      #expect(patterns.contains(seed.pattern), "\(seed.pattern)")
    }
  }
}
