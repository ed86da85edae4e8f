import AppShellKit
import Foundation
import Routing

/// The shop: its app directory and the parts written in Swift.
public enum Shop {
  /// `App/` of this package: `app.json`, `routes.json` and the data screens.
  public static var directory: String {
    // Sources/ShopApp/Shop.swift -> the package root.
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("App").path
  }

  /// The products, by id: name and price in cents.
  static let products: [Int: (name: String, cents: Int)] = [
    1: ("Green tea", 450), 2: ("Notebook", 1200), 3: ("Umbrella", 2500),
  ]

  /// The product screen (typed `id`, drawn from the catalogue above and the cart flag) and
  /// the `add-to-cart` action, which takes a moment, as a network call would.
  public static var setup: AppSetup {
    var setup = AppSetup()
    setup.screen("product", params: ["id": ScreenParameter(.int)], live: true) { input in
      let id = input.typed.int("id") ?? 0
      guard let product = products[id] else {
        return ScreenContent(title: "Unknown product", body: ["No product \(id)."])
      }
      return ScreenContent(
        title: product.name,
        body: [
          "Price: \(product.cents / 100).\(String(format: "%02d", product.cents % 100))",
          "In your cart: \(input.flags["cartCount"] ?? .int(0))",
        ],
        links: [
          .open("Add to cart", AppRoute.addToCart(id: id)),
          .open("Go to the cart", AppRoute.cart),
        ])
    }
    setup.action("add-to-cart") { context in
      let id = context.typed.int("id") ?? 0
      guard let product = products[id] else { return .alert(title: "No product", message: "\(id)") }
      if case .int(let count)? = context.flags["cartCount"] {
        context.flags["cartCount"] = .int(count + 1)
      }
      return .later(
        seconds: 0.5, working: "Adding \(product.name)", .status("Added \(product.name)"))
    }
    return setup
  }

  /// What a destination of the shop's table is, in words: a switch over the enum generated
  /// from `routes.json`, so a destination added to the table and not handled here does not
  /// compile.
  static func describe(_ route: AppRoute) -> String {
    switch route {
    case .products: return "the products"
    case .product(let id): return "product \(id)"
    case .cart: return "the cart"
    case .addToCart(let id): return "adding product \(id) to the cart"
    case .checkout: return "checking out"
    case .account: return "the account"
    case .login: return "signing in"
    case .signIn: return "the sign-in action"
    }
  }
}
