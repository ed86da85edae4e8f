import Routing

// Going back, returning a result to the screen that asked for it, and the synthetic back
// stack of a URL opened cold.
extension ShellApp {
  func back(_ model: inout AppModel, _ effects: inout [Effect]) {
    if model.shell.alert != nil {
      model.shell.dismissAlert()
      return
    }
    if let pending = model.pending {
      model.pending = nil
      effects.append(.cancelWork(token: pending.token))
      model.status = "Cancelled: \(pending.description)"
      return
    }
    let before = model.shell
    closeTop(&model, dismissWholeModal: false)
    if model.shell != before { model.status = "Back to \(model.shell.topScreen.title)" }
    if let waiting = model.continuation, model.shell.modals.count <= waiting.modalDepth {
      model.continuation = nil
      model.status = "Not signed in: \(waiting.url) was not opened"
    }
  }

  /// Pops the top screen (or dismisses a modal at its root, or the whole modal).
  func closeTop(_ model: inout AppModel, dismissWholeModal: Bool) {
    if dismissWholeModal, !model.shell.modals.isEmpty {
      model.shell.dismiss()
    } else {
      _ = model.shell.back()
    }
  }

  func finish(with value: String, _ model: inout AppModel) {
    let top = model.shell.topScreen
    guard let request = top.resultRequest else {
      model.status = "Nothing is waiting for a result from \(top.title)"
      return
    }
    guard model.shell.back() else { return }
    let opener = model.shell.topScreen
    var params = opener.params
    params[request.key] = .string(value)
    switch catalog.remake(opener, params: params, session: model.session, table: table) {
    case .success(let remade):
      model.shell.replaceTop(remade)
    case .failure(let problem):
      // The opener cannot take this value: it stays as it was, and the alert says why.
      let (title, message) = describe(problem, url: opener.url ?? opener.name)
      model.shell.showAlert(Alert(title: title, message: message))
    }
    model.status = "Chose \(value)"
  }

  /// Cold start: pushes the `parent` chain of the URL's route, root-most first; a parent that
  /// is a tab's root selects that tab instead.
  func pushParents(of url: String, _ model: inout AppModel) {
    guard case .matched(let route, _) = table.resolve(url, from: .external).outcome else {
      return
    }
    var chain: [(RouteEntry, Parameters, String)] = []
    var next = route.parent
    var seen: Set<Int> = [route.index]
    while let parentURL = next,
      case .matched(let parent, let params) = table.resolve(parentURL).outcome,
      seen.insert(parent.index).inserted
    {
      chain.insert((parent, params, parentURL), at: 0)
      next = parent.parent
    }
    for (parent, params, parentURL) in chain {
      guard case .screen(let name) = parent.target,
        case .success(let screen) = catalog.make(
          name, params: params, url: parentURL, session: model.session, table: table)
      else { continue }
      if model.shell.modals.isEmpty,
        let tab = model.shell.tabs.firstIndex(where: {
          $0.stack.count == 1 && $0.stack[0].isSameScreen(as: screen)
        })
      {
        model.shell.selectTab(tab)
      } else if !model.shell.topScreen.isSameScreen(as: screen) {
        model.shell.push(screen)
      }
    }
  }
}
