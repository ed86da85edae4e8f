import JSON
import Lint
import Render
import Routing
import Shell

/// A route table as a tree, the way `appshell routes` shows it: one root per scheme (global
/// patterns under `/`, last), then a domain if the pattern names one, then one node per path
/// segment. A route sits on the node of its last segment, or, when it has optional groups or
/// query constraints, on a child node labelled with them (`(/:query)`, `?id=<int:id>`).
/// Siblings come in the order they are tried: those labelled with groups or a query, domains,
/// then literals (by their bytes), `int`, `float`, `uuid`, string captures, `<path:>` and `*`.
struct RouteTree {
  /// One node: a scheme, a domain, a segment, or a route's groups and query.
  struct Node {
    /// What a node stands for.
    enum Kind: Equatable {
      /// The root of the patterns of one scheme.
      case scheme
      /// The root of the global patterns.
      case global
      /// Groups and query constraints of the routes on the node.
      case suffix
      /// A domain the patterns require.
      case domain
      /// A path segment, of the kind the ranking compares.
      case segment(MatchKind)

      /// The name in the JSON form: `scheme`, `global`, `suffix`, `domain`, or the segment's
      /// kind (`literal` to `path`, and `rest` for `*`).
      var name: String {
        switch self {
        case .scheme: return "scheme"
        case .global: return "global"
        case .suffix: return "suffix"
        case .domain: return "domain"
        case .segment(let kind): return kind == .rest ? "rest" : kind.description
        }
      }

      /// Siblings are listed in this order: suffixes, domains, then segments as they rank.
      var order: Int {
        switch self {
        case .scheme, .global: return 0
        case .suffix: return 1
        case .domain: return 2
        case .segment(let kind): return 3 + kind.rawValue
        }
      }
    }

    var kind: Kind
    /// The text shown: segments written as in a pattern, literals decoded with the characters
    /// that would read as pattern syntax escaped again.
    var label: String
    /// The routes on this node, by index, in table order.
    var routes: [Int] = []
    var children: [Node] = []

    /// Finds a child by kind and label while the tree is built.
    private var childIndex: [String: Int] = [:]

    init(kind: Kind, label: String) {
      self.kind = kind
      self.label = label
    }

    /// Adds a route below this node along `path`.
    mutating func insert(_ path: ArraySlice<(Kind, String)>, route: Int) {
      guard let (kind, label) = path.first else {
        routes.append(route)
        return
      }
      let key = kind.name + " " + label
      if let position = childIndex[key] {
        children[position].insert(path.dropFirst(), route: route)
      } else {
        var child = Node(kind: kind, label: label)
        child.insert(path.dropFirst(), route: route)
        childIndex[key] = children.count
        children.append(child)
      }
    }

    /// Sorts the children, all the way down, in the order they are tried.
    mutating func sort() {
      children.sort { a, b in
        if a.kind.order != b.kind.order { return a.kind.order < b.kind.order }
        return a.label.utf8.lexicographicallyPrecedes(b.label.utf8)
      }
      childIndex = [:]
      for index in children.indices { children[index].sort() }
    }

    /// The node as JSON: `label`, `kind`, `routes` (indexes) and `children`.
    var json: JSON {
      .object([
        JSONMember("label", .string(label)),
        JSONMember("kind", .string(kind.name)),
        JSONMember("routes", .array(routes.map { .number(String($0)) })),
        JSONMember("children", .array(children.map(\.json))),
      ])
    }
  }

  /// The table's entries.
  let entries: [RouteEntry]
  /// The table's version.
  let version: Int?
  /// The scheme roots, by scheme, then the global root when there are global patterns.
  let roots: [Node]

  /// The tree of a table's routes.
  init(_ table: RouteTable) {
    entries = table.entries
    version = table.version
    var schemes: [String: Node] = [:]
    var global = Node(kind: .global, label: "/")
    var hasGlobal = false
    for entry in entries {
      let pattern = entry.pattern
      var path: [(Node.Kind, String)] = []
      if let domain = pattern.domain { path.append((.domain, Self.escape(domain))) }
      path += pattern.segments.map(Self.label)
      if !pattern.groups.isEmpty || !pattern.constraints.isEmpty || pattern.fragment != nil
        || !pattern.caseSensitive
      {
        path.append((.suffix, Self.suffix(pattern)))
      }
      if let scheme = pattern.scheme {
        // The scheme as first written, for display; routes group by it in any case.
        let written = String(pattern.text.utf8.prefix(scheme.utf8.count)) ?? scheme
        schemes[scheme, default: Node(kind: .scheme, label: Self.escape(written) + "://")]
          .insert(path[...], route: entry.index)
      } else {
        hasGlobal = true
        global.insert(path[...], route: entry.index)
      }
    }
    var roots = schemes.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
    if hasGlobal { roots.append(global) }
    for index in roots.indices { roots[index].sort() }
    self.roots = roots
  }

