import AppShellKit
import Foundation
import Routing
import Testing

/// A hand-written `TypedRoute` over the kit app's table, as the generator would write it.
private enum KitRoute: TypedRoute {
  case cart
  case product(id: Int)
  case nowhere

  init?(_ resolution: Resolution) {
    guard case .matched(let route, let parameters) = resolution.outcome else { return nil }
    switch route.target {
    case .screen("cart"): self = .cart
    case .screen("product"):
      guard let id = parameters.required("id", as: \.intValue) else { return nil }
      self = .product(id: id)
    default: return nil
    }
  }

  var target: RouteTarget {
    switch self {
    case .cart: return .screen("cart")
    case .product: return .screen("product")
    case .nowhere: return .screen("nowhere")
    }
  }

  var parameters: Parameters {
    switch self {
    case .product(let id): return ["id": .int(Int64(id))]
    case .cart, .nowhere: return Parameters()
    }
  }
}

/// Swift screens, actions and the headless session open destinations wherever they take a URL.
@Suite struct TypedDestinationTests {
  private var setup: AppSetup {
    var setup = HeadlessSessionTests.setup
    setup.screen("shop") { _ in
      ScreenContent(
        title: "Typed shop",
        links: [
          .open("Product 5", KitRoute.product(id: 5)), .open("Nowhere", KitRoute.nowhere),
        ])
    }
    setup.action("go-cart") { _ in .open(KitRoute.cart) }
    setup.action("go-nowhere") { _ in .open(KitRoute.nowhere) }
    return setup
  }

  /// The kit app, with its `shop` screen written in Swift and two more action routes.
  static var files: [String: String] {
    var files = HeadlessSessionTests.files
    files["shop.json"] = nil
    files["routes.json"] = files["routes.json"]!.replacingOccurrences(
      of: #"{"pattern":"kit://sizes""#,
      with:
        #"{"pattern":"kit://go-cart","action":"go-cart"},{"pattern":"kit://go-nowhere","action":"go-nowhere"},{"pattern":"kit://sizes""#
    )
    return files
  }

  @Test func aSessionOpensADestinationFromEveryOrigin() throws {
    let files = Self.files
    try HeadlessSessionTests.withApp(files: files) { directory in
      for origin in [LinkOrigin.inside, .outside, .cold] {
        var session = try HeadlessSession(directory: directory, setup: setup)
        try session.open(KitRoute.product(id: 7), from: origin)
        #expect(session.topScreen.name == "product")
        #expect(session.topScreen.params["id"] == "7")
        #expect(throws: AppShellError.self) { try session.open(KitRoute.nowhere) }
      }
    }
  }

  @Test func aSwiftScreenLinksAndAnActionRepliesWithDestinations() throws {
    let files = Self.files
    try HeadlessSessionTests.withApp(files: files) { directory in
      var session = try HeadlessSession(directory: directory, setup: setup)
      #expect(session.topScreen.title == "Typed shop")
      try session.press("<Down><Enter>")
      #expect(session.topScreen.params["id"] == "5")
      // The action's reply opens the cart through the table; one no route can say is an alert.
      session.open("kit://go-cart")
      #expect(session.topScreen.name == "cart")
      session.open("kit://go-nowhere")
      #expect(session.alert?.title == "No route")
      #expect(session.alert?.message == "no route reaches screen nowhere")
    }
  }
}
