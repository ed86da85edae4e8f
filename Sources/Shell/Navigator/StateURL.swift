import JSON
import Routing

/// The whole navigation state as one URL, and back (as React Navigation's `getPathFromState`):
/// `appshell-state://restore?s=...`. Opening that URL on a fresh shell rebuilds an equal state;
/// the navigator handles this URL itself, before the route table.
package enum StateURL {
  /// The scheme of state URLs.
  package static let scheme = "appshell-state"

  /// The URL for a state: tabs, stacks, modals, the selected tab and the alert.
  package static func encode(_ state: ShellState) -> String {
    func stack(_ screens: [Screen]) -> JSON { .array(screens.map(screen)) }
    var members = [
      JSONMember("tab", .number(String(state.selectedTab))),
      JSONMember(
        "tabs",
        .array(
          state.tabs.map {
            .object([JSONMember("title", .string($0.title)), JSONMember("stack", stack($0.stack))])
          })),
      JSONMember("modals", .array(state.modals.map { stack($0.stack) })),
    ]
    if let alert = state.alert {
      members.append(
        JSONMember(
          "alert",
          .object([
            JSONMember("title", .string(alert.title)),
            JSONMember("message", .string(alert.message)),
            JSONMember("buttons", .array(alert.buttons.map(JSON.string))),
          ])))
    }
    return "\(scheme)://restore?s=" + percentEncodeUnreserved(JSON.object(members).serialized)
  }

  private static func screen(_ screen: Screen) -> JSON {
    var members = [
      JSONMember("name", .string(screen.name)),
      JSONMember(
        "params",
        .object(screen.params.keys.sorted().map { JSONMember($0, typed(screen.params[$0]!)) })),
    ]
    if let url = screen.url { members.append(JSONMember("url", .string(url))) }
    if let key = screen.resultRequest?.key { members.append(JSONMember("resultKey", .string(key))) }
    return .object(members)
  }

  /// Floats always carry a `.` or an exponent, ints never, so the type survives.
  private static func typed(_ value: ParamValue) -> JSON {
    switch value {
    case .string(let text): return .string(text)
    case .int(let number): return .number(String(number))
    case .float(let number): return .number(number.description)
    case .strings(let values): return .array(values.map(JSON.string))
    }
  }

  /// Whether `url` is a state URL.
  package static func isStateURL(_ url: String) -> Bool {
    url.lowercased().hasPrefix(scheme + "://")
  }

  /// Rebuilds the state of a state URL, making each screen with its factory; says what is
  /// wrong otherwise.
  package static func decode(_ url: String, app: ShellApp, session: Session) throws(StateURLError)
    -> ShellState
  {
    guard let parsed = try? RouteURL(url), parsed.scheme == scheme,
      let encoded = parsed.queryValues("s").first
    else { throw StateURLError("not a state URL (\(scheme)://restore?s=...)") }
    let json: JSON
    do {
      json = try JSON.parse(encoded)
    } catch {
      throw StateURLError("state: \(error)")
    }
    func screens(_ value: JSON?, _ place: String) throws(StateURLError) -> [Screen] {
      guard case .array(let items)? = value, !items.isEmpty else {
        throw StateURLError("\(place): must be a non-empty array of screens")
      }
      var result: [Screen] = []
      for (index, item) in items.enumerated() {
        result.append(try screen(item, "\(place)[\(index)]", app: app, session: session))
      }
      return result
    }
    guard case .array(let tabItems)? = json["tabs"], let selected = json["tab"]?.intValue else {
      throw StateURLError("state: needs tab and tabs")
    }
    var tabs: [Tab] = []
    for (index, item) in tabItems.enumerated() {
      guard case .string(let title)? = item["title"] else {
        throw StateURLError("tabs[\(index)].title: must be a string")
      }
      tabs.append(Tab(title: title, stack: try screens(item["stack"], "tabs[\(index)].stack")))
    }
    // The tab bar is the app's own: the same tabs, titles and root screens.
    guard tabs.map(\.title) == app.tabs.map(\.title),
      tabs.map({ $0.stack[0].name }) == app.tabs.map(\.root)
    else {
      let expected = app.tabs.map { "\($0.title) (\($0.root))" }.joined(separator: ", ")
      throw StateURLError("tabs: must be this app's tabs: \(expected)")
    }
    var modals: [Modal] = []
    if case .array(let modalItems)? = json["modals"] {
      for (index, item) in modalItems.enumerated() {
        modals.append(Modal(stack: try screens(item, "modals[\(index)]")))
      }
    }
    var alert: Alert?
    if let alertJSON = json["alert"] {
      guard case .string(let title)? = alertJSON["title"],
        case .string(let message)? = alertJSON["message"],
        case .array(let buttonItems)? = alertJSON["buttons"]
      else { throw StateURLError("alert: needs title, message and buttons") }
      let buttons = buttonItems.compactMap { item -> String? in
        if case .string(let text) = item { return text }
        return nil
      }
      alert = Alert(title: title, message: message, buttons: buttons)
    }
    guard let state = ShellState(tabs: tabs, selectedTab: selected, modals: modals, alert: alert)
    else { throw StateURLError("state: the selected tab does not exist") }
    return state
  }

  private static func screen(_ json: JSON, _ place: String, app: ShellApp, session: Session)
    throws(StateURLError) -> Screen
  {
    guard case .string(let name)? = json["name"], case .object(let members)? = json["params"]
    else { throw StateURLError("\(place): needs name and params") }
    var params: Parameters = [:]
    for member in members {
      switch member.value {
      case .string(let text): params[member.key] = .string(text)
      case .number(let text):
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
          guard let number = Double(text) else {
            throw StateURLError("\(place).params.\(member.key): bad number")
          }
          params[member.key] = .float(number)
        } else {
          guard let number = Int64(text) else {
            throw StateURLError("\(place).params.\(member.key): bad number")
          }
          params[member.key] = .int(number)
        }
      case .array(let items):
        params[member.key] = .strings(
          items.compactMap {
            if case .string(let text) = $0 { return text }
            return nil
          })
      default:
        throw StateURLError("\(place).params.\(member.key): unsupported value")
      }
    }
    var url: String?
    if case .string(let text)? = json["url"] { url = text }
    switch app.catalog.make(name, params: params, url: url, session: session, table: app.table) {
    case .success(var screen):
      if case .string(let key)? = json["resultKey"] {
        screen.resultRequest = ResultRequest(key: key)
      }
      return screen
    case .failure(let problem):
      throw StateURLError("\(place): cannot make the screen: \(problem)")
    }
  }
}

/// A state URL that cannot be restored: where and what.
package struct StateURLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The message.
  package var description: String

  init(_ description: String) { self.description = description }
}
