import Links

// The wording of the event log: one place for the text the log pane, the socket's `state`
// reply, `openurl`'s report and `HeadlessSession.log` show.

extension LogEntry {
  /// The entry's first line in the log pane: `[origin] URL`.
  package var headline: String { "[\(origin.rawValue)] \(url)" }

  /// The entry's second line in the log pane, and the outcome `openurl` and `appshell state`
  /// report: `⇒ redirects ~ pattern {params} → landing, outcome`.
  package var detail: String {
    var parts: [String] = []
    if !redirects.isEmpty { parts.append("⇒ " + redirects.joined(separator: " ⇒ ")) }
    if let pattern { parts.append("~ \(pattern)") }
    if !params.isEmpty {
      let params = params.keys.sorted().map { "\($0)=\(self.params[$0]!.displayText)" }
      parts.append("{" + params.joined(separator: " ") + "}")
    }
    parts.append("→ " + (landing.map { $0 + ", " } ?? "") + outcome.text)
    return parts.joined(separator: " ")
  }

  /// The entry as one line, `ORIGIN URL -> OUTCOME` (`HeadlessSession.log`), with the
  /// outcome in fewer words than ``LogEntry/detail``.
  package var summary: String {
    "\(origin.rawValue) \(url) -> \(outcome.summary)"
  }

  /// `opened in Safari: REASON` or `nothing opens it: REASON`.
  package static func notDeliveredText(opens: String, reason: String) -> String {
    opens == LinkOpener.safari.rawValue
      ? "opened in Safari: \(reason)" : "nothing opens it: \(reason)"
  }
}

extension LogEntry.Outcome {
  /// Whether the URL did not open what it asked for (refused, failed, not delivered): the
  /// log pane draws it as a problem.
  package var isProblem: Bool {
    switch self {
    case .refused, .failed, .notDelivered: return true
    default: return false
    }
  }

  /// The outcome as the log pane and the reports word it: `pushed product`, `refused: why`.
  package var text: String {
    switch self {
    case .pushed(let name): return "pushed \(name)"
    case .presented(let name): return "presented \(name)"
    case .alreadyShown(let name): return "already showing \(name)"
    case .handled(let action, let status): return "handled \(action): \(status)"
    case .started(let action): return "started \(action)"
    case .notified(let name): return "notified \(name)"
    case .guarded(let name): return "guarded by \(name)"
    case .restored: return "restored state"
    case .refused(let reason): return "refused: \(reason)"
    case .failed(let title, let message): return "\(title): \(message)"
    case .notDelivered(let opens, let reason):
      return LogEntry.notDeliveredText(opens: opens, reason: reason)
    }
  }

  /// The outcome in the words of ``LogEntry/summary``: `pushed product`, `posted NAME`,
  /// `ACTION: status`.
  package var summary: String {
    switch self {
    case .handled(let action, let status): return "\(action): \(status)"
    case .notified(let name): return "posted \(name)"
    case .restored: return "restored the state"
    default: return text
    }
  }
}
