import JSON
import Links
import Routing

/// An action defined in data (`app.json`'s `actions`): its members apply in this order.
package struct DataAction: Sendable, Hashable {
  /// What `then` does after the rest.
  package enum Then: Sendable, Hashable {
    /// Dismiss the top modal.
    case dismiss
    /// Pop the top screen.
    case back
    /// Open this URL (a template) from inside the app.
    case open(TextTemplate)
  }

  /// Seconds before the rest applies (the action is asynchronous); nil: at once.
  package var after: Double?
  /// Flags set, in order.
  package var set: [FlagAssignment] = []
  /// Integer flags increased, in order.
  package var add: [FlagIncrement] = []
  /// The status-line text.
  package var status: TextTemplate?
  /// An alert.
  package var alert: AlertText?
  /// What happens last.
  package var then: Then?

  /// A flag set to a value.
  package struct FlagAssignment: Sendable, Hashable {
    /// The flag.
    package var name: String
    /// Its new value.
    package var value: FlagValue
  }

  /// An integer flag increased by an amount.
  package struct FlagIncrement: Sendable, Hashable {
    /// The flag.
    package var name: String
    /// The amount added.
    package var amount: Int64
  }

  /// An alert's texts.
  package struct AlertText: Sendable, Hashable {
    /// The title.
    package var title: TextTemplate
    /// The message.
    package var message: TextTemplate
  }
}

/// A guard defined in data: the flag values it requires and the URL opened when they do not
/// hold.
package struct DataGuard: Sendable, Hashable {
  /// Flag -> required value; all must hold.
  package var requires: [DataAction.FlagAssignment]
  /// The URL opened when they do not.
  package var open: String
}

/// A tab of `app.json`: its title and the URL of its root screen.
package struct TabDefinition: Sendable, Hashable {
  /// The tab's title.
  package var title: String
  /// The root URL, resolved from inside the app.
  package var root: String
}

/// An `app.json` that cannot be used: the member and the problem (the loader adds the file).
package struct AppFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `app.json: MEMBER: problem`.
  package var description: String

  /// Makes an error about a member (`tabs[1].root`); an empty member names the file.
  package init(_ member: String, _ problem: String) {
    description = member.isEmpty ? "app.json: \(problem)" : "app.json: \(member): \(problem)"
  }

  /// The message without the file: `MEMBER: problem`.
  package var member: String { String(description.dropFirst("app.json: ".count)) }
}

