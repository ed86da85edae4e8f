import JSON

/// What a route does when it wins.
public enum RouteTarget: Sendable, Hashable {
  /// Make the named screen and push or present it.
  case screen(String)
  /// Call the handler registered under this name.
  case action(String)
  /// Post the named notification with the parameters as user info.
  case notification(String)
  /// Open the filled-in template instead.
  case redirect(RedirectTemplate)

  /// The JSON field that names this kind of target.
  public var field: String {
    switch self {
    case .screen: return "screen"
    case .action: return "action"
    case .notification: return "notification"
    case .redirect: return "redirect"
    }
  }
}

/// How a `screen` route shows its screen.
public enum Presentation: String, Sendable, Hashable {
  /// Onto the current navigation stack.
  case push
  /// As a modal, in its own navigation stack.
  case present
}

/// How a `screen` route's screen lands when its URL arrives from outside.
public enum Arrival: String, Sendable, Hashable {
  /// Pushed on the current stack.
  case push
  /// The stack becomes the tab's root, the route's `parent` chain, then the screen.
  case reset
  /// Popped back to the same screen when the stack has it; otherwise pushed.
  case reuse
}

/// A dotted version such as `2.1.3`, compared part by part (missing parts count as 0).
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The numbers, most significant first.
  public var parts: [Int]

  /// Reads `"3"` or `"2.1.3"`; nil for anything else.
  public init?(_ text: String) {
    let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
    var parts: [Int] = []
    for piece in pieces {
      guard !piece.isEmpty, piece.utf8.allSatisfy(\.isASCIIDigit), let number = Int(piece) else {
        return nil
      }
      parts.append(number)
    }
    self.parts = parts
  }

  /// The version as dotted numbers.
  public var description: String { parts.map(String.init).joined(separator: ".") }

  /// Part-by-part order; `2.1` equals `2.1.0`.
  public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
    for index in 0..<max(lhs.parts.count, rhs.parts.count) {
      let left = index < lhs.parts.count ? lhs.parts[index] : 0
      let right = index < rhs.parts.count ? rhs.parts[index] : 0
      if left != right { return left < right }
    }
    return false
  }

  /// Equal when every part is equal, missing parts counting as 0.
  public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool {
    !(lhs < rhs) && !(rhs < lhs)
  }

  /// Hashes the parts without trailing zeros, so equal versions hash alike.
  public func hash(into hasher: inout Hasher) {
    var trimmed = parts[...]
    while trimmed.last == 0 { trimmed = trimmed.dropLast() }
    hasher.combine(Array(trimmed))
  }
}

/// One validated entry of a route table.
public struct RouteEntry: Sendable {
  /// The entry's index in the table's `routes` array.
  public var index: Int
  /// The compiled pattern (its `text` is the pattern as written).
  public var pattern: RoutePattern
  /// What the route does.
  public var target: RouteTarget
  /// Higher wins; default 0.
  public var priority: Int = 0
  /// Push (default) or present; meaningful for `screen` targets.
  public var presentation: Presentation = .push
  /// False when only the app itself may open this route.
  public var external: Bool = true
  /// The app version that first knows this route's target.
  public var minVersion: AppVersion?
  /// The URL of the screen that sits under this one on a cold start.
  public var parent: String?
  /// URL parameter name -> screen parameter name, applied at once after matching.
  public var rename: [String: String] = [:]
  /// The condition the app must meet first, such as `signed-in`.
  public var guardName: String?
  /// The title of the tab a URL from outside selects first (the app checks it is one).
  public var tab: String?
  /// How the screen lands when its URL arrives from outside.
  public var arrival: Arrival = .push
  /// The entry as written in the table.
  public var json: JSON

  /// Makes an entry; `json` defaults to a minimal object with pattern and target.
  public init(index: Int, pattern: RoutePattern, target: RouteTarget, json: JSON? = nil) {
    self.index = index
    self.pattern = pattern
    self.target = target
    let targetText: String
    switch target {
    case .screen(let name), .action(let name), .notification(let name): targetText = name
    case .redirect(let template): targetText = template.text
    }
    self.json =
      json
      ?? .object([
        JSONMember("pattern", .string(pattern.text)), JSONMember(target.field, .string(targetText)),
      ])
  }

  /// The parameters after `rename`: all renames at once; a renamed value overwrites one that
  /// already has the new name.
  public func renamed(_ params: Parameters) -> Parameters {
    guard !rename.isEmpty else { return params }
    var result = params
    for from in rename.keys { result[from] = nil }
    for (from, to) in rename {
      if let value = params[from] { result[to] = value }
    }
    return result
  }
}
