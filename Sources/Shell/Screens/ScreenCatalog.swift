import Routing

/// What a Swift screen factory is given: the checked parameters, the URL, and the app's data.
package struct ScreenRequest: Sendable {
  /// The screen's parameters (checked against its declaration).
  package var params: Parameters
  /// The URL that opened the screen, if any.
  package var url: String?
  /// The app's data (session, route table) for screens that show it.
  package var session: Session
  /// The route table in force (the about screen lists it).
  package var table: RouteTable
}

/// Why a screen could not be made; the navigator turns each into an alert.
package enum ScreenProblem: Error, Sendable, Hashable {
  /// No factory has this name in this build.
  case unknownScreen(String)
  /// A required parameter is absent.
  case missingParameter(screen: String, name: String)
  /// A parameter has the wrong type.
  case invalidParameter(screen: String, name: String, expected: CaptureType, got: String)
}

/// The screen factories of the app, by name: data screens from `Screens/` and Swift ones.
package struct ScreenCatalog: Sendable {
  /// A factory: its declared parameters, whether it shows app data (and so is re-made when the
  /// data changes), and how to make it.
  package struct Factory: Sendable {
    /// The declared parameters.
    package var params: [String: ParameterSpec]
    /// True when the screen shows session data and must be re-made when it changes.
    package var isLive: Bool
    /// Makes the screen.
    package var make: @Sendable (ScreenRequest) -> Screen
  }

  /// The factories by name.
  package private(set) var factories: [String: Factory] = [:]

  /// Makes an empty catalog.
  package init() {}

  /// Registers a Swift factory (replacing one of the same name).
  package mutating func register(
    _ name: String, params: [String: ParameterSpec] = [:], isLive: Bool = false,
    make: @escaping @Sendable (ScreenRequest) -> Screen
  ) {
    factories[name] = Factory(params: params, isLive: isLive, make: make)
  }

  /// Registers a data-defined screen.
  package mutating func register(_ definition: ScreenDefinition) {
    register(definition.name, params: definition.params, isLive: !definition.flagNames.isEmpty) {
      request in
      definition.make(params: request.params, url: request.url, flags: request.session.flags)
    }
  }

  /// Whether a factory has this name.
  package func has(_ name: String) -> Bool { factories[name] != nil }

  /// Makes a screen after checking its parameters against the declaration.
  package func make(
    _ name: String, params: Parameters, url: String?, session: Session, table: RouteTable
  ) -> Result<Screen, ScreenProblem> {
    guard let factory = factories[name] else { return .failure(.unknownScreen(name)) }
    for (paramName, spec) in factory.params.sorted(by: { $0.key < $1.key }) {
      guard let value = params[paramName] else {
        if spec.required { return .failure(.missingParameter(screen: name, name: paramName)) }
        continue
      }
      if !spec.accepts(value) {
        return .failure(
          .invalidParameter(
            screen: name, name: paramName, expected: spec.type, got: value.displayText))
      }
    }
    let request = ScreenRequest(params: params, url: url, session: session, table: table)
    return .success(factory.make(request))
  }

  /// The same screen made again (new parameters or new session data), still waiting for the
  /// same result.
  package func remake(
    _ screen: Screen, params: Parameters, session: Session, table: RouteTable
  ) -> Result<Screen, ScreenProblem> {
    make(screen.name, params: params, url: screen.url, session: session, table: table).map {
      var remade = $0
      remade.resultRequest = screen.resultRequest
      return remade
    }
  }
}