/// An app defined in data: `app.json` (docs/app.md describes the format).
package struct AppDefinition: Sendable, Hashable {
  /// The app's name.
  package var name: String
  /// The app's version, compared with routes' `minVersion`.
  package var version: AppVersion
  /// The tabs, in order; the first is selected at start.
  package var tabs: [TabDefinition]
  /// The flags and their initial values, in order.
  package var flags: Flags
  /// The guards by name, in the order written.
  package var guards: [(name: String, rule: DataGuard)]
  /// The data actions by name, in the order written.
  package var actions: [(name: String, action: DataAction)]
  /// `links`, as written (docs/links.md), when the app has it.
  package var links: LinksDefinition?
  /// The links with their files read (the loader reads them); nil: every URL from outside
  /// reaches the app.
  package var linkPolicy: LinkPolicy?

  package static func == (lhs: AppDefinition, rhs: AppDefinition) -> Bool {
    lhs.name == rhs.name && lhs.version == rhs.version && lhs.tabs == rhs.tabs
      && lhs.flags == rhs.flags && lhs.guards.map(\.name) == rhs.guards.map(\.name)
      && lhs.guards.map(\.rule) == rhs.guards.map(\.rule)
      && lhs.actions.map(\.name) == rhs.actions.map(\.name)
      && lhs.actions.map(\.action) == rhs.actions.map(\.action) && lhs.links == rhs.links
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(tabs)
  }

  /// The most tabs an app may have.
  package static let maxTabs = 5
  /// The longest `after`, in seconds.
  package static let maxAfter = 60.0

  /// Reads `app.json`'s bytes; a name written twice in one object is refused.
  package init(bytes: [UInt8]) throws(AppFileError) {
    let json: JSON
    do {
      json = try JSON.parse(bytes)
    } catch {
      throw AppFileError("", "invalid JSON: \(error)")
    }
    try self.init(json: json)
  }

  /// Reads and checks `app.json`: every member is known and of its type, and every flag used
  /// is declared with a value of its type.
  package init(json: JSON) throws(AppFileError) {
    let top = try Self.object(
      json, "", allowed: ["name", "version", "tabs", "flags", "guards", "actions", "links"])
    guard case .string(let name)? = top["name"] else {
      throw AppFileError("name", top["name"] == nil ? "required" : "must be a string")
    }
    guard !name.isEmpty else { throw AppFileError("name", "must not be empty") }
    self.name = name
    guard case .string(let versionText)? = top["version"] else {
      throw AppFileError("version", top["version"] == nil ? "required" : "must be a string")
    }
    guard let version = AppVersion(versionText) else {
      throw AppFileError(
        "version", "\(JSON.quote(versionText)) is not a version (dotted numbers, such as \"2.3.0\")"
      )
    }
    self.version = version

    guard let tabsJSON = top["tabs"] else { throw AppFileError("tabs", "required") }
    guard case .array(let tabItems) = tabsJSON else {
      throw AppFileError("tabs", "must be an array")
    }
    guard (1...Self.maxTabs).contains(tabItems.count) else {
      throw AppFileError("tabs", "must have 1 to \(Self.maxTabs) tabs, not \(tabItems.count)")
    }
    var tabs: [TabDefinition] = []
    for (index, item) in tabItems.enumerated() {
      let place = "tabs[\(index)]"
      let tab = try Self.object(item, place, allowed: ["title", "root"])
      let title = try Self.string(tab["title"], "\(place).title", required: true)!
      guard !title.isEmpty else { throw AppFileError("\(place).title", "must not be empty") }
      if tabs.contains(where: { $0.title == title }) {
        throw AppFileError("\(place).title", "\(JSON.quote(title)) is the title of another tab")
      }
      let root = try Self.string(tab["root"], "\(place).root", required: true)!
      guard !root.isEmpty else { throw AppFileError("\(place).root", "must not be empty") }
      tabs.append(TabDefinition(title: title, root: root))
    }
    self.tabs = tabs

    var flags = Flags()
    if let flagsJSON = top["flags"] {
      guard case .object(let members) = flagsJSON else {
        throw AppFileError("flags", "must be an object")
      }
      for member in members {
        guard !member.key.isEmpty else { throw AppFileError("flags", "a flag needs a name") }
        guard let value = FlagValue(json: member.value) else {
          throw AppFileError(
            "flags.\(member.key)",
            "must be a boolean, an integer or a string, not \(member.value.kindDescription)")
        }
        flags[member.key] = value
      }
    }
    self.flags = flags

    var guards: [(name: String, rule: DataGuard)] = []
    if let guardsJSON = top["guards"] {
      guard case .object(let members) = guardsJSON else {
        throw AppFileError("guards", "must be an object")
      }
      for member in members {
        let place = "guards.\(member.key)"
        let body = try Self.object(member.value, place, allowed: ["requires", "open"])
        guard let requiresJSON = body["requires"] else {
          throw AppFileError("\(place).requires", "required")
        }
        let requires = try Self.assignments(requiresJSON, "\(place).requires", flags: flags)
        let open = try Self.string(body["open"], "\(place).open", required: true)!
        guards.append((member.key, DataGuard(requires: requires, open: open)))
      }
    }
    self.guards = guards

    var actions: [(name: String, action: DataAction)] = []
    if let actionsJSON = top["actions"] {
      guard case .object(let members) = actionsJSON else {
        throw AppFileError("actions", "must be an object")
      }
      for member in members {
        actions.append(
          (member.key, try Self.action(member.value, "actions.\(member.key)", flags: flags)))
      }
    }
    self.actions = actions
    if let linksJSON = top["links"] { links = try Self.links(linksJSON) }
  }

  // MARK: - Reading members

  private static func links(_ json: JSON) throws(AppFileError) -> LinksDefinition {
    let body = try object(
      json, "links",
      allowed: ["appID", "schemes", "associatedDomains", "aasa", "infoPlist", "entitlements"])
    let appID = try string(body["appID"], "links.appID", required: true)!
    guard appID.contains("."), !appID.hasPrefix("."), !appID.hasSuffix(".") else {
      throw AppFileError("links.appID", "\(JSON.quote(appID)) is not TEAMID.bundle-id")
    }
    var links = LinksDefinition(appID: appID)
    func strings(_ key: String) throws(AppFileError) -> [String] {
      guard let value = body[key] else { return [] }
      guard case .array(let items) = value else {
        throw AppFileError("links.\(key)", "must be an array of strings")
      }
      var result: [String] = []
      for (index, item) in items.enumerated() {
        guard case .string(let text) = item, !text.isEmpty else {
          throw AppFileError("links.\(key)[\(index)]", "must be a non-empty string")
        }
        result.append(text)
      }
      return result
    }
    for (index, scheme) in try strings("schemes").enumerated() {
      if let problem = LinksDefinition.schemeProblem(scheme) {
        throw AppFileError("links.schemes[\(index)]", problem)
      }
      links.schemes.append(scheme)
    }
    for (index, entry) in try strings("associatedDomains").enumerated() {
      do {
        if let host = try LinksDefinition.applinksHost(entry) { links.domains.append(host) }
      } catch {
        throw AppFileError("links.associatedDomains[\(index)]", error.description)
      }
    }
    if let aasa = body["aasa"] {
      guard case .object(let members) = aasa else {
        throw AppFileError("links.aasa", "must be an object of host -> file")
      }
      for member in members {
        let place = "links.aasa.\(JSON.quote(member.key))"
        let file = try string(member.value, place, required: true)!
        guard !member.key.isEmpty, !file.isEmpty else {
          throw AppFileError(place, "needs a host and a file")
        }
        if links.aasa.contains(where: { $0.host.lowercased() == member.key.lowercased() }) {
          throw AppFileError(place, "the host is named twice")
        }
        links.aasa.append((member.key, file))
      }
    }
    links.infoPlist = try string(body["infoPlist"], "links.infoPlist", required: false)
    links.entitlements = try string(body["entitlements"], "links.entitlements", required: false)
    return links
  }

  private static func object(_ json: JSON, _ place: String, allowed: Set<String>)
    throws(AppFileError) -> JSON
  {
    guard case .object(let members) = json else {
      throw AppFileError(place, "must be an object, not \(json.kindDescription)")
    }
    for member in members where !allowed.contains(member.key) {
      throw AppFileError(
        place.isEmpty ? member.key : "\(place).\(member.key)",
        CloseName.unknownField(member.key, fields: allowed.sorted()))
    }
    return json
  }

  private static func string(_ json: JSON?, _ place: String, required: Bool)
    throws(AppFileError) -> String?
  {
    guard let json else {
      if required { throw AppFileError(place, "required") }
      return nil
    }
    guard case .string(let text) = json else {
      throw AppFileError(place, "must be a string, not \(json.kindDescription)")
    }
    return text
  }

  private static func assignments(_ json: JSON, _ place: String, flags: Flags)
    throws(AppFileError) -> [DataAction.FlagAssignment]
  {
    guard case .object(let members) = json else {
      throw AppFileError(place, "must be an object of flag values")
    }
    var result: [DataAction.FlagAssignment] = []
    for member in members {
      let memberPlace = "\(place).\(member.key)"
      guard let declared = flags[member.key] else {
        throw AppFileError(
          memberPlace, "no flag named \(JSON.quote(member.key)) (declare it under \"flags\")")
      }
      guard let value = FlagValue(json: member.value), value.hasSameType(as: declared) else {
        throw AppFileError(
          memberPlace,
          "must be \(declared.typePhrase), as the flag is, not \(member.value.kindDescription)")
      }
      result.append(DataAction.FlagAssignment(name: member.key, value: value))
    }
    return result
  }

  private static func template(_ json: JSON?, _ place: String, flags: Flags)
    throws(AppFileError) -> TextTemplate?
  {
    guard let text = try string(json, place, required: false) else { return nil }
    let template: TextTemplate
    do {
      template = try TextTemplate(text)
    } catch {
      throw AppFileError(place, error.description)
    }
    for name in template.parameterNames where name.hasPrefix("flags.") {
      let flag = String(name.dropFirst("flags.".count))
      if flags[flag] == nil {
        throw AppFileError(place, "{{\(name)}}: no flag named \(JSON.quote(flag))")
      }
    }
    return template
  }

  private static func action(_ json: JSON, _ place: String, flags: Flags)
    throws(AppFileError) -> DataAction
  {
    let body = try object(
      json, place, allowed: ["after", "set", "add", "status", "alert", "then"])
    var action = DataAction()
    if let after = body["after"] {
      guard case .number(let text) = after, let seconds = Double(text) else {
        throw AppFileError("\(place).after", "must be a number of seconds")
      }
      guard seconds >= 0, seconds <= maxAfter else {
        throw AppFileError("\(place).after", "must be 0 to \(Int(maxAfter)) seconds, not \(text)")
      }
      action.after = seconds
    }
    if let set = body["set"] {
      action.set = try assignments(set, "\(place).set", flags: flags)
    }
    if let add = body["add"] {
      guard case .object(let members) = add else {
        throw AppFileError("\(place).add", "must be an object of integers")
      }
      for member in members {
        let memberPlace = "\(place).add.\(member.key)"
        guard let declared = flags[member.key] else {
          throw AppFileError(
            memberPlace, "no flag named \(JSON.quote(member.key)) (declare it under \"flags\")")
        }
        guard case .int = declared else {
          throw AppFileError(
            memberPlace, "the flag is \(declared.typePhrase); add needs an integer flag")
        }
        guard case .int(let amount)? = FlagValue(json: member.value) else {
          throw AppFileError(memberPlace, "must be an integer, not \(member.value.kindDescription)")
        }
        action.add.append(DataAction.FlagIncrement(name: member.key, amount: amount))
      }
    }
    action.status = try template(body["status"], "\(place).status", flags: flags)
    if let alert = body["alert"] {
      let alertBody = try object(alert, "\(place).alert", allowed: ["title", "message"])
      guard let title = try template(alertBody["title"], "\(place).alert.title", flags: flags)
      else { throw AppFileError("\(place).alert.title", "required") }
      let message =
        try template(alertBody["message"], "\(place).alert.message", flags: flags)
        ?? TextTemplate(verbatim: "")
      action.alert = DataAction.AlertText(title: title, message: message)
    }
    if let then = try template(body["then"], "\(place).then", flags: flags) {
      switch then.source {
      case "dismiss": action.then = .dismiss
      case "back": action.then = .back
      case "":
        throw AppFileError("\(place).then", "must be \"dismiss\", \"back\" or a URL")
      default: action.then = .open(then)
      }
    }
    return action
  }
}

extension TextTemplate {
  /// A template that is all text, with no placeholders.
  init(verbatim text: String) {
    source = text
    pieces = text.isEmpty ? [] : [.text(text)]
  }

  /// The text with `{{param}}` from the parameters and `{{flags.NAME}}` from the flags.
  package func render(
    _ params: Parameters, flags: Flags, encode: (String) -> String = { $0 }
  ) -> String {
    guard parameterNames.contains(where: { $0.hasPrefix("flags.") }) else {
      return render(params, encode: encode)
    }
    var merged = params
    for name in flags.names {
      merged["flags." + name] = .string(flags[name]!.description)
    }
    return render(merged, encode: encode)
  }
}
