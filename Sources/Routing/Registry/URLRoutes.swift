import JSON

/// Patterns registered with handlers, in the style of URLNavigator and JLRoutes:
///
/// ```swift
/// let routes = URLRoutes()
/// try routes.register("navigator://user/<username>") { request in
///   print(request.params["username"] ?? "")
///   return true
/// }
/// routes.canOpen("navigator://user/zhangsan")  // true
/// routes.open("navigator://user/zhangsan")     // calls the handler
/// ```
///
/// `open` tries the matching routes best first (in ranking order) until a handler returns
/// true, as JLRoutes does, then falls back to ``unmatchedHandler``.
public final class URLRoutes {
  /// What a handler is given: the URL, the parameters and the pattern that matched.
  public struct Request {
    /// The URL as opened.
    public var url: String
    /// The match parameters: query items, then query-constraint captures, then path captures.
    public var params: Parameters
    /// The pattern that matched, as written.
    public var pattern: String
  }

  /// A handler; returning false lets the next-ranked route try.
  public typealias Handler = (Request) -> Bool

  private var routes: [Router.Route] = []
  private var handlers: [Handler] = []
  /// Each route's pattern as written (read without copying its route).
  private var texts: [String] = []
  /// What finds a new route's conflicts; the router is compiled when first used after a change.
  private var shapes = RouteShapes()
  private var compiled: Router?

  /// Called with the URL when no handler took it.
  public var unmatchedHandler: ((String) -> Void)?

  /// Makes an empty set of routes.
  public init() {}

  /// Registers `pattern` with a handler; a bad pattern or a conflict with a route already
  /// registered throws and changes nothing. With `caseSensitive: false` the pattern's literals
  /// compare without regard to case, as `"caseSensitive": false` does in a route table.
  public func register(
    _ pattern: String, priority: Int = 0, caseSensitive: Bool = true,
    _ handler: @escaping Handler
  ) throws(RouteRegistrationError) {
    let compiledPattern: RoutePattern
    do {
      compiledPattern = try RoutePattern(pattern, caseSensitive: caseSensitive)
    } catch {
      throw .pattern(error)
    }
    try install([(Router.Route(pattern: compiledPattern, priority: priority), handler)])
  }

  /// Adds `new` after the routes so far; on a conflict nothing changes.
  private func install(_ new: [(route: Router.Route, handler: Handler)])
    throws(RouteRegistrationError)
  {
    let first = routes.count
    routes += new.map(\.route)
    do {
      try shapes.add(routes, from: first)
    } catch {
      let (pattern, other) = (routes[error.route].pattern, routes[error.other].pattern)
      routes.removeSubrange(first...)
      throw .conflict(
        pattern: pattern.text, with: error.route == error.other ? nil : other.text)
    }
    handlers += new.map(\.handler)
    texts += new.map(\.route.pattern.text)
    compiled = nil
  }

  /// Compiles the routes so far, unless they are already.
  private func compile() {
    guard compiled == nil else { return }
    do {
      compiled = try Router(routes)
    } catch {
      preconditionFailure("routes that were each checked for conflicts conflict: \(error)")
    }
  }

  /// Registers every entry of a table, each with the same handler, which is given the entry.
  public func add(_ table: RouteTable, _ handler: @escaping (RouteEntry, Request) -> Bool)
    throws(RouteRegistrationError)
  {
    try install(
      table.entries.map { entry in
        let route = Router.Route(pattern: entry.pattern, priority: entry.priority)
        return (
          route,
          { request in
            var renamed = request
            renamed.params = entry.renamed(request.params)
            return handler(entry, renamed)
          }
        )
      })
  }

  /// The best match for `url` without calling any handler, or nil (also for an invalid URL).
  public func match(_ url: String) -> Request? {
    compile()
    guard let best = compiled!.match(url) else { return nil }
    return Request(url: url, params: best.params, pattern: texts[best.route])
  }

  /// Whether some route matches `url`.
  public func canOpen(_ url: String) -> Bool { match(url) != nil }

  /// Calls the handlers of the matching routes, best first, until one returns true.
  @discardableResult
  public func open(_ url: String) -> Bool {
    compile()
    for match in compiled!.matches(url) {
      let request = Request(url: url, params: match.params, pattern: texts[match.route])
      if handlers[match.route](request) { return true }
    }
    unmatchedHandler?(url)
    return false
  }
}

/// Why a pattern could not be registered.
public enum RouteRegistrationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The pattern does not follow the grammar.
  case pattern(PatternError)
  /// No URL could tell the new pattern from one already registered (or two of its expansions).
  case conflict(pattern: String, with: String?)

  /// A one-line message.
  public var description: String {
    switch self {
    case .pattern(let error): return error.description
    case .conflict(let pattern, let other):
      guard let other else {
        return "\(JSON.quote(pattern)): two expansions of its optional groups cannot be told apart"
      }
      return "\(JSON.quote(pattern)) conflicts with \(JSON.quote(other))"
    }
  }
}
