import AppRuntime
import Routing
import Shell

/// A flag's value: a boolean, an integer or a string (`app.json`'s `flags`).
public enum FlagValue: Sendable, Hashable, CustomStringConvertible {
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number.
  case int(Int64)
  /// Text.
  case string(String)

  /// How the value reads on a screen: `true`/`false`, decimal, or the text itself.
  public var description: String { shell.description }

  var shell: Shell.FlagValue {
    switch self {
    case .bool(let value): return .bool(value)
    case .int(let value): return .int(value)
    case .string(let value): return .string(value)
    }
  }

  init(_ value: Shell.FlagValue) {
    switch value {
    case .bool(let value): self = .bool(value)
    case .int(let value): self = .int(value)
    case .string(let value): self = .string(value)
    }
  }
}

/// What a Swift screen is given: its checked parameters, the URL that opened it and the
/// app's flags.
public struct ScreenInput: Sendable {
  /// The parameters as text (an `int` parameter reads `"42"`).
  public var params: [String: String]
  /// The parameters with their types (`typed.int("id")`).
  public var typed: TypedParams
  /// The URL that opened the screen, if any.
  public var url: String?
  /// The flags' current values.
  public var flags: [String: FlagValue]
  /// The notifications posted so far (routes with a `notification` target), oldest first:
  /// each name and user info as text. A `live` screen is drawn again when one arrives.
  public var notifications: [(name: String, info: [String: String])]
}

/// A link on a Swift screen.
public struct ScreenLink: Sendable, Hashable {
  private enum Kind: Sendable, Hashable {
    case link(Link)
    /// A destination, its URL found in the table when the screen is made.
    case destination(String, RouteTarget, Parameters, resultKey: String?)
  }

  private let kind: Kind

  /// A link that opens a URL from inside the app.
  public static func open(_ label: String, _ url: String) -> ScreenLink {
    ScreenLink(kind: .link(Link(label, .open(url))))
  }

  /// A link that opens a destination of the table (a value of a generated `TypedRoute`
  /// enum): its URL is the one the table gives it when the screen is made. A destination no
  /// route can say gets an empty URL, which opens nothing.
  public static func open(_ label: String, _ route: some TypedRoute) -> ScreenLink {
    ScreenLink(kind: .destination(label, route.target, route.parameters, resultKey: nil))
  }

  /// A link that opens a URL for a result: the value comes back into the parameter `key`.
  public static func openForResult(_ label: String, _ url: String, key: String) -> ScreenLink {
    ScreenLink(kind: .link(Link(label, .openForResult(url, key: key))))
  }

  /// A link that opens a destination for a result, as `open(_:_:)`
  /// finds its URL.
  public static func openForResult(_ label: String, _ route: some TypedRoute, key: String)
    -> ScreenLink
  {
    ScreenLink(kind: .destination(label, route.target, route.parameters, resultKey: key))
  }

  /// A link that finishes the screen with a value for the screen that opened it.
  public static func finish(_ label: String, value: String) -> ScreenLink {
    ScreenLink(kind: .link(Link(label, .finish(value))))
  }

  /// The link, with a destination's URL found in `table`.
  func link(in table: RouteTable) -> Link {
    switch kind {
    case .link(let link): return link
    case .destination(let label, let target, let parameters, let key):
      let url = table.url(for: target, parameters: parameters) ?? ""
      return Link(label, key.map { .openForResult(url, key: $0) } ?? .open(url))
    }
  }
}

/// A screen drawn by Swift: its title, body lines and links.
public struct ScreenContent: Sendable, Hashable {
  /// The navigation-bar title.
  public var title: String
  /// The body, one line each.
  public var body: [String]
  /// The links, selectable with Down/Up and Enter.
  public var links: [ScreenLink]

  /// Makes a screen.
  public init(title: String, body: [String] = [], links: [ScreenLink] = []) {
    self.title = title
    self.body = body
    self.links = links
  }
}

/// What a Swift action is given: the route's parameters and the app's flags, which it may
/// change.
public struct ActionContext: Sendable {
  /// The route's parameters as text, after `rename`.
  public var params: [String: String]
  /// The route's parameters with their types (`typed.int("id")`).
  public var typed: TypedParams
  /// The flags; a change is shown live on every screen. An action that replies
  /// ``ActionReply/later(seconds:working:_:)`` changes them when it finishes (Esc cancels the
  /// change with the work), to the values it gave them, over any change made meanwhile.
  public var flags: [String: FlagValue]
  /// The name of the screen on top when the action ran.
  public var topScreen: String
}

