import Routing

/// The navigator singleton of the seeds (`[HKWHNavigator center]`, URLNavigator's
/// `navigator`): a thin facade that keeps an ``AppModel`` and applies events to it through
/// ``ShellApp/reduce(_:_:)``.
///
/// `Navigator.shared` is what the app uses; tests make their own with `Navigator(app:)`.
/// Effects that need a clock (async handlers) are handed to ``effectHandler``; without one,
/// delayed work finishes at once.
@MainActor
package final class Navigator {
  /// The app's navigator; the app installs its ``ShellApp`` at start-up with ``install(_:)``.
  package static let shared = Navigator(app: nil)

  /// The app definition in force.
  package private(set) var app: ShellApp?
  /// The current model.
  package private(set) var model: AppModel
  /// Runs the effects a transition asks for; nil runs delayed work at once.
  package var effectHandler: ((Effect) -> Void)?
  private var completions: [Int: (String?) -> Void] = [:]
  private var nextCompletion = 1

  /// Makes a navigator for an app (nil: an empty one until ``install(_:)``).
  package init(app: ShellApp?) {
    self.app = app
    model =
      app?.initialModel()
      ?? AppModel(
        shell: ShellState(tabs: [Tab(title: "Home", root: Screen(name: "home", title: "Home"))]))
  }

  /// Installs an app and starts from its initial model.
  package func install(_ app: ShellApp) {
    self.app = app
    model = app.initialModel()
  }

  /// Replaces the route table (live reload); open screens stay open.
  package func replaceTable(_ table: RouteTable) {
    app?.table = table
  }

  /// The current navigation state.
  package var state: ShellState { model.shell }

  /// Whether `url` resolves to a route (as from inside the app, or from `origin`); from
  /// outside, the app must also get the URL (``ShellApp/delivery(of:from:)``).
  package func canOpen(_ url: String, from origin: URLOrigin = .prompt) -> Bool {
    guard let app, app.delivery(of: url, from: origin).opens == .app else { return false }
    return app.table.canOpen(url, from: origin.routing)
  }

  /// Opens a URL from a origin: push, present, run an action, post a notification or show an
  /// alert saying why not.
  package func open(_ url: String, from origin: URLOrigin = .prompt) {
    send(.urlOpened(url, origin: origin))
  }

  /// Opens a URL for a result: `completion` gets the value the opened screen finishes with,
  /// or nil when it is closed without one.
  package func open(
    _ url: String, from origin: URLOrigin = .prompt, completion: @escaping (String?) -> Void
  ) {
    let token = nextCompletion
    nextCompletion += 1
    completions[token] = completion
    send(.urlOpenedForResult(url, origin: origin, request: ResultRequest(token: token)))
  }

  /// Applies an event and runs its effects.
  package func send(_ event: ShellEvent) {
    guard let app else { return }
    let effects = app.reduce(&model, event)
    for effect in effects { run(effect) }
  }

  private func run(_ effect: Effect) {
    if case .deliverResult(let token, let value) = effect {
      completions.removeValue(forKey: token)?(value)
      return
    }
    if let effectHandler {
      effectHandler(effect)
    } else if case .finishLater(let token, _, let result) = effect {
      send(.workFinished(token: token, result: result))
    }
  }
}
