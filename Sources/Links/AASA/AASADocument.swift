import JSON
import Routing

/// An `apple-app-site-association` file's `applinks`, read and compiled: its `details`
/// entries with their components (or legacy `paths`), defaults and substitution variables
/// resolved. Members it does not use (`webcredentials`, `appclips`, `applinks.apps`, ...) are
/// ignored.
package struct AASADocument: Sendable {
  /// The `applinks.details` entries, in order.
  package var details: [Detail]

  /// One `details` entry.
  package struct Detail: Sendable {
    /// Its index in `applinks.details`.
    package var index: Int
    /// The app IDs it is for (`appIDs` and `appID` together).
    package var appIDs: [String]
    /// Its components, when it has the member.
    package var components: [Component]?
    /// Its legacy `paths`, when it has the member (used only without `components`).
    package var paths: [LegacyPath]?

    /// `applinks.details[i]`.
    package var member: String { "applinks.details[\(index)]" }
  }

  /// One component: every key it has must match.
  package struct Component: Sendable {
    /// Its index in the entry's `components`.
    package var index: Int
    /// The `/` pattern, compared with the path.
    package var path: AASAPattern?
    /// The `#` pattern, compared with the fragment.
    package var fragment: AASAPattern?
    /// The `?` member.
    package var query: Query?
    /// `exclude`: a match refuses the URL.
    package var exclude = false
    /// The options in force (component, else entry defaults, else file defaults).
    package var options = AASAPattern.Options()
  }

  /// A component's `?`: a pattern for the whole query, or one per query item.
  package enum Query: Sendable {
    /// Compared with the whole query.
    case whole(AASAPattern)
    /// Every occurrence of each named item must match its pattern (missing counts as `""`).
    case items([QueryItemPattern])
  }

  /// One `name: pattern` of a `?` object.
  package struct QueryItemPattern: Sendable {
    /// The item name as written.
    package var name: String
    /// The name as compared.
    package var normalizedName: [Unicode.Scalar]
    /// The value's pattern.
    package var pattern: AASAPattern
  }

  /// A legacy `paths` string: `NOT ` excludes; `*` and `?` only, case-sensitive, as written.
  package struct LegacyPath: Sendable {
    /// Its index in `paths`.
    package var index: Int
    /// Whether it starts with `NOT `.
    package var exclude: Bool
    /// The pattern after `NOT `.
    package var pattern: AASAPattern
  }

  /// Reads an AASA file's bytes.
  package init(bytes: [UInt8]) throws(AASAError) {
    let json: JSON
    do {
      json = try JSON.parse(bytes)
    } catch {
      throw AASAError("", "invalid JSON: \(error)")
    }
    try self.init(json: json)
  }

  /// Reads an AASA document.
  package init(json: JSON) throws(AASAError) {
    guard case .object = json else {
      throw AASAError("", "must be a JSON object, not \(json.kindDescription)")
    }
    details = []
    guard let applinks = json["applinks"] else { return }
    guard case .object = applinks else {
      throw AASAError("applinks", "must be an object, not \(applinks.kindDescription)")
    }
    let fileDefaults = try Self.options(
      applinks["defaults"], "applinks.defaults", AASAPattern.Options())
    var variables: [String: [String]] = [:]
    if let json = applinks["substitutionVariables"] {
      guard case .object(let members) = json else {
        throw AASAError("applinks.substitutionVariables", "must be an object")
      }
      for member in members {
        let place = "applinks.substitutionVariables.\(Self.key(member.key))"
        guard !member.key.isEmpty, member.key.unicodeScalars.allSatisfy(AASAPattern.isNameScalar)
        else {
          throw AASAError(place, "a variable name is not empty and has no $, ( or )")
        }
        guard case .array(let items) = member.value else {
          throw AASAError(place, "must be an array of strings")
        }
        var values: [String] = []
        for (index, item) in items.enumerated() {
          guard case .string(let text) = item else {
            throw AASAError("\(place)[\(index)]", "must be a string")
          }
          do {
            try AASAPattern.checkVariableValue(text)
          } catch {
            throw AASAError("\(place)[\(index)]", error.message)
          }
          values.append(text)
        }
        variables[member.key] = values
      }
    }
    guard let detailsJSON = applinks["details"] else { return }
    guard case .array(let items) = detailsJSON else {
      throw AASAError(
        "applinks.details",
        "must be an array (the object keyed by app ID is the old iOS 9 form), not \(detailsJSON.kindDescription)"
      )
    }
    for (index, item) in items.enumerated() {
      details.append(
        try Self.detail(item, index: index, defaults: fileDefaults, variables: variables))
    }
  }

  private static func detail(
    _ json: JSON, index: Int, defaults fileDefaults: AASAPattern.Options,
    variables: [String: [String]]
  ) throws(AASAError) -> Detail {
    let place = "applinks.details[\(index)]"
    guard case .object = json else {
      throw AASAError(place, "must be an object, not \(json.kindDescription)")
    }
    var appIDs: [String] = []
    if let value = json["appIDs"] {
      guard case .array(let items) = value else {
        throw AASAError("\(place).appIDs", "must be an array of strings")
      }
      for (position, item) in items.enumerated() {
        guard case .string(let text) = item else {
          throw AASAError("\(place).appIDs[\(position)]", "must be a string")
        }
        appIDs.append(text)
      }
    }
    if let value = json["appID"] {
      guard case .string(let text) = value else {
        throw AASAError("\(place).appID", "must be a string")
      }
      appIDs.append(text)
    }
    guard json["appIDs"] != nil || json["appID"] != nil else {
      throw AASAError(place, "needs appIDs (or appID)")
    }
    let defaults = try options(json["defaults"], "\(place).defaults", fileDefaults)
    var detail = Detail(index: index, appIDs: appIDs)
    if let value = json["components"] {
      guard case .array(let items) = value else {
        throw AASAError("\(place).components", "must be an array of objects")
      }
      var components: [Component] = []
      for (position, item) in items.enumerated() {
        components.append(
          try component(
            item, "\(place).components[\(position)]", index: position, defaults: defaults,
            variables: variables))
      }
      detail.components = components
    }
    if let value = json["paths"] {
      guard case .array(let items) = value else {
        throw AASAError("\(place).paths", "must be an array of strings")
      }
      var paths: [LegacyPath] = []
      for (position, item) in items.enumerated() {
        guard case .string(let text) = item else {
          throw AASAError("\(place).paths[\(position)]", "must be a string")
        }
        let exclude = text.hasPrefix("NOT ")
        paths.append(
          LegacyPath(
            index: position, exclude: exclude,
            pattern: AASAPattern(legacy: exclude ? String(text.dropFirst(4)) : text)))
      }
      detail.paths = paths
    }
    return detail
  }

  private static func component(
    _ json: JSON, _ place: String, index: Int, defaults: AASAPattern.Options,
    variables: [String: [String]]
  ) throws(AASAError) -> Component {
    guard case .object = json else {
      throw AASAError(place, "must be an object, not \(json.kindDescription)")
    }
    var component = Component(index: index)
    component.options = try options(json, place, defaults)
    if let value = json["exclude"] {
      guard case .bool(let flag) = value else {
        throw AASAError("\(place).exclude", "must be true or false")
      }
      component.exclude = flag
    }
    func pattern(_ text: String, _ member: String) throws(AASAError) -> AASAPattern {
      do {
        return try AASAPattern(text, options: component.options, variables: variables)
      } catch {
        throw AASAError(member, error.message)
      }
    }
    for key in ["/", "#"] {
      guard let value = json[key] else { continue }
      let member = "\(place).\(Self.key(key))"
      guard case .string(let text) = value else {
        throw AASAError(member, "must be a string, not \(value.kindDescription)")
      }
      if key == "/" {
        component.path = try pattern(text, member)
      } else {
        component.fragment = try pattern(text, member)
      }
    }
    if let value = json["?"] {
      let member = "\(place).\(Self.key("?"))"
      switch value {
      case .string(let text):
        component.query = .whole(try pattern(text, member))
      case .object(let members):
        var items: [QueryItemPattern] = []
        for item in members {
          let itemPlace = "\(member).\(Self.key(item.key))"
          guard case .string(let text) = item.value else {
            throw AASAError(itemPlace, "must be a string, not \(item.value.kindDescription)")
          }
          items.append(
            QueryItemPattern(
              name: item.key,
              normalizedName: AASAPattern.normalized(item.key, options: component.options),
              pattern: try pattern(text, itemPlace)))
        }
        component.query = .items(items)
      default:
        throw AASAError(member, "must be a string or an object")
      }
    }
    return component
  }

  /// `caseSensitive` and `percentEncoded` of an object, over `inherited`.
  private static func options(_ json: JSON?, _ place: String, _ inherited: AASAPattern.Options)
    throws(AASAError) -> AASAPattern.Options
  {
    guard let json else { return inherited }
    guard case .object = json else {
      throw AASAError(place, "must be an object, not \(json.kindDescription)")
    }
    var options = inherited
    for key in ["caseSensitive", "percentEncoded"] {
      guard let value = json[key] else { continue }
      guard case .bool(let flag) = value else {
        throw AASAError("\(place).\(key)", "must be true or false")
      }
      if key == "caseSensitive" {
        options.caseSensitive = flag
      } else {
        options.percentEncoded = flag
      }
    }
    return options
  }

  /// A member name in a path: as is when it is letters, digits and `_`, else quoted.
  static func key(_ name: String) -> String {
    let plain =
      !name.isEmpty
      && name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_")
      }
    return plain ? name : JSON.quote(name)
  }
}

/// An AASA file that cannot be used: the member and the problem (the loader adds the file).
package struct AASAError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The member, such as `applinks.details[0].components[2]."?"`; empty for the whole file.
  package var member: String
  /// What is wrong.
  package var problem: String

  /// Makes an error.
  package init(_ member: String, _ problem: String) {
    self.member = member
    self.problem = problem
  }

  /// `MEMBER: problem`, or the problem alone.
  package var description: String { member.isEmpty ? problem : "\(member): \(problem)" }
}

extension AASAPattern {
  /// A legacy `paths` pattern: `*` and `?` only; `$` is itself; escapes compare in uppercase,
  /// as the path does.
  init(legacy text: String) {
    self.text = text
    tokens = []
    for scalar in Self.uppercasingEscapes(text).unicodeScalars {
      switch scalar {
      case "*": if tokens.last != .any { tokens.append(.any) }
      case "?": tokens.append(.one)
      default: tokens.append(.scalar(scalar))
      }
    }
  }
}