  // MARK: - Labels

  /// How a pattern segment is shown.
  static func label(_ segment: PatternSegment) -> (Node.Kind, String) {
    let name = segment.name ?? ""
    let kind = Node.Kind.segment(MatchKind(segment.kind))
    switch segment.kind {
    case .literal(let text): return (kind, escape(text))
    case .capture(.string): return (kind, ":" + name)
    case .capture(let type): return (kind, "<\(type.rawValue):\(name)>")
    case .oneOf(let alternatives):
      return (kind, "<" + alternatives.map { escape($0) }.joined(separator: "|") + ":\(name)>")
    case .regex(let regex): return (kind, ":\(name)(\(regex.source))")
    case .path: return (kind, "<path:\(name)>")
    case .rest: return (kind, "*")
    }
  }

  /// A route's optional groups, query constraints and fragment, as in a pattern, then
  /// `(any case)` for a route whose literals ignore case.
  static func suffix(_ pattern: RoutePattern) -> String {
    var text = ""
    for group in pattern.groups {
      text += "(/" + group.map { label($0).1 }.joined(separator: "/") + ")"
    }
    if !pattern.constraints.isEmpty {
      text += "?" + constraints(pattern.constraints)
    }
    switch pattern.fragment {
    case nil: break
    case .segments(let list)?: text += "#" + list.map { label($0).1 }.joined(separator: "/")
    case .query(let list)?: text += "#" + constraints(list)
    }
    if !pattern.caseSensitive { text += text.isEmpty ? "(any case)" : " (any case)" }
    return text
  }

  /// Query constraints as in a pattern.
  static func constraints(_ list: [QueryConstraint]) -> String {
    list.map { constraint -> String in
      let key = escape(constraint.key, query: true)
      switch constraint.value {
      case .literal(let value): return key + "=" + escape(value, query: true)
      case .capture(.string, let name): return key + "=:" + name
      case .capture(let type, let name): return key + "=<\(type.rawValue):\(name)>"
      case .oneOf(let alternatives, let name):
        return key + "=<" + alternatives.map { escape($0, query: true) }.joined(separator: "|")
          + ":\(name)>"
      case .regex(let regex, let name): return key + "=:\(name)(\(regex.source))"
      case .absent: return "!" + key
      }
    }.joined(separator: "&")
  }

