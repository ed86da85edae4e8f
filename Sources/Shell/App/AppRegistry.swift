import JSON
import Routing

/// What an app's Swift code adds to its `app.json` and data screens: screens, actions and
/// guards registered by name.
package struct AppRegistry: Sendable {
  /// The Swift screen factories.
  package var catalog = ScreenCatalog()
  /// The Swift action handlers by name.
  package var actions: [String: ActionHandler] = [:]
  /// The Swift guards by name.
  package var guards: [String: GuardRule] = [:]
  /// Names registered twice, in order (each refuses the app).
  package private(set) var duplicates: [String] = []

  /// An empty registry.
  package init() {}

  /// Registers a Swift screen.
  package mutating func screen(
    _ name: String, params: [String: ParameterSpec] = [:], isLive: Bool = false,
    make: @escaping @Sendable (ScreenRequest) -> Screen
  ) {
    if catalog.has(name) { duplicates.append("screen '\(name)'") }
    catalog.register(name, params: params, isLive: isLive, make: make)
  }

  /// Registers a Swift action.
  package mutating func action(_ name: String, _ handler: @escaping ActionHandler) {
    if actions[name] != nil { duplicates.append("action '\(name)'") }
    actions[name] = handler
  }

  /// Registers a Swift guard.
  package mutating func `guard`(_ name: String, _ rule: GuardRule) {
    if guards[name] != nil { duplicates.append("guard '\(name)'") }
    guards[name] = rule
  }
}

extension AppDefinition {
  /// The app: this definition, its data screens and a Swift registry, around a route table.
  /// Refuses a name defined twice, a data screen showing an undeclared flag, a tab root that
  /// does not end on an unguarded screen, a guard that opens a guarded URL and a table naming
  /// an unknown guard. For lint (`forLint`), the table's own problems (an unknown guard, a
  /// conflict) are left for lint to report, and a tab whose root matches no route of a table
  /// given in place of the app's own (`otherTable`) is left out.
  package func makeApp(
    table: RouteTable, screens: [ScreenDefinition], registry: AppRegistry, forLint: Bool = false,
    otherTable: Bool = false
  ) throws(AppFileError) -> ShellApp {
    if let duplicate = registry.duplicates.first {
      throw AppFileError(raw: "\(duplicate) is registered twice in Swift")
    }
    var catalog = ScreenCatalog()
    if !forLint, let problem = LinkTarget.problems(screens, table: table).first {
      throw AppFileError(raw: problem.message)
    }
    for definition in screens.map({ $0.resolvingLinks(in: table) }) {
      for flag in definition.flagNames where flags[flag] == nil {
        throw AppFileError(
          raw:
            "\(definition.name).json: {{flags.\(flag)}}: no flag named \(JSON.quote(flag)) in app.json"
        )
      }
      catalog.register(definition)
    }
    for (name, factory) in registry.catalog.factories.sorted(by: { $0.key < $1.key }) {
      if catalog.has(name) {
        throw AppFileError(
          raw: "\(name).json: the screen '\(name)' is also registered in Swift")
      }
      catalog.register(name, params: factory.params, isLive: factory.isLive, make: factory.make)
    }
    var actionHandlers = registry.actions
    var dataActions: [String: DataAction] = [:]
    for (name, action) in actions {
      if actionHandlers[name] != nil {
        throw AppFileError("actions.\(name)", "the action is also registered in Swift")
      }
      dataActions[name] = action
      actionHandlers[name] = action.handler(named: name)
    }
    var guardRules = registry.guards
    for (name, rule) in guards {
      if guardRules[name] != nil {
        throw AppFileError("guards.\(name)", "the guard is also registered in Swift")
      }
      let requires = rule.requires
      guardRules[name] = GuardRule(url: rule.open) { session in
        requires.allSatisfy { session.flags[$0.name] == $0.value }
      }
    }
    for (name, rule) in guards {
      if case .matched(let route, _) = table.resolve(rule.open).outcome, route.guardName != nil {
        throw AppFileError(
          "guards.\(name).open",
          "\(JSON.quote(rule.open)) opens a guarded route (routes[\(route.index)] has the guard '\(route.guardName!)')"
        )
      }
    }
    if !forLint {
      // The table's own problems (an unknown guard) before the tabs that depend on it.
      do {
        try ShellApp(
          table: table, catalog: catalog, guards: guardRules, tabs: [], version: version
        ).validate()
      } catch {
        throw AppFileError(raw: "routes.json: \(error)")
      }
    }
    var tabSpecs: [ShellApp.TabSpec] = []
    for (index, tab) in tabs.enumerated() {
      let place = "tabs[\(index)].root"
      switch table.resolve(tab.root).outcome {
      case .matched(let route, let params):
        guard case .screen(let name) = route.target else {
          throw AppFileError(
            place, "\(JSON.quote(tab.root)) ends on routes[\(route.index)], which is not a screen")
        }
        if let guardName = route.guardName {
          throw AppFileError(
            place,
            "\(JSON.quote(tab.root)) ends on routes[\(route.index)], which has the guard '\(guardName)'"
          )
        }
        guard catalog.has(name) else {
          throw AppFileError(place, "\(JSON.quote(tab.root)) opens '\(name)', which is no screen")
        }
        tabSpecs.append(ShellApp.TabSpec(title: tab.title, root: name, params: params))
      case .invalid(let why), .failed(let why), .refused(let why):
        if otherTable { continue }
        throw AppFileError(place, "\(JSON.quote(tab.root)): \(why)")
      case .unmatched:
        if otherTable { continue }
        throw AppFileError(place, "\(JSON.quote(tab.root)) matches no route")
      }
    }
    let app = ShellApp(
      table: table, catalog: catalog, actions: actionHandlers, guards: guardRules, tabs: tabSpecs,
      version: version, dataActions: dataActions, flags: flags, name: name, links: linkPolicy)
    if forLint { return app }
    do {
      try app.validate()
    } catch {
      throw AppFileError(raw: "routes.json: \(error)")
    }
    return app
  }
}

extension AppFileError {
  /// An error whose text is given whole.
  package init(raw description: String) {
    self.init("", "")
    self.description = description
  }
}

extension DataAction {
  /// The action as a handler: it hands the action back to the navigator to apply, at once or
  /// after `after` (the navigator runs data actions itself, so this is what a caller of the
  /// handlers sees).
  package func handler(named name: String) -> ActionHandler {
    let after = after
    return { _, request in
      let result = ActionResult.data(action: name, params: request.params)
      guard let after else { return .done(result) }
      return .later(
        after: .milliseconds(Int64((after * 1000).rounded())), description: "Running \(name)",
        result: result)
    }
  }
}
