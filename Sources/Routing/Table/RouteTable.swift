import JSON

/// A validated route table with its compiled router.
///
/// A table that cannot be used is refused as a whole with a ``RouteTableError`` naming the
/// entry and the problem, e.g. `routes[3].pattern: unclosed '(' (...)`.
public struct RouteTable: Sendable {
  /// The table's `version`, when it has one.
  public let version: Int?
  /// The entries, in table order.
  public let entries: [RouteEntry]
  /// The compiled router over the entries' patterns (route index = entry index).
  public let router: Router
  /// The indices of the entries that target each destination (not redirects), in table order.
  private let destinations: [RouteTarget: [Int]]

  /// The fields a route entry may have.
  public static let entryFields: Set<String> = [
    "pattern", "screen", "action", "notification", "redirect", "priority", "presentation",
    "external", "minVersion", "parent", "rename", "guard", "tab", "arrival", "caseSensitive",
  ]

  /// The largest table file read, in bytes (16 MiB).
  public static let maxBytes = 16 * 1024 * 1024
  /// The most routes a table may hold.
  public static let maxRoutes = 200_000
  /// The deepest JSON nesting a table file may have.
  public static let maxDepth = 16

  /// Reads and validates a table from JSON bytes (at most ``maxBytes``, nested at most
  /// ``maxDepth`` deep).
  public init(json bytes: [UInt8]) throws(RouteTableError) {
    try self.init(document: try Self.document(bytes))
  }

  /// The JSON document of a table file, within ``maxBytes`` and ``maxDepth``.
  private static func document(_ bytes: [UInt8]) throws(RouteTableError) -> JSON {
    guard bytes.count <= maxBytes else {
      throw RouteTableError("table too large: \(bytes.count) bytes (at most \(maxBytes))")
    }
    do {
      return try JSON.parse(bytes, maxDepth: maxDepth)
    } catch {
      throw RouteTableError("invalid JSON: \(error)")
    }
  }

  /// Reads and validates a table from JSON text.
  public init(json text: String) throws(RouteTableError) {
    try self.init(json: Array(text.utf8))
  }

  /// Validates a parsed JSON document as a table.
  public init(document: JSON) throws(RouteTableError) {
    let (version, entries) = try Self.read(document: document)
    try self.init(entries: entries, version: version)
  }

  /// Compiles and checks entries made in code; their `index` must be their position.
  public init(entries: [RouteEntry], version: Int? = nil) throws(RouteTableError) {
    self.version = version
    self.entries = entries
    destinations = Self.destinations(entries)
    do {
      router = try Router(
        entries.map { Router.Route(pattern: $0.pattern, priority: $0.priority) })
    } catch {
      throw error.tableError
    }
    if let problem = parentProblems(all: false).first { throw problem.error }
  }

  /// A table whose router was compiled elsewhere (see ``inspect(document:)``).
  private init(version: Int?, entries: [RouteEntry], router: Router) {
    self.version = version
    self.entries = entries
    self.router = router
    destinations = Self.destinations(entries)
  }

  private static func destinations(_ entries: [RouteEntry]) -> [RouteTarget: [Int]] {
    var destinations: [RouteTarget: [Int]] = [:]
    for entry in entries {
      if case .redirect = entry.target { continue }
      destinations[entry.target, default: []].append(entry.index)
    }
    return destinations
  }

  /// The indices of the entries whose target is `target`, in table order (none for a redirect).
  public func routeIndices(reaching target: RouteTarget) -> [Int] {
    destinations[target] ?? []
  }

  /// Reads a table document into its version and entries, checking each entry on its own
  /// (fields, pattern, target) but not how entries relate (conflicts, parents).
  static func read(document: JSON) throws(RouteTableError) -> (version: Int?, entries: [RouteEntry])
  {
    guard case .object(let members) = document else {
      throw RouteTableError("the table must be a JSON object, not \(document.kindDescription)")
    }
    var version: Int?
    var routes: [JSON]?
    for member in members {
      switch member.key {
      case "version":
        guard let number = member.value.intValue else {
          throw RouteTableError("version: must be an integer")
        }
        version = number
      case "routes":
        guard case .array(let items) = member.value else {
          throw RouteTableError("routes: must be an array, not \(member.value.kindDescription)")
        }
        routes = items
      default:
        throw RouteTableError(
          "\(member.key): \(CloseName.unknownField(member.key, fields: ["version", "routes"]))")
      }
    }
    guard let routes else { throw RouteTableError("routes: required") }
    guard routes.count <= Self.maxRoutes else {
      throw RouteTableError("routes: \(routes.count) routes (at most \(Self.maxRoutes))")
    }
    var entries: [RouteEntry] = []
    entries.reserveCapacity(routes.count)
    for (index, item) in routes.enumerated() {
      entries.append(try Self.entry(item, index: index))
    }
    return (version, entries)
  }

