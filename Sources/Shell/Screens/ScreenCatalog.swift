import Routing

/// What a Swift screen factory is given: the checked parameters, the URL, and the app's data.
public struct ScreenRequest: Sendable {
  /// The screen's parameters (checked against its declaration).
  public var params: Parameters
  /// The URL that opened the screen, if any.
  public var url: String?
  /// The app's data (session, route table) for screens that show it.
  public var session: Session
  /// The route table in force (the about screen lists it).
  public var table: RouteTable
}

/// Why a screen could not be made; the navigator turns each into an alert.
public enum ScreenProblem: Error, Sendable, Hashable {
  /// No factory has this name in this build.
  case unknownScreen(String)
  /// A required parameter is absent.
  case missingParameter(screen: String, name: String)
  /// A parameter has the wrong type.
  case invalidParameter(screen: String, name: String, expected: CaptureType, got: String)
}

/// The screen factories of the app, by name: data screens from `Screens/` and Swift ones.
public struct ScreenCatalog: Sendable {
  /// A factory: its declared parameters, whether it shows app data (and so is re-made when the
  /// data changes), and how to make it.
  public struct Factory: Sendable {
    /// The declared parameters.
    public var params: [String: ParameterSpec]
    /// True when the screen shows session data and must be re-made when it changes.
    public var isLive: Bool
    /// Makes the screen.
    public var make: @Sendable (ScreenRequest) -> Screen
  }

  /// The factories by name.
  public private(set) var factories: [String: Factory] = [:]

  /// Makes an empty catalog.
  public init() {}

  /// Registers a Swift factory (replacing one of the same name).
  public mutating func register(
    _ name: String, params: [String: ParameterSpec] = [:], isLive: Bool = false,
    make: @escaping @Sendable (ScreenRequest) -> Screen
  ) {
    factories[name] = Factory(params: params, isLive: isLive, make: make)
  }

  /// Registers a data-defined screen.
  public mutating func register(_ definition: ScreenDefinition) {
    register(definition.name, params: definition.params) { request in
      definition.make(params: request.params, url: request.url)
    }
  }

  /// Whether a factory has this name.
  public func has(_ name: String) -> Bool { factories[name] != nil }

  /// Makes a screen after checking its parameters against the declaration.
  public func make(
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
  public func remake(
    _ screen: Screen, params: Parameters, session: Session, table: RouteTable
  ) -> Result<Screen, ScreenProblem> {
    make(screen.name, params: params, url: screen.url, session: session, table: table).map {
      var remade = $0
      remade.resultRequest = screen.resultRequest
      return remade
    }
  }
}