/// How a Swift action ends.
public indirect enum ActionReply: Sendable, Hashable {
  /// A status-line text.
  case status(String)
  /// A URL opened next.
  case open(String)
  /// A destination opened next (a value of a generated `TypedRoute` enum): the URL the table
  /// gives it; an alert when no route can say it.
  case openDestination(RouteTarget, Parameters)
  /// An alert.
  case alert(title: String, message: String)
  /// The reply after `seconds` of (virtual, in replay and tests) time; the status line shows
  /// `working` meanwhile, and Esc cancels it.
  case later(seconds: Double, working: String, ActionReply)

  /// A reply that opens a destination next; see ``openDestination(_:_:)``.
  public static func open(_ route: some TypedRoute) -> ActionReply {
    .openDestination(route.target, route.parameters)
  }

  func result(in table: RouteTable) -> ActionResult {
    switch self {
    case .status(let text): return .status(text)
    case .open(let url): return .open(url)
    case .openDestination(let target, let parameters):
      guard let url = table.url(for: target, parameters: parameters) else {
        return .alert(
          Alert(title: "No route", message: LinkTarget.unreachable(target, parameters)))
      }
      return .open(url)
    case .alert(let title, let message): return .alert(Alert(title: title, message: message))
    case .later(_, _, let reply): return reply.result(in: table)
    }
  }
}

/// A parameter a Swift screen declares: its type and whether it is required. A URL whose value
/// does not fit is not opened; an alert says why.
public struct ScreenParameter: Sendable, Hashable {
  let spec: ParameterSpec

  /// A parameter of this type (`string`, `int`, `float`, `uuid`).
  public init(_ type: CaptureType, required: Bool = true) {
    spec = ParameterSpec(type: type, required: required)
  }
}

/// The Swift side of an app: screens, actions and guards registered by name beside what its
/// `app.json` and screen files define. A name defined twice refuses the app.
public struct AppSetup: Sendable {
  package var registry = AppRegistry()

  /// Nothing registered yet.
  public init() {}

  /// Registers a screen drawn by Swift. `live` screens are drawn again whenever the flags
  /// change.
  public mutating func screen(
    _ name: String, params: [String: ScreenParameter] = [:], live: Bool = false,
    make: @escaping @Sendable (ScreenInput) -> ScreenContent
  ) {
    registry.screen(name, params: params.mapValues(\.spec), isLive: live) { request in
      var texts: [String: String] = [:]
      for (key, value) in request.params { texts[key] = value.displayText }
      let notifications = request.session.notifications.map { posted in
        var info: [String: String] = [:]
        for (key, value) in posted.userInfo { info[key] = value.displayText }
        return (name: posted.name, info: info)
      }
      let input = ScreenInput(
        params: texts, typed: TypedParams(values: request.params), url: request.url,
        flags: Self.flags(request.session.flags),
        notifications: notifications)
      let content = make(input)
      return Screen(
        name: name, title: content.title, params: request.params, body: content.body,
        links: content.links.map { $0.link(in: request.table) }, url: request.url)
    }
  }

  /// Registers an action written in Swift: it may change the flags and ends with a reply.
  public mutating func action(
    _ name: String, _ handler: @escaping @Sendable (inout ActionContext) -> ActionReply
  ) {
    registry.action(name) { session, request in
      var texts: [String: String] = [:]
      for (key, value) in request.params { texts[key] = value.displayText }
      var context = ActionContext(
        params: texts, typed: TypedParams(values: request.params),
        flags: Self.flags(session.flags), topScreen: request.topScreen.name)
      let reply = handler(&context)
      var changed: [String: Shell.FlagValue] = [:]
      for name in session.flags.names {
        if let value = context.flags[name]?.shell, value != session.flags[name],
          value.hasSameType(as: session.flags[name]!)
        {
          changed[name] = value
        }
      }
      // Work that finishes later changes the flags when it finishes, so Esc cancels both.
      if case .later(let seconds, let working, _) = reply {
        return .later(
          after: .milliseconds(Int64((seconds * 1000).rounded())), description: working,
          result: .setting(changed, then: reply.result(in: request.table)))
      }
      for (name, value) in changed { session.flags[name] = value }
      return .done(reply.result(in: request.table))
    }
  }

  /// Registers a guard written in Swift: routes naming it open only when `holds` is true;
  /// otherwise `url` opens first, and the route goes on once an action makes it hold.
  public mutating func `guard`(
    _ name: String, opens url: String,
    holds: @escaping @Sendable ([String: FlagValue]) -> Bool
  ) {
    registry.guard(name, GuardRule(url: url) { session in holds(Self.flags(session.flags)) })
  }

  static func flags(_ flags: Flags) -> [String: FlagValue] {
    var result: [String: FlagValue] = [:]
    for name in flags.names { result[name] = FlagValue(flags[name]!) }
    return result
  }
}

extension AppSetup {
  /// Registers with the package's own types (screens that read the session or the route
  /// table in force), for the shipped demo.
  package mutating func register(_ body: (inout AppRegistry) -> Void) {
    body(&registry)
  }

  /// Registers this setup for every app directory whose `app.json` has `name`.
  package func register(forAppNamed name: String) {
    AppHost.register(registry, forAppNamed: name)
  }
}
