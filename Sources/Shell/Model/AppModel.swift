import Routing

/// Where a URL came from, as the app tells them apart and the event log records it. The
/// router needs less: ``URLOrigin/routing`` is the `Origin` (inside the app, or outside) a URL is
/// resolved from; ``LinkOrigin`` names the three a user opens a URL from.
package enum URLOrigin: String, Sendable, Hashable, CaseIterable {
  /// Typed at the URL prompt.
  case prompt
  /// A link on a screen.
  case link
  /// A push banner.
  case banner
  /// A URL handed in from outside while running (`appshell openurl`).
  case external
  /// The URL the app was launched with (`--open`).
  case coldStart = "cold-start"

  /// The origin as the router tells them apart: inside the app, or from outside (where
  /// `external: false` routes are refused).
  package var routing: Origin {
    switch self {
    case .prompt, .link: return .app
    case .banner, .external, .coldStart: return .external
    }
  }

  /// How the origin reads in a message: "a push banner", "an outside URL", ...
  package var phrase: String {
    switch self {
    case .prompt: return "the URL prompt"
    case .link: return "a link"
    case .banner: return "a push banner"
    case .external: return "an outside URL"
    case .coldStart: return "a cold start"
    }
  }
}

/// The three origins a user can open a URL from, as the link surface and link contracts (their
/// `from`) name them; each is one ``URLOrigin``. `AppShellKit` has a public one of its own.
package enum LinkOrigin: String, Sendable, Hashable, CaseIterable {
  /// Typed or followed inside the app.
  case inside
  /// Handed in from outside while the app runs (iOS decides delivery first).
  case outside
  /// The URL the app is launched with (delivered as from outside).
  case cold

  /// The app's name for this origin: the prompt, an outside URL, a cold start.
  package var urlOrigin: URLOrigin {
    switch self {
    case .inside: return .prompt
    case .outside: return .external
    case .cold: return .coldStart
    }
  }
}

/// A notification that was posted: its name and user info.
package struct PostedNotification: Sendable, Hashable {
  /// The notification name, such as `CCFAnimalNotification`.
  package var name: String
  /// The parameters, as user info.
  package var userInfo: Parameters
}

/// The app's own data, which screens may show: flags, notifications received, counts kept by
/// Swift actions.
package struct Session: Sendable, Hashable {
  /// The app's flags (`app.json`'s `flags`), with their current values.
  package var flags = Flags()
  /// The flags' values at start, which a reset goes back to.
  package var initialFlags = Flags()
  /// Notifications received, oldest first.
  package var notifications: [PostedNotification] = []
  /// Counts that an app's Swift actions keep, by a key of their choosing; a reset clears them.
  package var counters: [String: Int] = [:]

  /// Makes a fresh session: nothing received, no flags.
  package init() {}

  /// Makes a fresh session with these flags.
  package init(flags: Flags) {
    self.flags = flags
    initialFlags = flags
  }

  /// Whether the `signedIn` flag is true (the shipped app's `signed-in` guard).
  package var signedIn: Bool {
    get { flags["signedIn"] == .bool(true) }
    set { flags["signedIn"] = .bool(newValue) }
  }
}

/// One entry of the event log: one per URL opened.
package struct LogEntry: Sendable, Hashable {
  /// Where the URL came from.
  package var origin: URLOrigin
  /// The URL as opened.
  package var url: String
  /// The pattern of the final route, when one matched.
  package var pattern: String?
  /// The final parameters (after `rename`).
  package var params: Parameters
  /// URLs produced by redirects, in order.
  package var redirects: [String]
  /// What happened.
  package var outcome: Outcome
  /// How a screen from outside landed before it showed (`switched to Orders, reset`), if it
  /// did anything but push.
  package var landing: String?

  /// What opening a URL did.
  package enum Outcome: Sendable, Hashable {
    /// A screen was pushed (by name).
    case pushed(String)
    /// A screen was presented (by name).
    case presented(String)
    /// The same screen was already on top; nothing was pushed.
    case alreadyShown(String)
    /// An action handler ran; its status text.
    case handled(action: String, status: String)
    /// An async action handler started.
    case started(action: String)
    /// A notification was posted.
    case notified(String)
    /// The route's guard does not hold; its screen was opened first.
    case guarded(String)
    /// A state URL replaced the whole navigation state.
    case restored
    /// Refused; the reason (an alert said so).
    case refused(String)
    /// Not opened; an alert with this title said why.
    case failed(title: String, message: String)
    /// A URL from outside that iOS does not hand to the app: who opens it instead
    /// (`safari` or `nothing`) and why. Nothing in the app changed.
    case notDelivered(opens: String, reason: String)
  }
}

/// An async action handler that has not finished yet.
package struct PendingWork: Sendable, Hashable {
  /// Identifies the work; a result with another token is dropped.
  package var token: Int
  /// What the status line shows while it runs.
  package var description: String
  /// Where the URL that started it came from (the result opens with the same origin).
  package var origin: URLOrigin
}

/// A URL waiting for a guard's condition to hold.
package struct GuardContinuation: Sendable, Hashable {
  /// The guard name, such as `signed-in`.
  package var guardName: String
  /// The URL to open once it holds.
  package var url: String
  /// Where that URL came from.
  package var origin: URLOrigin
  /// How many modals were up before the guard's screen was presented; dismissing below this
  /// cancels the continuation.
  package var modalDepth: Int
  /// Where the opened screen's result goes, when the URL was opened for one.
  package var request: ResultRequest?
}

/// A push notification shown as a banner over the app (`appshell push`): selecting it opens
/// its URL as a URL from outside; it goes away by itself after ``Banner/lifetime``.
package struct Banner: Sendable, Hashable {
  /// Identifies this banner; an expiry for another banner is ignored.
  package var id: Int
  /// The alert title (APNs `aps.alert.title`).
  package var title: String
  /// The alert body (APNs `aps.alert.body`).
  package var body: String
  /// The URL it opens when selected, if it carries one.
  package var url: String?

  /// How long a banner stays when nobody selects it.
  package static let lifetime: Duration = .seconds(5)
}

/// Something the app itself noted (a route table loaded or refused, a bad socket message): it
/// shows in the status line and, between the URL entries, in the event log.
package struct Note: Sendable, Hashable {
  /// What happened.
  package var text: String
  /// Whether something was refused or failed (drawn as a problem).
  package var isProblem: Bool
  /// How many URL log entries came before it, to place it in the log.
  package var position: Int
}

/// Everything the navigator changes: navigation state, session, event log, status line and
/// work in flight. A value, so a test can compare two.
package struct AppModel: Sendable, Hashable {
  /// The navigation state (tabs, stacks, modals, alert).
  package var shell: ShellState
  /// The app's data.
  package var session = Session()
  /// One entry per URL opened, oldest first.
  package var log: [LogEntry] = []
  /// The one-line status.
  package var status = ""
  /// An async handler in flight, if any.
  package var pending: PendingWork?
  /// A URL waiting for a guard, if any.
  package var continuation: GuardContinuation?
  /// The next token for async work and banners.
  package var nextToken = 1
  /// The push banner shown, if any.
  package var banner: Banner?
  /// What the app noted about itself, oldest first (the last ``maxNotes``).
  package var notes: [Note] = []
  /// How many notes are kept.
  package static let maxNotes = 200

  /// Makes a model around a navigation state.
  package init(shell: ShellState) { self.shell = shell }
}
