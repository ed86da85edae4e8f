import AppShellKit
import ShopApp
import Testing

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
}

/// The shop's own flows and link contract (`App/flows/`) pass, as `shop test` runs them.
@Suite struct ShopFlowTests {
  @Test func theFlowsAndTheLinkContractPass() {
    let status = AppShellMain.run(
      directory: Shop.directory, setup: Shop.setup, arguments: ["test", "-j", "1"])
    #expect(status == 0)
  }
}
