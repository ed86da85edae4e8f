import Interface
import JSON
import Routing
import Shell

/// What opening one URL did, read from the app before and after: what `appshell openurl
/// --json` prints, and what link contracts check.
package struct OpenReport {
  /// The URL opened.
  package var url: String
  /// `app`, `safari` or `nothing`.
  package var opens: String
  /// The URL's own entry in the event log (nil when opening it logged nothing).
  package var entry: LogEntry?
  /// The last entry it logged (a guarded URL logs its guard's screen after itself).
  package var lastEntry: LogEntry?
  /// The model after it (and after any work it started, when that was let finish).
  package var model: AppModel
  /// The status line after it.
  package var status: String
  /// The names of the notifications posted meanwhile.
  package var notifications: [String]

  /// The report of opening `url` from `origin`, given the model before and the console after.
  package init(url: String, from origin: URLOrigin, before: AppModel, after console: Console) {
    self.url = url
    opens = console.app.delivery(of: url, from: origin).opens.rawValue
    let model = console.model
    entry = model.log.count > before.log.count ? model.log[before.log.count] : nil
    lastEntry = entry == nil ? nil : model.log.last
    self.model = model
    status = console.statusLine
    notifications = model.session.notifications.dropFirst(before.session.notifications.count)
      .map(\.name)
  }

  /// The event log's text for the last entry, or `nothing happened`.
  package var outcome: String {
    lastEntry?.detail ?? "nothing happened"
  }

  /// Why the URL was refused, when it was.
  package var refused: String? {
    if case .refused(let why)? = entry?.outcome { return why }
    return nil
  }

  /// Whether a route matched.
  package var matched: Bool { entry?.pattern != nil }

  /// The members `openurl --json` prints, in order (`ok` first).
  package var members: [JSONMember] {
    let shell = model.shell
    return [
      JSONMember("ok", .bool(true)),
      JSONMember("opens", .string(opens)),
      JSONMember("matched", .bool(matched)),
      JSONMember("pattern", entry?.pattern.map(JSON.string) ?? .null),
      JSONMember("params", (entry?.params ?? [:]).json),
      JSONMember("outcome", .string(outcome)),
      JSONMember("screen", .string(shell.topScreen.name)),
      JSONMember("tab", .string(shell.tabs[shell.selectedTab].title)),
      JSONMember("refused", refused.map(JSON.string) ?? .null),
    ]
  }
}
