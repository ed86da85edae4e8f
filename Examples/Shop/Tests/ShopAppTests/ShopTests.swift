import AppShellKit
import Routing
import Testing

@testable import ShopApp

/// The shop, driven headless: its Swift screen and action, its data screens and its routes.
@Suite struct ShopTests {
  func session() throws -> HeadlessSession {
    try HeadlessSession(directory: Shop.directory, setup: Shop.setup)
  }

  @Test func aProductOpensFromALinkWithItsTypedID() throws {
    var shop = try session()
    #expect(shop.topScreen.name == "products")
    try shop.press("<Down><Down><Enter>")
    #expect(shop.topScreen == TopScreen(name: "product", title: "Notebook", params: ["id": "2"]))
    #expect(shop.screenText().contains("Price: 12.00"))
  }

  @Test func addingToTheCartTakesAMomentAndShowsEverywhere() throws {
    var shop = try session()
    shop.open("shop://products/1", from: .outside)
    try shop.press("<Down><Enter>")
    #expect(shop.status == "Adding Green tea… (Esc cancels)")
    shop.wait(seconds: 0.5)
    #expect(shop.status == "Added Green tea")
    #expect(shop.flags["cartCount"] == .int(1))
    #expect(shop.screenText().contains("In your cart: 1"))
    #expect(shop.stateJSON.contains(#""flags":{"cartCount":1,"signedIn":false}"#))
  }

  @Test func checkingOutAsksToSignInThenPays() throws {
    var shop = try session()
    shop.open("shop://cart/add/3")
    shop.wait(seconds: 1)
    shop.open("shop://checkout")
    #expect(shop.topScreen.name == "login")
    try shop.press("<Down><Enter>")
    #expect(shop.flags["signedIn"] == .bool(true))
    shop.wait(seconds: 1.5)
    #expect(shop.status.hasPrefix("Opened Products") || shop.topScreen.name == "products")
    #expect(shop.flags["cartCount"] == .int(0))
    #expect(shop.log.contains { $0.hasPrefix("prompt shop://checkout -> guarded by signed-in") })
  }

  @Test func aColdStartPutsTheProductsListUnderTheProduct() throws {
    var shop = try session()
    shop.open("shop://products/3", from: .cold)
    #expect(shop.topScreen.title == "Umbrella")
    try shop.press("<Esc>")
    #expect(shop.topScreen.name == "products")
  }

  @Test func anUnknownProductIsAnInvalidParameter() throws {
    var shop = try session()
    shop.open("shop://products/x")
    #expect(shop.alert != nil)
  }

  /// The enum generated from the shop's table by the RoutesPlugin: every destination, each
  /// handled by an exhaustive switch, goes to a URL of the table and back.
  @Test func everyDestinationOfTheGeneratedEnumRoundTrips() throws {
    let table = try RouteTable(
      json: try String(contentsOfFile: Shop.directory + "/routes.json", encoding: .utf8))
    let all: [AppRoute] = [
      .products, .product(id: 2), .cart, .addToCart(id: 3), .checkout, .account, .login, .signIn,
    ]
    for route in all {
      let url = try #require(route.url(in: table), "\(route)")
      #expect(AppRoute(url: url, in: table) == route)
      #expect(!Shop.describe(route).isEmpty)
    }
    #expect(AppRoute(url: "shop://products/7", in: table) == .product(id: 7))
    #expect(AppRoute(url: "shop://nowhere", in: table) == nil)
  }

  @Test func aSessionOpensADestination() throws {
    var shop = try session()
    try shop.open(AppRoute.product(id: 3), from: .cold)
    #expect(shop.topScreen.title == "Umbrella")
    try shop.open(AppRoute.addToCart(id: 1), from: .outside)
    shop.wait(seconds: 0.5)
    #expect(shop.flags["cartCount"] == .int(1))
  }
}

/// The shop's own flows and link contract (`App/flows/`) pass, as `shop test` runs them.
@Suite struct ShopFlowTests {
  @Test func theFlowsAndTheLinkContractPass() {
    let status = AppShellMain.run(
      directory: Shop.directory, setup: Shop.setup, arguments: ["test", "-j", "1"])
    #expect(status == 0)
  }
}
