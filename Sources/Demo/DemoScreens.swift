import Routing
import Shell

/// The demo's screens written in Swift: those that take typed parameters or show app data.
enum DemoScreens {
  /// Registers them.
  static func register(into registry: inout AppRegistry) {
    registry.screen(
      "order-detail",
      params: [
        "orderid": ParameterSpec(type: .int, required: true),
        "address": ParameterSpec(type: .string, required: false),
      ], make: orderDetail)
    registry.screen("about", make: about)
    registry.screen("notifications", isLive: true, make: notifications)
    registry.screen(
      "pk-detail", params: ["pkID": ParameterSpec(type: .int, required: true)], isLive: true,
      make: pkDetail)
  }

  /// An order: the id is typed (`int`), the rest is made up from it so it is stable.
  static func orderDetail(_ request: ScreenRequest) -> Screen {
    let id = request.params["orderid"].flatMap(\.text) ?? "?"
    let number = Int64(id) ?? 0
    let items = ["Green tea", "Notebook", "Umbrella", "Headphones", "Rice cooker"]
    let item = items[Int(UInt64(bitPattern: number) % UInt64(items.count))]
    let amount = Double(UInt64(bitPattern: number) % 50_000) / 100 + 1
    let statuses = ["Paid", "Shipped", "Delivered"]
    let status = statuses[Int(UInt64(bitPattern: number / 7) % UInt64(statuses.count))]
    var body = [
      "Order number: \(id)",
      "Item: \(item)",
      "Amount: ¥\(formatPositional(amount))",
      "Status: \(status)",
    ]
    if let address = request.params["address"]?.text {
      body.append("Deliver to: \(address)")
    } else {
      body.append("Deliver to: (not chosen)")
    }
    return Screen(
      name: "order-detail", title: "Order \(id)", params: request.params, body: body,
      links: [
        Link("Choose delivery address", .openForResult("myapp://address-picker", key: "address")),
        Link(
          "Seller's profile", .open("navigator://user/seller\(UInt64(bitPattern: number) % 100)")),
        Link("Back to all orders", .open("myapp://orders")),
      ], url: request.url)
  }

  /// Lists every route of the table in force.
  static func about(_ request: ScreenRequest) -> Screen {
    var body = [
      "AppShell \(DemoApp.version): an iOS app shell in a terminal.",
      "Routes in force (\(request.table.entries.count)):",
    ]
    for entry in request.table.entries {
      let target: String
      switch entry.target {
      case .screen(let name): target = "screen \(name)"
      case .action(let name): target = "action \(name)"
      case .notification(let name): target = "notification \(name)"
      case .redirect(let template): target = "redirect \(template.text)"
      }
      body.append("\(entry.pattern.text) -> \(target)")
    }
    return Screen(
      name: "about", title: "About", params: request.params, body: body, url: request.url)
  }

  /// Lists the notifications received, newest first.
  static func notifications(_ request: ScreenRequest) -> Screen {
    let received = request.session.notifications
    var body = ["Received: \(received.count)"]
    for notification in received.reversed() {
      let info = notification.userInfo.keys.sorted().map { key in
        "\(key)=\(notification.userInfo[key]!.displayText)"
      }
      body.append("\(notification.name) \(info.joined(separator: " "))")
    }
    return Screen(
      name: "notifications", title: "Notifications", params: request.params, body: body,
      links: [Link("Post a test animal", .open("ccfurlresponder://animal/platypus/8.0"))],
      url: request.url)
  }

  /// A pk match (XYWdispatcher's example) with its like count.
  static func pkDetail(_ request: ScreenRequest) -> Screen {
    let id = request.params["pkID"].flatMap(\.text) ?? "?"
    let likes = Int64(id).map { request.session.likes(of: $0) } ?? 0
    return Screen(
      name: "pk-detail", title: "PK \(id)", params: request.params,
      body: ["Match \(id): red vs blue", "Likes: \(likes)"],
      links: [Link("Like this match", .open("XYWAPP://pkdetail/like?id=\(id)"))],
      url: request.url)
  }
}