  // MARK: - Inspecting

  /// Reads a table for inspection (`appshell routes`): what the table refuses on its own
  /// (bad JSON, an unknown field, a bad pattern or target) is still thrown, but conflicts and
  /// `parent` problems are collected instead of refusing the table.
  public static func inspect(json bytes: [UInt8]) throws(RouteTableError) -> RouteTableInspection {
    try inspect(document: try document(bytes))
  }

  /// Reads a parsed table document for inspection; see ``inspect(json:)``.
  public static func inspect(document: JSON) throws(RouteTableError) -> RouteTableInspection {
    let (version, entries) = try read(document: document)
    return inspect(entries: entries, version: version)
  }

  /// Inspects entries made in code (their `index` must be their position): the table gets a
  /// router that keeps conflicting routes (the one listed first wins a URL both match), and
  /// every conflict and `parent` problem is listed.
  public static func inspect(entries: [RouteEntry], version: Int? = nil) -> RouteTableInspection {
    var conflicts: [RouteConflict] = []
    let router = Router(
      entries.map { Router.Route(pattern: $0.pattern, priority: $0.priority) },
      conflicts: &conflicts)
    let table = RouteTable(version: version, entries: entries, router: router)
    return RouteTableInspection(
      table: table, conflicts: conflicts, parentProblems: table.parentProblems(all: true))
  }

  // MARK: - Entries

  private static func entry(_ json: JSON, index: Int) throws(RouteTableError) -> RouteEntry {
    let place = "routes[\(index)]"
    guard case .object(let members) = json else {
      throw RouteTableError("\(place): must be an object, not \(json.kindDescription)")
    }
    for member in members where !entryFields.contains(member.key) {
      throw RouteTableError(
        "\(place).\(member.key): \(CloseName.unknownField(member.key, fields: entryFields.sorted()))"
      )
    }
    func string(_ key: String) throws(RouteTableError) -> String? {
      guard let value = json[key] else { return nil }
      guard case .string(let text) = value, !text.isEmpty else {
        throw RouteTableError("\(place).\(key): must be a non-empty string")
      }
      return text
    }
    // The grammar allows the empty pattern (it matches the root, from any scheme).
    guard case .string(let patternText)? = json["pattern"] else {
      throw RouteTableError(
        json["pattern"] == nil
          ? "\(place).pattern: required" : "\(place).pattern: must be a string")
    }
    var caseSensitive = true
    if let value = json["caseSensitive"] {
      guard case .bool(let flag) = value else {
        throw RouteTableError("\(place).caseSensitive: must be true or false")
      }
      caseSensitive = flag
    }
    let pattern: RoutePattern
    do {
      pattern = try RoutePattern(patternText, caseSensitive: caseSensitive)
    } catch {
      throw RouteTableError("\(place).pattern: \(error)")
    }
    let targetKeys = ["screen", "action", "notification", "redirect"].filter { json[$0] != nil }
    guard targetKeys.count == 1, let targetKey = targetKeys.first else {
      if targetKeys.isEmpty {
        throw RouteTableError(
          "\(place): needs a target: one of screen, action, notification or redirect")
      }
      throw RouteTableError(
        "\(place).\(targetKeys[1]): a route has exactly one target, and this one also has "
          + targetKeys[0])
    }
    let name = try string(targetKey)!
    let target: RouteTarget
    switch targetKey {
    case "screen": target = .screen(name)
    case "action": target = .action(name)
    case "notification": target = .notification(name)
    default:
      do {
        target = .redirect(try RedirectTemplate(name))
      } catch {
        throw RouteTableError("\(place).redirect: \(error)")
      }
    }
    var entry = RouteEntry(index: index, pattern: pattern, target: target, json: json)
    if let value = json["priority"] {
      guard let number = value.intValue else {
        throw RouteTableError("\(place).priority: must be an integer")
      }
      entry.priority = number
    }
    if let value = json["presentation"] {
      guard case .string(let text) = value, let presentation = Presentation(rawValue: text) else {
        throw RouteTableError("\(place).presentation: must be \"push\" or \"present\"")
      }
      entry.presentation = presentation
    }
    if let value = json["external"] {
      guard case .bool(let flag) = value else {
        throw RouteTableError("\(place).external: must be true or false")
      }
      entry.external = flag
    }
    if let value = json["minVersion"] {
      guard case .string(let text) = value, let version = AppVersion(text) else {
        throw RouteTableError(
          "\(place).minVersion: must be a string of dotted numbers such as \"2.1.3\"")
      }
      entry.minVersion = version
    }
    entry.parent = try string("parent")
    entry.guardName = try string("guard")
    entry.tab = try string("tab")
    if let value = json["arrival"] {
      guard case .string(let text) = value, let arrival = Arrival(rawValue: text) else {
        throw RouteTableError("\(place).arrival: must be \"push\", \"reset\" or \"reuse\"")
      }
      entry.arrival = arrival
    }
    if let value = json["rename"] {
      guard case .object(let pairs) = value else {
        throw RouteTableError("\(place).rename: must be an object of names")
      }
      var targets: [String: String] = [:]
      for pair in pairs {
        guard case .string(let to) = pair.value, !to.isEmpty else {
          throw RouteTableError("\(place).rename.\(pair.key): must be a non-empty string")
        }
        if let earlier = targets.updateValue(pair.key, forKey: to) {
          throw RouteTableError(
            "\(place).rename.\(pair.key): '\(earlier)' is renamed to '\(to)' already")
        }
        entry.rename[pair.key] = to
      }
    }
    return entry
  }