  /// Decoded literal text with what would read as pattern syntax (or not show) escaped again
  /// as `%XX`: `%`, separators, brackets, spaces and controls, a leading `:` and a lone `*`;
  /// `&`, `=` and `+` too in a query.
  static func escape(_ text: String, query: Bool = false) -> String {
    var bytes: [UInt8] = []
    let hex = Array("0123456789ABCDEF".utf8)
    for (offset, byte) in text.utf8.enumerated() {
      var special: Bool
      switch byte {
      case 0x00...0x20, 0x7F, 0x25, 0x2F, 0x3F, 0x23, 0x28, 0x29, 0x3C, 0x3E: special = true
      case 0x26, 0x3D, 0x2B: special = query
      case 0x3A: special = offset == 0
      default: special = false
      }
      if byte == 0x2A && text.utf8.count == 1 { special = true }
      if special {
        bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - Text

  /// What a route does and how, after its index: `screen order-detail  rename id→orderid`.
  static func describe(_ entry: RouteEntry) -> String {
    var items: [String]
    switch entry.target {
    case .screen(let name): items = ["screen " + name]
    case .action(let name): items = ["action " + name]
    case .notification(let name): items = ["notification " + name]
    case .redirect(let template): items = ["redirect " + template.text]
    }
    if entry.priority != 0 { items.append("priority \(entry.priority)") }
    if case .screen = entry.target, entry.presentation == .present { items.append("present") }
    if !entry.external { items.append("internal-only") }
    if let minVersion = entry.minVersion { items.append("minVersion \(minVersion)") }
    if let name = entry.guardName { items.append("guard " + name) }
    if let parent = entry.parent { items.append("parent " + parent) }
    if let tab = entry.tab { items.append("tab " + tab) }
    if entry.arrival != .push { items.append("arrival " + entry.arrival.rawValue) }
    if !entry.rename.isEmpty {
      let pairs = entry.rename.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      items.append("rename " + pairs.map { "\($0.key)→\($0.value)" }.joined(separator: ", "))
    }
    return items.joined(separator: "  ")
  }

  /// The tree as text: a header, then each root and its nodes drawn with `├─ └─ │`, and each
  /// route at one aligned column as `[index] target  flags`. Every line is inert (no control
  /// or invisible format characters) and has no trailing spaces.
  var text: String {
    var rows: [(tree: String, route: Int?)] = []
    func emit(_ node: Node, linePrefix: String, childPrefix: String) {
      let label = node.kind == .global ? "/ (global: any scheme, or none)" : inert(node.label)
      rows.append((linePrefix + label, node.routes.first))
      for route in node.routes.dropFirst() {
        rows.append((childPrefix + (node.children.isEmpty ? "" : "│"), route))
      }
      for (offset, child) in node.children.enumerated() {
        let last = offset == node.children.count - 1
        emit(
          child, linePrefix: childPrefix + (last ? "└─ " : "├─ "),
          childPrefix: childPrefix + (last ? "   " : "│  "))
      }
    }
    let count = entries.count
    var out = "\(count) \(count == 1 ? "route" : "routes"), "
    out += version.map { "table version \($0)" } ?? "no table version"
    out += "\n"
    guard !roots.isEmpty else { return out }
    out +=
      "[N] is the route's index in \"routes\"; siblings are listed in the order they are tried.\n"
    for (offset, root) in roots.enumerated() {
      if offset > 0 { rows.append(("", nil)) }
      emit(root, linePrefix: "", childPrefix: "")
    }
    let column = rows.filter { $0.route != nil }.map { TextWidth.of($0.tree) }.max() ?? 0
    let indexWidth = "[\(max(count - 1, 0))]".count
    out += "\n"
    for row in rows {
      guard let route = row.route else {
        out += row.tree + "\n"
        continue
      }
      let pad = String(repeating: " ", count: column - TextWidth.of(row.tree) + 2)
      let index = "[\(route)]"
      let indexPad = String(repeating: " ", count: indexWidth - index.count + 1)
      out += row.tree + pad + index + indexPad + inert(Self.describe(entries[route])) + "\n"
    }
    return out
  }

  // MARK: - JSON

  /// One route as JSON, every member always present in this order: `index`, `pattern` (as
  /// written), `target` (`kind`, and `name`: the screen, action or notification, or the
  /// redirect template), `priority`, `presentation`, `external`, `minVersion`, `guard`,
  /// `parent` and `tab` (null when absent), `arrival`, `rename` (sorted by key).
  static func json(_ entry: RouteEntry) -> JSON {
    let name: String
    switch entry.target {
    case .screen(let text), .action(let text), .notification(let text): name = text
    case .redirect(let template): name = template.text
    }
    let rename = entry.rename.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    return .object([
      JSONMember("index", .number(String(entry.index))),
      JSONMember("pattern", .string(entry.pattern.text)),
      JSONMember(
        "target",
        .object([
          JSONMember("kind", .string(entry.target.field)), JSONMember("name", .string(name)),
        ])),
      JSONMember("priority", .number(String(entry.priority))),
      JSONMember("presentation", .string(entry.presentation.rawValue)),
      JSONMember("external", .bool(entry.external)),
      JSONMember("minVersion", entry.minVersion.map { .string($0.description) } ?? .null),
      JSONMember("guard", entry.guardName.map(JSON.string) ?? .null),
      JSONMember("parent", entry.parent.map(JSON.string) ?? .null),
      JSONMember("tab", entry.tab.map(JSON.string) ?? .null),
      JSONMember("arrival", .string(entry.arrival.rawValue)),
      JSONMember("rename", .object(rename.map { JSONMember($0.key, .string($0.value)) })),
    ])
  }

  /// The whole table as one JSON document: `version` (null when absent), `routes` (each as
  /// ``json(_:)``), `tree` (the roots) and, when `findings` is given, `lint` with the number
  /// of `problems` and the `findings`.
  func json(findings: [LintFinding]?) -> JSON {
    var members = [
      JSONMember("version", version.map { .number(String($0)) } ?? .null),
      JSONMember("routes", .array(entries.map(Self.json))),
      JSONMember("tree", .array(roots.map(\.json))),
    ]
    if let findings {
      members.append(
        JSONMember(
          "lint",
          .object([
            JSONMember("problems", .number(String(findings.count))),
            JSONMember("findings", .array(findings.map(\.json))),
          ])))
    }
    return .object(members)
  }
}
