/// A destination of a route table as a Swift value: one case per screen, action or
/// notification, with its parameters typed.
///
/// `appshell routes --emit swift` (or the `RoutesPlugin` build-tool plugin) generates a type
/// that conforms from the table, so an app switches over its destinations exhaustively and
/// builds every URL from the table:
///
/// ```swift
/// let table = try RouteTable(json: tableText)
/// if let route = AppRoute(url: incoming, in: table) {
///   switch route {
///   case .orderDetail(let orderid): showOrder(orderid)
///   case .userProfile(let username): showUser(username)
///   }
/// }
/// let link = AppRoute.orderDetail(orderid: 42).url(in: table)
/// ```
public protocol TypedRoute: Hashable, Sendable {
  /// The destination a resolved URL reached, with its parameters converted; nil when the URL
  /// did not match, reached a destination this type lacks, or its parameters do not convert.
  init?(_ resolution: Resolution)
  /// The route target this value stands for, such as `.screen("order-detail")`.
  var target: RouteTarget { get }
  /// The parameters, as the router gives them.
  var parameters: Parameters { get }
}

extension TypedRoute {
  /// The destination `url` reaches in `table`, opened from `origin`; nil as for
  /// ``init(_:)``.
  public init?(url: String, in table: RouteTable, from origin: Origin = .app) {
    self.init(table.resolve(url, from: origin))
  }

  /// A URL that resolves in `table` to exactly this destination and parameters, or nil when no
  /// route can say it (``RouteTable/url(for:parameters:scheme:)``). `scheme` is used for the
  /// routes whose pattern names none.
  public func url(in table: RouteTable, scheme: String? = nil) -> String? {
    table.url(for: target, parameters: parameters, scheme: scheme)
  }
}

// MARK: - Conversions generated code uses

extension ParamValue {
  /// The value as an `Int`: an `int` capture that fits, or decimal text; nil otherwise (a
  /// `float` capture is not an `Int`).
  public var intValue: Int? {
    switch self {
    case .int(let value): return Int(exactly: value)
    case .string(let text):
      guard case .int(let value)? = CaptureType.int.value(of: text) else { return nil }
      return Int(exactly: value)
    case .float, .strings: return nil
    }
  }

  /// The value as a `Double`: a number, or decimal text of the `float` grammar.
  public var doubleValue: Double? {
    switch self {
    case .int(let value): return Double(value)
    case .float(let value): return value
    case .string(let text):
      guard case .float(let value)? = CaptureType.float.value(of: text) else { return nil }
      return value
    case .strings: return nil
    }
  }

  /// The value as text: numbers as redirect templates write them, a list as its items joined
  /// with `/` (as a `<path:>` capture gives them).
  public var stringValue: String? {
    if case .strings(let items) = self { return items.joined(separator: "/") }
    return text
  }

  /// The value as path segments: a `*` capture's array, or a `<path:>` capture split at `/`.
  public var segmentsValue: [String]? {
    switch self {
    case .strings(let values): return values
    case .string(let text): return text.split(separator: "/").map(String.init)
    case .int, .float: return nil
    }
  }
}

extension Parameters {
  /// The value under `key` converted by `convert`; nil when it is absent or does not convert.
  public func required<T>(_ key: String, as convert: (ParamValue) -> T?) -> T? {
    self[key].flatMap(convert)
  }

  /// The value under `key` converted by `convert`: `.some(nil)` when it is absent, nil when it
  /// is present and does not convert.
  public func optional<T>(_ key: String, as convert: (ParamValue) -> T?) -> T?? {
    guard let value = self[key] else { return .some(nil) }
    guard let converted = convert(value) else { return nil }
    return .some(converted)
  }
}

extension ParamValue: ExpressibleByStringLiteral {
  /// Text written as a literal: `["username": "joeldev"]`.
  public init(stringLiteral text: String) { self = .string(text) }
}