  /// Every `parent` must resolve (from inside the app) to a `screen` route, with no loop: the
  /// problems, in table order, then the loops; with `all` false, only the first.
  private func parentProblems(all: Bool) -> [ParentProblem] {
    var problems: [ParentProblem] = []
    var parentOf: [Int: Int] = [:]
    for entry in entries {
      guard let parent = entry.parent else { continue }
      let place = "routes[\(entry.index)].parent"
      let resolution = resolve(parent)
      let message: String
      switch resolution.outcome {
      case .matched(let target, _):
        if case .screen = target.target {
          parentOf[entry.index] = target.index
          continue
        }
        message =
          "\(place): \(JSON.quote(parent)) ends on routes[\(target.index)], which is not a screen route"
      case .invalid(let why), .failed(let why), .refused(let why):
        message = "\(place): \(JSON.quote(parent)): \(why)"
      case .unmatched:
        message = "\(place): \(JSON.quote(parent)) matches no route"
      }
      problems.append(ParentProblem(route: entry.index, error: RouteTableError(message)))
      if !all { return problems }
    }
    var checked: Set<Int> = []
    for start in parentOf.keys.sorted() where !checked.contains(start) {
      var chain = [start]
      var onChain: Set<Int> = [start]
      var current = start
      while let next = parentOf[current], !checked.contains(next) {
        if onChain.contains(next), let loopStart = chain.firstIndex(of: next) {
          let loop = (chain[loopStart...] + [next]).map { "routes[\($0)]" }
          problems.append(
            ParentProblem(
              route: start,
              error: RouteTableError(
                "routes[\(start)].parent: parents form a loop: \(loop.joined(separator: " -> "))")
            ))
          if !all { return problems }
          break
        }
        chain.append(next)
        onChain.insert(next)
        current = next
      }
      checked.formUnion(chain)
    }
    return problems
  }
}

/// A route table read for inspection (``RouteTable/inspect(json:)``): the table, which
/// resolves URLs as usual, and what would make the app refuse it.
public struct RouteTableInspection: Sendable {
  /// The table. Its router keeps routes that conflict (the one listed first wins a URL both
  /// match), and its parents are not checked.
  public let table: RouteTable
  /// Every pair of routes that no URL can tell apart, later route first, in table order.
  public let conflicts: [RouteConflict]
  /// Every `parent` that does not end on a screen route, and every loop of parents.
  public let parentProblems: [ParentProblem]

  /// Whether the app would take the table as it is: no conflict and no parent problem.
  public var isUsable: Bool { conflicts.isEmpty && parentProblems.isEmpty }

  /// The error loading the table for use throws (the first conflict, else the first parent
  /// problem), or nil when the table is usable.
  public var refusal: RouteTableError? {
    conflicts.first?.tableError ?? parentProblems.first?.error
  }
}

/// A route whose `parent` is unusable, with the error the table would be refused with.
public struct ParentProblem: Sendable, Equatable {
  /// The route whose `parent` it is (for a loop: the first route of the loop checked).
  public var route: Int
  /// `routes[i].parent: ...`, as loading the table would throw it.
  public var error: RouteTableError
}

extension RouteConflict {
  /// The error a table with this conflict is refused with.
  var tableError: RouteTableError {
    if route == other {
      return RouteTableError(
        "routes[\(route)]: two expansions of its optional groups cannot be told apart")
    }
    return RouteTableError("routes[\(route)] conflicts with routes[\(other)]")
  }
}

/// Why a route table was refused: `routes[i].field: problem`.
public struct RouteTableError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The message.
  public var description: String

  /// Makes an error with a message.
  public init(_ description: String) { self.description = description }
}
