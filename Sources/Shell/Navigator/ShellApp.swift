import JSON
import Links
import Routing

/// An app: its route table, screen factories, action handlers, guards, tabs and version; and
/// the navigator, ``reduce(_:_:)``: the pure transition function that resolves each URL
/// through the route table to a screen factory and pushes or presents it (or runs an action,
/// posts a notification, shows an alert), logging what happened. There is no navigator object:
/// every URL, whoever opens it, is a ``ShellEvent`` sent to whatever holds the ``AppModel``
/// (the console of the front end, a replayer), and Swift screens and actions open URLs by
/// returning values (a link, ``ActionResult/open(_:)``) that this function follows.
package struct ShellApp: Sendable {
  /// A tab: its title and the factory name of its root screen.
  package struct TabSpec: Sendable, Hashable {
    /// The tab's title.
    package var title: String
    /// The root screen's factory name.
    package var root: String
    /// The root screen's parameters (from its root URL).
    package var params: Parameters

    /// Makes a tab description.
    package init(title: String, root: String, params: Parameters = [:]) {
      self.title = title
      self.root = root
      self.params = params
    }
  }

  /// The route table in force.
  package var table: RouteTable
  /// The screen factories.
  package var catalog: ScreenCatalog
  /// Action handlers by name.
  package var actions: [String: ActionHandler]
  /// Guards by name.
  package var guards: [String: GuardRule]
  /// The tabs, in order.
  package var tabs: [TabSpec]
  /// The app's version, compared with routes' `minVersion`.
  package var version: AppVersion
  /// Actions defined in data, by name.
  package var dataActions: [String: DataAction]
  /// The flags and their values at start.
  package var flags: Flags
  /// The app's name.
  package var name: String
  /// Who gets a URL from outside (`app.json`'s `links`); nil: every URL reaches the app.
  package var links: LinkPolicy?

  /// Makes an app from its parts.
  package init(
    table: RouteTable, catalog: ScreenCatalog, actions: [String: ActionHandler] = [:],
    guards: [String: GuardRule] = [:], tabs: [TabSpec], version: AppVersion,
    dataActions: [String: DataAction] = [:], flags: Flags = Flags(), name: String = "AppShell",
    links: LinkPolicy? = nil
  ) {
    self.links = links
    self.table = table
    self.catalog = catalog
    self.actions = actions
    self.guards = guards
    self.tabs = tabs
    self.version = version
    self.dataActions = dataActions
    self.flags = flags
    self.name = name
  }

  /// Checks that the table fits this app: every guard it names is known, and every tab root
  /// has a factory. (Unknown screens and actions are allowed: they ask the user to upgrade.)
  package func validate() throws(RouteTableError) {
    for entry in table.entries {
      if let name = entry.guardName, guards[name] == nil {
        let known = guards.keys.sorted().joined(separator: ", ")
        throw RouteTableError(
          "routes[\(entry.index)].guard: unknown guard '\(name)'"
            + "\(CloseName.hint(for: name, in: guards.keys.sorted())) (this app knows: \(known))")
      }
    }
    // A guard's own screen must open without that guard, or opening it would loop.
    for (name, rule) in guards.sorted(by: { $0.key < $1.key }) {
      if case .matched(let route, _) = table.resolve(rule.url).outcome, route.guardName != nil {
        throw RouteTableError(
          "routes[\(route.index)].guard: the '\(name)' guard's own URL \(JSON.quote(rule.url)) cannot be guarded"
        )
      }
    }
    for entry in table.entries where !tabs.isEmpty {
      if let title = entry.tab, !tabs.contains(where: { $0.title == title }) {
        let known = tabs.map { JSON.quote($0.title) }.joined(separator: ", ")
        throw RouteTableError(
          "routes[\(entry.index)].tab: no tab titled \(JSON.quote(title))"
            + "\(CloseName.hint(for: title, in: tabs.map(\.title))) (this app's tabs: \(known))"
        )
      }
    }
    for tab in tabs where !catalog.has(tab.root) {
      throw RouteTableError("tab \(JSON.quote(tab.title)): no screen named '\(tab.root)'")
    }
  }

  /// A fresh model: every tab at its root, the first selected, nothing presented; with a
  /// fresh session, or the one given.
  package func initialModel(session given: Session? = nil) -> AppModel {
    let session = given ?? Session(flags: flags)
    let tabs = self.tabs.map { spec in
      let root =
        (try? catalog.make(spec.root, params: spec.params, url: nil, session: session, table: table)
          .get())
        ?? Screen(name: spec.root, title: spec.title)
      return Tab(title: spec.title, root: root)
    }
    var model = AppModel(shell: ShellState(tabs: tabs))
    model.session = session
    return model
  }

  /// Applies one event to the model and returns what the outside world must do.
  package func reduce(_ model: inout AppModel, _ event: ShellEvent) -> [Effect] {
    var effects: [Effect] = []
    switch event {
    case .urlOpened(let url, let origin):
      guard delivered(url, origin: origin, &model) else { break }
      open(url, origin: origin, request: nil, &model, &effects)
    case .urlOpenedForResult(let url, let origin, let request):
      guard delivered(url, origin: origin, &model) else { break }
      open(url, origin: origin, request: request, &model, &effects)
    case .launchedWithURL(let url):
      guard delivered(url, origin: .coldStart, &model) else { break }
      // The parent chain goes in only if the URL itself opens; otherwise the alert shows over
      // the untouched state.
      var attempt = model
      var attemptEffects: [Effect] = []
      selectArrivalTab(of: url, &attempt)
      pushParents(of: url, &attempt)
      open(url, origin: .coldStart, request: nil, &attempt, &attemptEffects)
      switch attempt.log.last?.outcome {
      case .failed?, .refused?:
        attempt.shell = keepingAlert(of: attempt.shell, over: model.shell)
      default:
        break
      }
      model = attempt
      effects += attemptEffects
    case .backRequested:
      back(&model, &effects)
    case .tabSelected(let index):
      if !model.shell.modals.isEmpty {
        model.status = "Dismiss the modal first (Esc)"
      } else {
        // The status line was about the tab left behind.
        if index != model.shell.selectedTab { model.status = "" }
        model.shell.selectTab(index)
      }
    case .alertDismissed:
      model.shell.dismissAlert()
    case .linkFollowed(let index):
      let links = model.shell.topScreen.links
      guard links.indices.contains(index) else { break }
      switch links[index].action {
      case .open(let url):
        open(url, origin: .link, request: nil, &model, &effects)
      case .openForResult(let url, let key):
        open(url, origin: .link, request: ResultRequest(key: key), &model, &effects)
      case .finish(let value):
        finish(with: value, &model)
      }
    case .screenFinished(let value):
      finish(with: value, &model)
    case .workFinished(let token, let result):
      guard let pending = model.pending, pending.token == token else { break }
      model.pending = nil
      apply(result, origin: pending.origin, &model, &effects)
    case .pushReceived(let title, let body, let url):
      let id = model.nextToken
      model.nextToken += 1
      model.banner = Banner(id: id, title: title, body: body, url: url)
      effects.append(.expireBanner(id: id, after: Banner.lifetime))
    case .bannerOpened:
      guard let banner = model.banner else { break }
      model.banner = nil
      if let url = banner.url, delivered(url, origin: .banner, &model) {
        open(url, origin: .banner, request: nil, &model, &effects)
      }
    case .bannerExpired(let id):
      if model.banner?.id == id { model.banner = nil }
    case .noted(let text, let isProblem):
      model.notes.append(Note(text: text, isProblem: isProblem, position: model.log.count))
      if model.notes.count > AppModel.maxNotes {
        model.notes.removeFirst(model.notes.count - AppModel.maxNotes)
      }
      model.status = text
    }
    return effects
  }

  /// The state `before`, with the alert that `after` shows.
  private func keepingAlert(of after: ShellState, over before: ShellState) -> ShellState {
    var state = before
    if let alert = after.alert { state.showAlert(alert) }
    return state
  }

  // MARK: - Opening URLs

  func open(
    _ url: String, origin: URLOrigin, request: ResultRequest?, _ model: inout AppModel,
    _ effects: inout [Effect]
  ) {
    if StateURL.isStateURL(url) {
      restoreState(url, origin: origin, &model)
      return
    }
    let resolution = table.resolve(url, from: origin.routing)
    var entry = LogEntry(
      origin: origin, url: url, pattern: nil, params: [:], redirects: resolution.redirects,
      outcome: .failed(title: "", message: ""))
    // The entry goes in now, so the log stays oldest first when this open opens more URLs.
    let logIndex = model.log.count
    model.log.append(entry)
    defer { model.log[logIndex] = entry }
    func fail(_ title: String, _ message: String) {
      model.shell.showAlert(Alert(title: title, message: message))
      entry.outcome = .failed(title: title, message: message)
    }
    let route: RouteEntry
    let params: Parameters
    switch resolution.outcome {
    case .invalid(let why), .failed(let why):
      return fail("No route", "\(url): \(why)")
    case .unmatched:
      return fail("No route", "No route for \(url)")
    case .refused(let why):
      let message = "\(url) came from \(origin.phrase): \(why)"
      model.shell.showAlert(Alert(title: "Refused", message: message))
      entry.outcome = .refused(message)
      return
    case .matched(let matched, let matchedParams):
      route = matched
      params = matchedParams
    }
    entry.pattern = route.pattern.text
    entry.params = params
    if let needed = route.minVersion, version < needed {
      return fail(
        "Upgrade required",
        "\(url) needs version \(needed) of the app; this is \(version). Please upgrade.")
    }
    if let guardName = route.guardName, let rule = guards[guardName], !rule.isMet(model.session) {
      entry.outcome = .guarded(guardName)
      var depth = model.shell.modals.count
      open(rule.url, origin: .link, request: nil, &model, &effects)
      // The guard's screen may have been up already: then its modal is the one to dismiss.
      if let shown = model.shell.modals.lastIndex(where: { $0.stack.last?.url == rule.url }) {
        depth = min(depth, shown)
      }
      model.continuation = GuardContinuation(
        guardName: guardName, url: url, origin: origin, modalDepth: depth, request: request)
      model.status = "Sign in to open \(url)"
      return
    }
    switch route.target {
    case .screen(let name):
      let made = catalog.make(
        name, params: params, url: url, session: model.session, table: table)
      var screen: Screen
      switch made {
      case .success(let result): screen = result
      case .failure(let problem):
        let (title, message) = describe(problem, url: url)
        return fail(title, message)
      }
      screen.resultRequest = request
      if origin.routing == .external {
        switch land(route, screen, &model) {
        case .reused(let landing):
          entry.landing = landing
          entry.outcome = .alreadyShown(name)
          model.status = "Back to \(screen.title)"
          return
        case .landed(let landing):
          entry.landing = landing
        }
      }
      // The same screen already showing the same way is not shown again: on top of the
      // current stack for a push, as the root of the top modal for a present.
      let alreadyShowing: Bool
      if route.presentation == .push {
        alreadyShowing = model.shell.topScreen.isSameScreen(as: screen)
      } else if let modal = model.shell.modals.last, modal.stack.count == 1 {
        alreadyShowing = modal.stack[0].isSameScreen(as: screen)
      } else {
        alreadyShowing = false
      }
      if request == nil, alreadyShowing {
        entry.outcome = .alreadyShown(name)
        model.status = "Already showing \(screen.title)"
        return
      }
      if route.presentation == .present {
        model.shell.present(screen)
        entry.outcome = .presented(name)
      } else {
        model.shell.push(screen)
        entry.outcome = .pushed(name)
      }
      model.status = "Opened \(screen.title)"
    case .action(let name):
      guard let handler = actions[name] else {
        return fail(
          "Upgrade required",
          "\(url) needs the action '\(name)', which this version does not have. Please upgrade.")
      }
      let actionRequest = ActionRequest(
        params: params, topScreen: model.shell.topScreen, origin: origin, table: table)
      let before = model.session
      let outcome = handler(&model.session, actionRequest)
      if model.session != before { refreshLiveScreens(&model) }
      switch outcome {
      case .done(.data(let action, let actionParams)):
        // A data action's outcome is the status line it leaves.
        apply(.data(action: action, params: actionParams), origin: origin, &model, &effects)
        entry.outcome = .handled(action: name, status: model.status)
      case .done(let result):
        entry.outcome = .handled(action: name, status: describe(result))
        apply(result, origin: origin, &model, &effects)
      case .later(let delay, let description, let result):
        if let old = model.pending { effects.append(.cancelWork(token: old.token)) }
        let token = model.nextToken
        model.nextToken += 1
        model.pending = PendingWork(token: token, description: description, origin: origin)
        model.status = "\(description)… (Esc cancels)"
        entry.outcome = .started(action: name)
        effects.append(.finishLater(token: token, after: delay, result: result))
      }
    case .notification(let name):
      model.session.notifications.append(PostedNotification(name: name, userInfo: params))
      refreshLiveScreens(&model)
      entry.outcome = .notified(name)
      model.status = "Posted \(name)"
    case .redirect:
      // `resolve` follows redirects, so the final route is never one.
      return fail("No route", "\(url): redirect did not resolve")
    }
  }

  /// Opens a state URL (``StateURL``): the whole navigation state is replaced. Only from inside
  /// the app: from outside it is refused.
  private func restoreState(_ url: String, origin: URLOrigin, _ model: inout AppModel) {
    var entry = LogEntry(
      origin: origin, url: url, pattern: nil, params: [:], redirects: [],
      outcome: .refused("state URLs open only from inside the app"))
    defer { model.log.append(entry) }
    guard origin.routing == .app else {
      let message = "\(url) came from \(origin.phrase): state URLs open only from inside the app"
      model.shell.showAlert(Alert(title: "Refused", message: message))
      entry.outcome = .refused(message)
      return
    }
    do {
      model.shell = try StateURL.decode(url, app: self, session: model.session)
      model.continuation = nil
      entry.outcome = .restored
      model.status = "Restored the state"
    } catch {
      let message = "\(url): \(error)"
      model.shell.showAlert(Alert(title: "No route", message: message))
      entry.outcome = .failed(title: "No route", message: message)
    }
  }

  func describe(_ problem: ScreenProblem, url: String) -> (String, String) {
    switch problem {
    case .unknownScreen(let name):
      return (
        "Upgrade required",
        "\(url) opens the screen '\(name)', which this version does not have. Please upgrade."
      )
    case .missingParameter(let screen, let name):
      return ("Missing parameter", "\(url): \(screen) needs the parameter '\(name)'")
    case .invalidParameter(let screen, let name, let expected, let got):
      return (
        "Invalid parameter",
        "\(url): \(screen) needs '\(name)' to be \(expected.rawValue), not \(JSON.quote(got))"
      )
    }
  }

  private func describe(_ result: ActionResult) -> String {
    switch result {
    case .status(let text): return text
    case .open(let url): return "opens \(url)"
    case .alert(let alert): return "\(alert.title): \(alert.message)"
    case .data(let name, _): return "runs \(name)"
    case .setting(_, let result): return describe(result)
    }
  }

  private func apply(
    _ result: ActionResult, origin: URLOrigin, _ model: inout AppModel, _ effects: inout [Effect]
  ) {
    switch result {
    case .status(let text):
      model.status = text
      continueAfterGuard(&model, &effects)
    case .open(let url):
      open(url, origin: origin, request: nil, &model, &effects)
    case .alert(let alert):
      model.shell.showAlert(alert)
    case .data(let name, let params):
      guard let action = dataActions[name] else { return }
      run(action, params: params, &model, &effects)
    case .setting(let flags, let result):
      let before = model.session
      // The app may have been reloaded meanwhile: only flags it still has, of the same type.
      for (name, value) in flags {
        guard let current = model.session.flags[name], current.hasSameType(as: value) else {
          continue
        }
        model.session.flags[name] = value
      }
      if model.session != before { refreshLiveScreens(&model) }
      apply(result, origin: origin, &model, &effects)
    }
  }
}
