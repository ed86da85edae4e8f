import Routing

// Actions defined in data (`app.json`), and what they change: flags, guards waiting on them,
// and the screens that show them.
extension ShellApp {
  /// Applies a data action's members in order: `set`, `add`, `status`, `alert`, `then`; then
  /// a guard waiting for the flags may let its URL go on.
  func run(
    _ action: DataAction, params: Parameters, _ model: inout AppModel, _ effects: inout [Effect]
  ) {
    let before = model.session
    for assignment in action.set { model.session.flags[assignment.name] = assignment.value }
    for increment in action.add {
      if case .int(let value)? = model.session.flags[increment.name] {
        model.session.flags[increment.name] = .int(value &+ increment.amount)
      }
    }
    if model.session != before { refreshLiveScreens(&model) }
    let flags = model.session.flags
    if let status = action.status { model.status = status.render(params, flags: flags) }
    if let alert = action.alert {
      model.shell.showAlert(
        Alert(
          title: alert.title.render(params, flags: flags),
          message: alert.message.render(params, flags: flags)))
    }
    switch action.then {
    case nil: break
    case .dismiss?:
      if !model.shell.modals.isEmpty { closeTop(&model, dismissWholeModal: true) }
    case .back?:
      closeTop(&model, dismissWholeModal: false)
    case .open(let template)?:
      let url = template.render(params, flags: flags, encode: percentEncodeUnreserved)
      open(url, origin: .link, request: nil, &model, &effects)
    }
    continueAfterGuard(&model, &effects)
  }

  /// After an action, a guard that now holds lets the waiting URL go on: the guard's screens
  /// are dismissed and the URL is opened.
  func continueAfterGuard(_ model: inout AppModel, _ effects: inout [Effect]) {
    guard let waiting = model.continuation, let rule = guards[waiting.guardName],
      rule.isMet(model.session)
    else { return }
    model.continuation = nil
    while model.shell.modals.count > waiting.modalDepth {
      closeTop(&model, dismissWholeModal: true)
    }
    open(waiting.url, origin: waiting.origin, request: waiting.request, &model, &effects)
  }

  /// Re-makes every screen that shows session data.
  func refreshLiveScreens(_ model: inout AppModel) {
    let session = model.session
    model.shell.updateScreens { screen in
      guard catalog.factories[screen.name]?.isLive == true,
        case .success(let remade) = catalog.remake(
          screen, params: screen.params, session: session, table: table)
      else { return }
      screen = remade
    }
  }
}
