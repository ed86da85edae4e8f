import Routing

/// Where a URL came from (its provenance), kept in the event log.
public enum Source: String, Sendable, Hashable, CaseIterable {
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

  /// Inside the app, or from outside (where `external: false` routes are refused).
  public var origin: Origin {
    switch self {
    case .prompt, .link: return .app
    case .banner, .external, .coldStart: return .external
    }
  }

  /// How the source reads in a message: "a push banner", "an outside URL", ...
  public var phrase: String {
    switch self {
    case .prompt: return "the URL prompt"
    case .link: return "a link"
    case .banner: return "a push banner"
    case .external: return "an outside URL"
    case .coldStart: return "a cold start"
    }
  }
}

/// A notification that was posted: its name and user info.
public struct PostedNotification: Sendable, Hashable {
  /// The notification name, such as `CCFAnimalNotification`.
  public var name: String
  /// The parameters, as user info.
  public var userInfo: Parameters
}

/// The app's own data, which screens may show: sign-in, notifications received, likes.
public struct Session: Sendable, Hashable {
  /// Whether the user is signed in (the `signed-in` guard).
  public var signedIn = false
  /// Notifications received, oldest first.
  public var notifications: [PostedNotification] = []
  /// Likes per pk id (XYWdispatcher's `pkdetail/like`).
  public var likes: [Int64: Int] = [:]

  /// Makes a fresh session: signed out, nothing received.
  public init() {}
}

/// One entry of the event log: one per URL opened.
public struct LogEntry: Sendable, Hashable {
  /// Where the URL came from.
  public var source: Source
  /// The URL as opened.
  public var url: String
  /// The pattern of the final route, when one matched.
  public var pattern: String?
  /// The final parameters (after `rename`).
  public var params: Parameters
  /// URLs produced by redirects, in order.
  public var redirects: [String]
  /// What happened.
  public var outcome: Outcome

  /// What opening a URL did.
  public enum Outcome: Sendable, Hashable {
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
  }
}

/// An async action handler that has not finished yet.
public struct PendingWork: Sendable, Hashable {
  /// Identifies the work; a result with another token is dropped.
  public var token: Int
  /// What the status line shows while it runs.
  public var description: String
  /// Where the URL that started it came from (the result opens with the same source).
  public var source: Source
}

/// A URL waiting for a guard's condition to hold.
public struct GuardContinuation: Sendable, Hashable {
  /// The guard name, such as `signed-in`.
  public var guardName: String
  /// The URL to open once it holds.
  public var url: String
  /// Where that URL came from.
  public var source: Source
  /// How many modals were up before the guard's screen was presented; dismissing below this
  /// cancels the continuation.
  public var modalDepth: Int
  /// Where the opened screen's result goes, when the URL was opened for one.
  public var request: ResultRequest?
}

/// A push notification shown as a banner over the app (`appshell push`): selecting it opens
/// its URL as a URL from outside; it goes away by itself after ``Banner/lifetime``.
public struct Banner: Sendable, Hashable {
  /// Identifies this banner; an expiry for another banner is ignored.
  public var id: Int
  /// The alert title (APNs `aps.alert.title`).
  public var title: String
  /// The alert body (APNs `aps.alert.body`).
  public var body: String
  /// The URL it opens when selected, if it carries one.
  public var url: String?

  /// How long a banner stays when nobody selects it.
  public static let lifetime: Duration = .seconds(5)
}

/// Something the app itself noted (a route table loaded or refused, a bad socket message): it
/// shows in the status line and, between the URL entries, in the event log.
public struct Note: Sendable, Hashable {
  /// What happened.
  public var text: String
  /// Whether something was refused or failed (drawn as a problem).
  public var isProblem: Bool
  /// How many URL log entries came before it, to place it in the log.
  public var position: Int
}

/// Everything the navigator changes: navigation state, session, event log, status line and
/// work in flight. A value, so a test can compare two.
public struct AppModel: Sendable, Hashable {
  /// The navigation state (tabs, stacks, modals, alert).
  public var shell: ShellState
  /// The app's data.
  public var session = Session()
  /// One entry per URL opened, oldest first.
  public var log: [LogEntry] = []
  /// The one-line status.
  public var status = ""
  /// An async handler in flight, if any.
  public var pending: PendingWork?
  /// A URL waiting for a guard, if any.
  public var continuation: GuardContinuation?
  /// The next token for async work and banners.
  public var nextToken = 1
  /// The push banner shown, if any.
  public var banner: Banner?
  /// What the app noted about itself, oldest first (the last ``maxNotes``).
  public var notes: [Note] = []
  /// How many notes are kept.
  public static let maxNotes = 200

  /// Makes a model around a navigation state.
  public init(shell: ShellState) { self.shell = shell }
}
