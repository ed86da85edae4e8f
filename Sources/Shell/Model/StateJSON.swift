import JSON
import Routing

extension Screen {
  /// `{"screen":..., "title":..., "params":{...}}`, as in the state JSON.
  package var json: JSON {
    .object([
      JSONMember("screen", .string(name)),
      JSONMember("title", .string(title)),
      JSONMember("params", params.json),
    ])
  }
}

extension ShellState {
  /// The state as JSON: `tab`, `tabs` (title and stack), `modals` (bottom to top, each a
  /// stack) and `alert` (null or title and message).
  package var json: JSON {
    let alertJSON: JSON =
      alert.map {
        .object([
          JSONMember("title", .string($0.title)), JSONMember("message", .string($0.message)),
        ])
      } ?? .null
    return .object([
      JSONMember("tab", .number(String(selectedTab))),
      JSONMember(
        "tabs",
        .array(
          tabs.map {
            .object([
              JSONMember("title", .string($0.title)),
              JSONMember("stack", .array($0.stack.map(\.json))),
            ])
          })),
      JSONMember(
        "modals",
        .array(modals.map { .object([JSONMember("stack", .array($0.stack.map(\.json)))]) })),
      JSONMember("alert", alertJSON),
    ])
  }
}

extension ShellState {
  /// The state JSON with the app's flags as `"flags":{...}` after `alert` (`{}` when the app
  /// declares none).
  package func json(flags: Flags) -> JSON {
    guard case .object(var members) = json else { return json }
    members.append(JSONMember("flags", flags.json))
    return .object(members)
  }
}
