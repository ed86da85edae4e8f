import Routing

/// A parameter a data screen declares in its file: its type and whether it is required.
package struct DeclaredParameter: Sendable, Hashable {
  /// `string`, `int`, `float` or `uuid`.
  package var type: CaptureType
  /// Whether the screen needs it.
  package var required: Bool

  /// Makes a declaration.
  package init(type: CaptureType, required: Bool) {
    self.type = type
    self.required = required
  }
}

/// The Swift type of a destination's parameter.
package enum ParameterType: Sendable, Hashable {
  /// `Int`: every route captures it as `<int:>`, or it is declared `int`.
  case int
  /// `Double`: every route captures it as `<float:>`, or it is declared `float`.
  case double
  /// `String`: any other capture, mixed kinds, or declared `string` or `uuid`.
  case string
  /// `[String]`: every route captures it with `*` or `<path:>`; `wildcard` when some route
  /// uses `*` (whose value the router gives as a list, where `<path:>` gives joined text).
  case segments(wildcard: Bool)
  /// A nested enum: every route captures it with a case-sensitive value set of these
  /// alternatives (decoded, in the first route's order, each once).
  case valueSet([String])
}

/// One parameter of a destination.
package struct DestinationParameter: Sendable, Hashable {
  /// The name the router gives it (after `rename`).
  package var name: String
  /// Its Swift type.
  package var type: ParameterType
  /// Whether some route to the destination, or some expansion of one, does not capture it
  /// (or its declaration does not require it).
  package var isOptional: Bool

  /// Makes a parameter.
  package init(name: String, type: ParameterType, isOptional: Bool) {
    self.name = name
    self.type = type
    self.isOptional = isOptional
  }
}

/// A route target other than a redirect, with the parameters its routes capture.
package struct Destination: Sendable, Hashable {
  /// The screen, action or notification.
  package var target: RouteTarget
  /// Its parameters, in the order the table first captures them (declared ones no route
  /// captures last, by name).
  package var parameters: [DestinationParameter]
}

/// What one route expansion captures under one name.
package enum CaptureKind: Sendable, Hashable {
  case int, float, string, path, rest
  case valueSet([String])
  case caseInsensitiveValueSet

  init(_ kind: SegmentKind, caseSensitive: Bool) {
    switch kind {
    case .capture(.int): self = .int
    case .capture(.float): self = .float
    case .capture(.path), .path: self = .path
    case .rest: self = .rest
    case .oneOf(let alternatives):
      self = caseSensitive ? .valueSet(alternatives) : .caseInsensitiveValueSet
    case .capture, .regex, .literal: self = .string
    }
  }

  init(_ value: QueryConstraint.Value, caseSensitive: Bool) {
    switch value {
    case .capture(let type, _): self.init(.capture(type), caseSensitive: caseSensitive)
    case .oneOf(let alternatives, _):
      self.init(.oneOf(alternatives), caseSensitive: caseSensitive)
    case .regex, .literal, .absent: self = .string
    }
  }
}

extension RouteEntry {
  /// For each expansion of the pattern's optional groups, what it captures by name after
  /// `rename` (a renamed capture overwrites one that already has the new name), in order.
  package var captureSets: [[(name: String, kind: CaptureKind)]] {
    let pattern = self.pattern
    var fixed: [(String, CaptureKind)] = []
    for constraint in pattern.constraints {
      if let name = constraint.value.name {
        fixed.append((name, CaptureKind(constraint.value, caseSensitive: pattern.caseSensitive)))
      }
    }
    switch pattern.fragment {
    case .segments(let list)?:
      for segment in list {
        if let name = segment.name {
          fixed.append((name, CaptureKind(segment.kind, caseSensitive: pattern.caseSensitive)))
        }
      }
    case .query(let list)?:
      for constraint in list {
        if let name = constraint.value.name {
          fixed.append((name, CaptureKind(constraint.value, caseSensitive: pattern.caseSensitive)))
        }
      }
    case nil: break
    }
    return pattern.expansions.map { segments in
      var captures: [(String, CaptureKind)] = segments.compactMap { segment in
        segment.name.map { ($0, CaptureKind(segment.kind, caseSensitive: pattern.caseSensitive)) }
      }
      captures += fixed
      var result: [(name: String, kind: CaptureKind)] = []
      func put(_ name: String, _ kind: CaptureKind) {
        if let at = result.firstIndex(where: { $0.name == name }) {
          result[at].kind = kind
        } else {
          result.append((name, kind))
        }
      }
      for (name, kind) in captures where rename[name] == nil { put(name, kind) }
      for (name, kind) in captures {
        if let to = rename[name] { put(to, kind) }
      }
      return result
    }
  }
}

extension RouteTable {
  /// The table's destinations in order of their first route, with their parameters' types
  /// (``ParameterType``); `declared` gives data screens' declared parameters by screen name,
  /// which decide the type and whether a parameter is optional.
  package func destinations(declared: [String: [String: DeclaredParameter]] = [:])
    -> [Destination]
  {
    var order: [RouteTarget] = []
    var seen: [RouteTarget: (expansions: Int, names: [String], kinds: [String: [CaptureKind]])] =
      [:]
    for entry in entries {
      if case .redirect = entry.target { continue }
      if seen[entry.target] == nil {
        order.append(entry.target)
        seen[entry.target] = (0, [], [:])
      }
      for captures in entry.captureSets {
        seen[entry.target]!.expansions += 1
        for (name, kind) in captures {
          if seen[entry.target]!.kinds[name] == nil { seen[entry.target]!.names.append(name) }
          seen[entry.target]!.kinds[name, default: []].append(kind)
        }
      }
    }
    return order.map { target in
      let found = seen[target]!
      var declarations: [String: DeclaredParameter] = [:]
      if case .screen(let name) = target { declarations = declared[name] ?? [:] }
      var parameters = found.names.map { name in
        let kinds = found.kinds[name]!
        if let declaration = declarations[name] {
          return DestinationParameter(
            name: name, type: ParameterType(declaration.type),
            isOptional: !declaration.required)
        }
        return DestinationParameter(
          name: name, type: ParameterType(kinds), isOptional: kinds.count < found.expansions)
      }
      for name in declarations.keys.sorted() where found.kinds[name] == nil {
        let declaration = declarations[name]!
        parameters.append(
          DestinationParameter(
            name: name, type: ParameterType(declaration.type),
            isOptional: !declaration.required))
      }
      return Destination(target: target, parameters: parameters)
    }
  }
}

extension ParameterType {
  /// The type of a declared parameter.
  init(_ declared: CaptureType) {
    switch declared {
    case .int: self = .int
    case .float: self = .double
    case .string, .uuid, .path: self = .string
    }
  }

  /// The type of a parameter captured with these kinds.
  init(_ kinds: [CaptureKind]) {
    if kinds.allSatisfy({ $0 == .int }) {
      self = .int
    } else if kinds.allSatisfy({ $0 == .float }) {
      self = .double
    } else if kinds.allSatisfy({ $0 == .path || $0 == .rest }) {
      self = .segments(wildcard: kinds.contains(.rest))
    } else if case .valueSet(let first) = kinds[0],
      kinds.allSatisfy({
        if case .valueSet(let other) = $0 { return Set(other) == Set(first) }
        return false
      })
    {
      var alternatives: [String] = []
      for alternative in first where !alternatives.contains(alternative) {
        alternatives.append(alternative)
      }
      self = .valueSet(alternatives)
    } else {
      self = .string
    }
  }
}
