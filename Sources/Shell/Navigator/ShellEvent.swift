import Routing

/// Something that happened to the app, named after what happened; the only way to change an
/// ``AppModel`` is ``ShellApp/reduce(_:_:)`` with one of these.
package enum ShellEvent: Sendable, Hashable {
  /// A URL was opened from an origin.
  case urlOpened(String, origin: URLOrigin)
  /// A URL was opened for a result: the opened screen's value comes back under the request.
  case urlOpenedForResult(String, origin: URLOrigin, request: ResultRequest)
  /// The app was launched with a URL: its `parent` chain is pushed first.
  case launchedWithURL(String)
  /// Back (Esc): dismiss the alert, cancel work in flight, or pop/dismiss.
  case backRequested
  /// A tab was selected.
  case tabSelected(Int)
  /// The alert was dismissed.
  case alertDismissed
  /// The link at this index on the top screen was followed.
  case linkFollowed(Int)
  /// The top screen finished with a value for the screen that opened it.
  case screenFinished(String)
  /// Async work finished with a result.
  case workFinished(token: Int, result: ActionResult)
  /// A push notification arrived: a banner shows (replacing one already shown).
  case pushReceived(title: String, body: String, url: String?)
  /// The user selected the banner: its URL opens as a URL from outside.
  case bannerOpened
  /// The banner with this id has been shown for its lifetime.
  case bannerExpired(id: Int)
  /// The app noted something about itself (a table loaded or refused, a bad socket message).
  case noted(String, isProblem: Bool)
}

/// What the outside world must do for the app: the only way out of the pure core.
package enum Effect: Sendable, Hashable {
  /// Deliver `workFinished(token:result:)` after a delay, unless cancelled.
  case finishLater(token: Int, after: Duration, result: ActionResult)
  /// Cancel the work with this token.
  case cancelWork(token: Int)
  /// Deliver `bannerExpired(id:)` after a delay.
  case expireBanner(id: Int, after: Duration)
  /// Read the route table (and the app's files) again and put what fits in force, or note
  /// why not (Ctrl-R in the console).
  case reload
}

/// What an action handler ends with.
package enum ActionResult: Sendable, Hashable {
  /// Show this in the status line.
  case status(String)
  /// Open this URL (with the origin of the URL that started the action).
  case open(String)
  /// Show an alert.
  case alert(Alert)
  /// Apply the data action of this name with these parameters.
  case data(action: String, params: Parameters)
}

/// What an action handler does: finish now, or later (simulated network work).
package enum ActionOutcome: Sendable, Hashable {
  /// Finished now.
  case done(ActionResult)
  /// Finishes after a delay; the status line shows the description meanwhile.
  case later(after: Duration, description: String, result: ActionResult)
}

/// What an action handler is given.
package struct ActionRequest: Sendable {
  /// The match parameters after `rename`.
  package var params: Parameters
  /// The screen on top when the action ran (a handler may act on it).
  package var topScreen: Screen
  /// Where the URL came from.
  package var origin: URLOrigin
  /// The route table in force (a handler may say a destination's URL).
  package var table: RouteTable
}

/// An action handler registered in Swift by name; it may change the session.
package typealias ActionHandler = @Sendable (inout Session, ActionRequest) -> ActionOutcome

/// A guard: the condition a route may require, and the URL of the screen that makes it hold.
package struct GuardRule: Sendable {
  /// Whether the condition holds.
  package var isMet: @Sendable (Session) -> Bool
  /// The URL opened (from inside the app) when it does not, such as `myapp://login`.
  package var url: String

  /// Makes a guard.
  package init(url: String, isMet: @escaping @Sendable (Session) -> Bool) {
    self.url = url
    self.isMet = isMet
  }
}
