import JSON
import Links
import Routing
import Shell

/// An app's link surface: for every route expansion its facts and witness URLs, and for every
/// witness URL what opening it does from inside and from outside. Written as sorted lines (or
/// one JSON document) that do not depend on the order of routes that never tie.
package struct LinkSurface: Sendable {
  /// One route expansion.
  package struct Expansion: Sendable {
    /// The route's index in the table, and the expansion (a mask of optional groups).
    package var route: Int
    package var mask: Int
    /// The pattern as written, and this expansion written out.
    package var pattern: String
    package var expansion: String
    /// `screen NAME`, `redirect TEMPLATE`, ...: the target field and its text.
    package var target: (field: String, text: String)
    /// Parameter name -> its type, in the pattern's order.
    package var params: [(name: String, type: String)]
    /// The route's other fields as `name value` facts (`guard signed-in`, `tab Orders`, ...).
    package var fields: [(name: String, value: String)]
    /// Its witness URLs.
    package var witnesses: [String]

    /// The route expansion as named in lines: the pattern, and the expansion when the pattern
    /// has optional groups.
    package var key: String {
      expansion == pattern ? pattern : "\(pattern) [\(expansion)]"
    }
  }

  /// The app's facts that decide delivery (`version 1.0`, `scheme myapp`, ...).
  package var app: [(name: String, value: String)]
  /// Every route expansion, in table order.
  package var expansions: [Expansion]
  /// Every witness URL, each once, with what it does from inside and from outside.
  package var outcomes: [String: [LinkOrigin: SurfaceOutcome]]

  /// The surface of `app`.
  package init(_ app: ShellApp) {
    var facts: [(String, String)] = [("version", app.version.description)]
    if let links = app.links {
      facts.append(("appID", links.appID))
      facts += Set(links.schemes).sorted().map { ("scheme", $0) }
      facts += Set(links.domains).sorted().map { ("domain", "applinks:" + $0) }
      facts += links.aasa.keys.sorted().map { ("aasa", "\($0) \(links.aasa[$0]!.file)") }
    }
    self.app = facts
    let context = app.witnessContext
    var expansions: [Expansion] = []
    var outcomes: [String: [LinkOrigin: SurfaceOutcome]] = [:]
    for entry in app.table.entries {
      for mask in 0..<entry.pattern.expansionCount {
        let urls = Witnesses.urls(entry.pattern, mask: mask, context: context)
        expansions.append(Self.expansion(entry, mask: mask, witnesses: urls))
        for url in urls where outcomes[url] == nil {
          outcomes[url] = [
            .inside: app.surfaceOutcome(of: url, from: .inside),
            .outside: app.surfaceOutcome(of: url, from: .outside),
          ]
        }
      }
    }
    self.expansions = expansions
    self.outcomes = outcomes
  }

  static func expansion(_ entry: RouteEntry, mask: Int, witnesses: [String]) -> Expansion {
    let pattern = entry.pattern
    let target: (String, String)
    switch entry.target {
    case .screen(let name), .action(let name), .notification(let name):
      target = (entry.target.field, name)
    case .redirect(let template): target = ("redirect", template.text)
    }
    var fields: [(String, String)] = []
    if entry.priority != 0 { fields.append(("priority", String(entry.priority))) }
    if !entry.external { fields.append(("internal-only", "true")) }
    if let guardName = entry.guardName { fields.append(("guard", guardName)) }
    if let minVersion = entry.minVersion { fields.append(("minVersion", minVersion.description)) }
    if case .screen = entry.target {
      fields.append(("presentation", entry.presentation.rawValue))
      fields.append(("arrival", entry.arrival.rawValue))
    }
    if let tab = entry.tab { fields.append(("tab", tab)) }
    if let parent = entry.parent { fields.append(("parent", parent)) }
    for from in entry.rename.keys.sorted() {
      fields.append(("rename", "\(from) \(entry.rename[from]!)"))
    }
    if !pattern.caseSensitive { fields.append(("caseSensitive", "false")) }
    return Expansion(
      route: entry.index, mask: mask, pattern: pattern.text,
      expansion: PatternText.expansion(pattern, mask: mask), target: target,
      params: PatternText.parameters(pattern, mask: mask), fields: fields, witnesses: witnesses)
  }

  /// The text form: one fact a line, sorted byte by byte, each once.
  package var text: String {
    var lines: Set<String> = []
    for (name, value) in app { lines.insert("app \(name) \(value)") }
    for item in expansions {
      let head = "route \(item.key):"
      lines.insert("\(head) \(item.target.field) \(item.target.text)")
      for param in item.params { lines.insert("\(head) param \(param.name) \(param.type)") }
      for field in item.fields { lines.insert("\(head) \(field.name) \(field.value)") }
      for url in item.witnesses { lines.insert("\(head) witness \(url)") }
    }
    for (url, byOrigin) in outcomes {
      for origin in [LinkOrigin.inside, .outside] {
        lines.insert("url \(url) \(origin.rawValue): \(Self.describe(byOrigin[origin]!))")
      }
    }
    return lines.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { $0 + "\n" }.joined()
  }

  /// An outcome in a line of the text form.
  package static func describe(_ outcome: SurfaceOutcome) -> String {
    switch outcome {
    case .reached(let reach):
      var text = "\(reach.kind) \(reach.name) \(reach.params.json.serialized) by \(reach.pattern)"
      if !reach.redirects.isEmpty {
        text += " after redirect " + reach.redirects.joined(separator: " -> ")
      }
      return text
    case .unmatched(let why): return why.map { "matches no route: \($0)" } ?? "matches no route"
    case .refused(let why): return "refused: \(why)"
    case .safari(let why): return "opens in Safari: \(why)"
    case .nothing(let why): return "nothing opens it: \(why)"
    }
  }

  /// An outcome as JSON: `screen`, `action` or `notification` with `params` (and `pattern`,
  /// `redirects`), or `unmatched`, `refused`, `safari` or `nothing` set to `true` with `reason`.
  package static func json(_ outcome: SurfaceOutcome) -> JSON {
    switch outcome {
    case .reached(let reach):
      var members = [
        JSONMember(reach.kind, .string(reach.name)), JSONMember("params", reach.params.json),
      ]
      if !reach.redirects.isEmpty {
        members.append(JSONMember("redirects", .array(reach.redirects.map(JSON.string))))
      }
      return .object(members)
    case .unmatched(let why):
      return .object(
        [JSONMember("unmatched", .bool(true))]
          + (why.map { [JSONMember("reason", .string($0))] }
            ?? []))
    case .refused(let why):
      return .object([JSONMember("refused", .bool(true)), JSONMember("reason", .string(why))])
    case .safari(let why):
      return .object([JSONMember("safari", .bool(true)), JSONMember("reason", .string(why))])
    case .nothing(let why):
      return .object([JSONMember("nothing", .bool(true)), JSONMember("reason", .string(why))])
    }
  }

  /// The JSON form: `app`, `routes` (sorted by pattern and expansion) and `urls` (sorted),
  /// one route or URL a line.
  package var jsonText: String {
    func sortedByText<T>(_ items: [T], _ key: (T) -> String) -> [T] {
      items.sorted { key($0).utf8.lexicographicallyPrecedes(key($1).utf8) }
    }
    var appMembers: [JSONMember] = []
    for name in ["version", "appID"] {
      if let fact = app.first(where: { $0.name == name }) {
        appMembers.append(JSONMember(name, .string(fact.value)))
      }
    }
    for (name, plural) in [("scheme", "schemes"), ("domain", "domains"), ("aasa", "aasa")] {
      let values = app.filter { $0.name == name }.map { JSON.string($0.value) }
      if !values.isEmpty { appMembers.append(JSONMember(plural, .array(values))) }
    }
    let appJSON = JSON.object(appMembers)
    var routeLines: [String] = []
    for item in sortedByText(expansions, \.key) {
      var members = [
        JSONMember("pattern", .string(item.pattern)),
        JSONMember("expansion", .string(item.expansion)),
        JSONMember(item.target.field, .string(item.target.text)),
        JSONMember("params", .object(item.params.map { JSONMember($0.name, .string($0.type)) })),
      ]
      var renames: [JSONMember] = []
      for field in item.fields {
        switch field.name {
        case "rename":
          let pair = field.value.split(separator: " ", maxSplits: 1).map(String.init)
          renames.append(JSONMember(pair[0], .string(pair.count > 1 ? pair[1] : "")))
        case "priority": members.append(JSONMember(field.name, .number(field.value)))
        case "internal-only", "caseSensitive":
          members.append(JSONMember(field.name, .bool(field.value == "true")))
        default: members.append(JSONMember(field.name, .string(field.value)))
        }
      }
      if !renames.isEmpty { members.append(JSONMember("rename", .object(renames))) }
      members.append(JSONMember("witnesses", .array(item.witnesses.map(JSON.string))))
      routeLines.append(JSON.object(members).serialized)
    }
    var urlLines: [String] = []
    for url in outcomes.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      let byOrigin = outcomes[url]!
      urlLines.append(
        JSON.object([
          JSONMember("url", .string(url)),
          JSONMember("inside", Self.json(byOrigin[.inside]!)),
          JSONMember("outside", Self.json(byOrigin[.outside]!)),
        ]).serialized)
    }
    // Two routes may share a key only when identical; keep the lines unique and sorted.
    routeLines = Array(Set(routeLines)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    func list(_ lines: [String]) -> String {
      lines.isEmpty ? "[]" : "[\n    " + lines.joined(separator: ",\n    ") + "\n  ]"
    }
    return "{\n  \"app\": \(appJSON.serialized),\n  \"routes\": \(list(routeLines)),\n"
      + "  \"urls\": \(list(urlLines))\n}\n"
  }
}
