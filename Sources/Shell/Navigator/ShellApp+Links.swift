import Links
import Routing

extension ShellApp {
  /// Who gets `url` when it comes from outside the app (a tap in another app, a web page, a
  /// push, `openurl`, `--open`): the app, Safari or nothing, why, and the AASA member that
  /// decided. An app without `links` gets every URL.
  package func delivery(of url: String) -> LinkDelivery {
    links?.delivery(of: url) ?? LinkPolicy.everything
  }

  /// ``delivery(of:)`` for a URL from `origin`: from inside the app, every URL opens the app.
  package func delivery(of url: String, from origin: URLOrigin) -> LinkDelivery {
    guard origin.routing == .external else {
      return LinkDelivery(opens: .app, reason: "opened from inside the app")
    }
    return delivery(of: url)
  }

  /// Whether the app gets `url` from `origin`; when it does not, the event log records who
  /// does and why, and nothing else changes.
  func delivered(_ url: String, origin: URLOrigin, _ model: inout AppModel) -> Bool {
    let decision = delivery(of: url, from: origin)
    guard decision.opens != .app else { return true }
    model.log.append(
      LogEntry(
        origin: origin, url: url, pattern: nil, params: [:], redirects: [],
        outcome: .notDelivered(opens: decision.opens.rawValue, reason: decision.reason)))
    return false
  }

  /// How a screen from outside landed.
  enum Landing {
    /// Ready to push or present; what was done first, if anything.
    case landed(String?)
    /// The stack already had the screen and was popped back to it.
    case reused(String)
  }

  /// Prepares the state for a screen route's screen arriving from outside: with `tab`, the
  /// modals and the alert go and the tab is selected; then `arrival` (for a pushed screen)
  /// resets the stack to its root and the route's `parent` chain, or pops back to the same
  /// screen when the stack has it.
  func land(_ route: RouteEntry, _ screen: Screen, _ model: inout AppModel) -> Landing {
    var done: [String] = []
    if let title = route.tab, let index = tabs.firstIndex(where: { $0.title == title }) {
      if !model.shell.modals.isEmpty {
        while model.shell.dismiss() {}
        done.append("dismissed the modals")
      }
      model.shell.dismissAlert()
      if model.shell.selectedTab != index {
        model.shell.selectTab(index)
        done.append("switched to \(title)")
      }
    }
    guard route.presentation == .push else { return .landed(text(done)) }
    switch route.arrival {
    case .push:
      break
    case .reset:
      model.shell.popToRoot()
      for parent in parentScreens(of: route, session: model.session)
      where !model.shell.currentStack.contains(where: { $0.isSameScreen(as: parent) }) {
        model.shell.push(parent)
      }
      done.append("reset")
    case .reuse:
      if let index = model.shell.currentStack.lastIndex(where: { $0.isSameScreen(as: screen) }) {
        while model.shell.currentStack.count > index + 1 { model.shell.pop() }
        done.append("reused")
        return .reused(done.joined(separator: ", "))
      }
    }
    return .landed(text(done))
  }

  private func text(_ done: [String]) -> String? {
    done.isEmpty ? nil : done.joined(separator: ", ")
  }

  /// On a cold start, the tab of the URL's final route (if it has one) is selected before its
  /// parents are pushed.
  func selectArrivalTab(of url: String, _ model: inout AppModel) {
    guard case .matched(let route, _) = table.resolve(url, from: .external).outcome,
      let title = route.tab, let index = tabs.firstIndex(where: { $0.title == title })
    else { return }
    model.shell.selectTab(index)
  }

  /// The screens of a route's `parent` chain, root-most first (those that cannot be made are
  /// left out).
  func parentScreens(of route: RouteEntry, session: Session) -> [Screen] {
    var chain: [Screen] = []
    var next = route.parent
    var seen: Set<Int> = [route.index]
    while let parentURL = next,
      case .matched(let parent, let params) = table.resolve(parentURL).outcome,
      seen.insert(parent.index).inserted
    {
      if case .screen(let name) = parent.target,
        case .success(let screen) = catalog.make(
          name, params: params, url: parentURL, session: session, table: table)
      {
        chain.insert(screen, at: 0)
      }
      next = parent.parent
    }
    return chain
  }
}
