import Foundation
import Routing
import TestSupport
import Testing

@testable import Shell

/// An app and its model, driven by events as the front end would.
struct Harness {
  let app: ShellApp
  var model: AppModel
  /// Every effect returned so far, in order.
  var effects: [Effect] = []

  init(app: ShellApp = FixtureApp.app("shell")) {
    self.app = app
    model = app.initialModel()
  }

  var state: ShellState { model.shell }

  @discardableResult
  mutating func send(_ event: ShellEvent) -> [Effect] {
    let produced = app.reduce(&model, event)
    effects += produced
    return produced
  }

  @discardableResult
  mutating func open(_ url: String, from origin: URLOrigin = .prompt) -> [Effect] {
    send(.urlOpened(url, origin: origin))
  }

  /// Follows the first link on the top screen whose label is `label`.
  @discardableResult
  mutating func follow(
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> [Effect] {
    guard let index = state.topScreen.links.firstIndex(where: { $0.label == label }) else {
      Issue.record(
        "no link \(label) on \(state.topScreen.name): \(state.topScreen.links.map(\.label))",
        sourceLocation: sourceLocation)
      return []
    }
    return send(.linkFollowed(index))
  }

  /// The screen names of a tab's stack.
  func names(tab: Int) -> [String] { state.tabs[tab].stack.map(\.name) }

  /// The screen names of each modal's stack, bottom to top.
  var modalNames: [[String]] { state.modals.map { $0.stack.map(\.name) } }
}
