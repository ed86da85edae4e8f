import Routing

/// A selectable line on a screen: it opens a URL, or finishes the screen with a result.
package struct Link: Sendable, Hashable {
  /// The text shown.
  package var label: String
  /// What following the link does.
  package var action: Action

  /// What following a link does.
  package enum Action: Sendable, Hashable {
    /// Open this URL from inside the app.
    case open(String)
    /// Open this URL and hand the value it finishes with back under `key` on this screen.
    case openForResult(String, key: String)
    /// Finish this screen, handing this value back to the screen that opened it.
    case finish(String)
  }

  /// Makes a link.
  package init(_ label: String, _ action: Action) {
    self.label = label
    self.action = action
  }
}

/// A screen (a `UIViewController`): made by a factory from its parameters; plain data, so two
/// states can be compared.
package struct Screen: Sendable, Hashable {
  /// The factory name, such as `order-detail`.
  package var name: String
  /// The navigation-bar title.
  package var title: String
  /// The route's match parameters after `rename`.
  package var params: Parameters
  /// The body text, one entry a line.
  package var body: [String]
  /// The selectable links, in order.
  package var links: [Link]
  /// The URL the screen was opened with, when it came from one.
  package var url: String?
  /// Set when the screen was opened for a result: where its value goes when it finishes.
  package var resultRequest: ResultRequest?

  /// Makes a screen.
  package init(
    name: String, title: String, params: Parameters = [:], body: [String] = [], links: [Link] = [],
    url: String? = nil
  ) {
    self.name = name
    self.title = title
    self.params = params
    self.body = body
    self.links = links
    self.url = url
  }

  /// Same screen for the duplicate-push check: same factory and same parameters.
  package func isSameScreen(as other: Screen) -> Bool {
    name == other.name && params == other.params
  }
}

/// Where the value of a screen opened for a result goes when it finishes.
package struct ResultRequest: Sendable, Hashable {
  /// The opener's parameter that receives the value.
  package var key: String

  /// Makes a result request.
  package init(key: String) {
    self.key = key
  }
}

/// A tab of the tab bar, with its own navigation stack (never empty: the root stays).
package struct Tab: Sendable, Hashable {
  /// The tab's title in the tab bar.
  package var title: String
  /// The navigation stack, root first.
  package var stack: [Screen]

  /// Makes a tab with its root screen.
  package init(title: String, root: Screen) {
    self.title = title
    stack = [root]
  }

  /// Makes a tab with a whole stack (root first).
  package init(title: String, stack: [Screen]) {
    self.title = title
    self.stack = stack
  }
}

/// A presented modal: a navigation stack drawn over everything.
package struct Modal: Sendable, Hashable {
  /// The modal's navigation stack, root first.
  package var stack: [Screen]

  /// Makes a modal around its root screen.
  package init(root: Screen) { stack = [root] }

  /// Makes a modal with a whole stack (root first).
  package init(stack: [Screen]) { self.stack = stack }
}

/// An alert (`UIAlertController`): title, message, buttons.
package struct Alert: Sendable, Hashable {
  /// `No route`, `Upgrade required`, `Missing parameter`, `Invalid parameter`, `Refused`, ...
  package var title: String
  /// Names the URL or the parameter.
  package var message: String
  /// The button labels.
  package var buttons: [String]

  /// Makes an alert with an OK button.
  package init(title: String, message: String, buttons: [String] = ["OK"]) {
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// The navigation state of the app: tabs, modals and at most one alert.
///
/// Every transition keeps the invariants: each stack has its root, the selected tab exists,
/// popping a root or dismissing with no modal up changes nothing.
package struct ShellState: Sendable, Hashable {
  /// The tabs, in tab-bar order.
  package private(set) var tabs: [Tab]
  /// The index of the selected tab.
  package private(set) var selectedTab: Int
  /// The presented modals, bottom to top.
  package private(set) var modals: [Modal]
  /// The alert shown over everything, if any.
  package private(set) var alert: Alert?

  /// Makes a state with these tabs (at least one), the first selected.
  package init(tabs: [Tab]) {
    precondition(!tabs.isEmpty, "an app shell has at least one tab")
    self.tabs = tabs
    selectedTab = 0
    modals = []
    alert = nil
  }

  /// Makes a state from all its parts; nil when a stack is empty or the tab does not exist.
  package init?(tabs: [Tab], selectedTab: Int, modals: [Modal], alert: Alert?) {
    guard tabs.indices.contains(selectedTab),
      tabs.allSatisfy({ !$0.stack.isEmpty }), modals.allSatisfy({ !$0.stack.isEmpty })
    else { return nil }
    self.tabs = tabs
    self.selectedTab = selectedTab
    self.modals = modals
    self.alert = alert
  }

  /// The stack a push goes to: the top modal's, else the selected tab's.
  package var currentStack: [Screen] {
    modals.last?.stack ?? tabs[selectedTab].stack
  }

  /// The screen on top of the current stack.
  package var topScreen: Screen { currentStack[currentStack.count - 1] }

  /// Pushes onto the current navigation stack.
  package mutating func push(_ screen: Screen) {
    if modals.isEmpty {
      tabs[selectedTab].stack.append(screen)
    } else {
      modals[modals.count - 1].stack.append(screen)
    }
  }

  /// Pops the current stack; a root stays. Returns whether anything was popped.
  @discardableResult
  package mutating func pop() -> Bool {
    if let top = modals.indices.last {
      guard modals[top].stack.count > 1 else { return false }
      modals[top].stack.removeLast()
    } else {
      guard tabs[selectedTab].stack.count > 1 else { return false }
      tabs[selectedTab].stack.removeLast()
    }
    return true
  }

  /// Pops the current stack down to its root.
  package mutating func popToRoot() {
    while pop() {}
  }

  /// Selects a tab; an index out of range changes nothing.
  package mutating func selectTab(_ index: Int) {
    guard tabs.indices.contains(index) else { return }
    selectedTab = index
  }

  /// Presents a screen as a modal in its own navigation stack.
  package mutating func present(_ screen: Screen) {
    modals.append(Modal(root: screen))
  }

  /// Dismisses the top modal; returns whether there was one.
  @discardableResult
  package mutating func dismiss() -> Bool {
    modals.popLast() != nil
  }

  /// Shows an alert, replacing one already shown.
  package mutating func showAlert(_ alert: Alert) { self.alert = alert }

  /// Dismisses the alert.
  package mutating func dismissAlert() { alert = nil }

  /// Goes back as Esc does: pops the top modal's stack, or dismisses the modal when only its
  /// root is left, else pops the selected tab's stack (a root stays).
  @discardableResult
  package mutating func back() -> Bool {
    if let top = modals.indices.last, modals[top].stack.count == 1 {
      return dismiss()
    }
    return pop()
  }

  /// Replaces the screen on top of the current stack (for a screen that updates in place).
  package mutating func replaceTop(_ screen: Screen) {
    if modals.isEmpty {
      tabs[selectedTab].stack[tabs[selectedTab].stack.count - 1] = screen
    } else {
      let top = modals.count - 1
      modals[top].stack[modals[top].stack.count - 1] = screen
    }
  }

  /// Calls `update` on every screen in every stack (for screens that observe notifications).
  package mutating func updateScreens(_ update: (inout Screen) -> Void) {
    for tab in tabs.indices {
      for index in tabs[tab].stack.indices { update(&tabs[tab].stack[index]) }
    }
    for modal in modals.indices {
      for index in modals[modal].stack.indices { update(&modals[modal].stack[index]) }
    }
  }
}
