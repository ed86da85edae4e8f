import JSON
import Routing

/// Sample URLs of a route pattern, and the AASA document a route table's `https` routes call
/// for (`appshell routes --export aasa`).
package enum AASAExport {
  /// One URL per expansion of the pattern's optional groups: each capture filled with a sample
  /// of its type (`1`, `1.5`, a UUID, `sample`), a path tail with one segment, and each query
  /// constraint once. Empty for a pattern without a scheme, unless `host` is given: a pattern
  /// without scheme and host matches any, so its samples are then `https` URLs on `host`. A
  /// `*.` domain is sampled on its `www` subdomain.
  package static func sampleURLs(_ pattern: RoutePattern, host: String? = nil) -> [String] {
    let scheme: String
    var domain = pattern.domain
    if let own = pattern.scheme {
      scheme = own
    } else if let host, domain == nil {
      scheme = "https"
      domain = host
    } else {
      return []
    }
    if let wildcard = domain, wildcard.hasPrefix("*.") { domain = "www" + wildcard.dropFirst() }
    return pattern.expansions.map { segments in
      let texts = segments.map { segment -> String in
        switch segment.kind {
        case .literal(let text): return text
        case .capture(let type): return sample(type)
        default: return "sample"
        }
      }
      let query = pattern.constraints.compactMap { constraint -> RouteURL.QueryItem? in
        switch constraint.value {
        case .literal(let text): return RouteURL.QueryItem(key: constraint.key, value: text)
        case .capture(let type, _):
          return RouteURL.QueryItem(key: constraint.key, value: sample(type))
        case .oneOf(let values, _):
          return RouteURL.QueryItem(key: constraint.key, value: values[0])
        case .regex: return RouteURL.QueryItem(key: constraint.key, value: "sample")
        case .absent: return nil
        }
      }
      return RouteURL(scheme: scheme, domain: domain, segments: texts, query: query).text
    }
  }

  static func sample(_ type: CaptureType) -> String {
    switch type {
    case .int: return "1"
    case .float: return "1.5"
    case .uuid: return "123E4567-E89B-12D3-A456-426614174000"
    default: return "sample"
    }
  }

  /// Whether `host` is one of `domains` (`*.` covering any subdomain).
  package static func covers(_ domains: [String], _ host: String) -> Bool {
    LinkPolicy(appID: "", schemes: [], domains: domains, aasa: [:]).domain(covering: host) != nil
  }

  /// Whether a route on `domain` answers URLs on `host`: the same host, or a subdomain of a
  /// `*.` domain.
  static func serves(_ host: String, _ domain: String) -> Bool {
    guard domain.hasPrefix("*.") else { return host == domain }
    return host.hasSuffix(domain.dropFirst()) && host.count > domain.count
  }

  /// The AASA document for the table's `https` routes whose host is one of `domains` (and is
  /// `host`, when given): one component per route expansion, `percentEncoded` false (routes
  /// compare decoded text). Internal-only routes become `exclude` components, placed first;
  /// when a component would decide a sample URL of a route of the other kind (its pattern is
  /// wider than its route), the component of the route that opens that URL moves before it.
  package static func document(
    _ table: RouteTable, appID: String, domains: [String], host: String? = nil
  ) -> JSON {
    var items: [(json: JSON, external: Bool, samples: [String])] = []
    for entry in table.entries {
      let pattern = entry.pattern
      guard pattern.scheme == "https", let domain = pattern.domain,
        covers(domains.map { $0.lowercased() }, domain),
        host.map({ serves($0.lowercased(), domain) }) ?? true
      else { continue }
      let samples = sampleURLs(pattern).filter { sample in
        guard case .matched(let winner, _) = table.resolve(sample).outcome else { return false }
        return winner.index == entry.index
      }
      for (path, query) in components(pattern) {
        var members = [JSONMember("/", .string(path))]
        if !query.isEmpty { members.append(JSONMember("?", .object(query))) }
        members.append(JSONMember("percentEncoded", .bool(false)))
        if !entry.external { members.append(JSONMember("exclude", .bool(true))) }
        members.append(JSONMember("comment", .string("routes[\(entry.index)] \(pattern.text)")))
        items.append((.object(members), entry.external, samples))
      }
    }
    // Excludes first, then includes, each in table order.
    items = items.filter { !$0.external } + items.filter(\.external)
    func wrap(_ components: [JSON]) -> JSON {
      .object([
        JSONMember(
          "applinks",
          .object([
            JSONMember(
              "details",
              .array([
                .object([
                  JSONMember("appIDs", .array([.string(appID)])),
                  JSONMember("components", .array(components)),
                ])
              ]))
          ]))
      ])
    }
    guard let compiled = try? AASADocument(json: wrap(items.map(\.json))).details.first?.components
    else { return wrap(items.map(\.json)) }
    // before[i]: the items that must come before item i.
    var before = Array(repeating: Set<Int>(), count: items.count)
    for (i, item) in items.enumerated() {
      for (j, other) in items.enumerated() where item.external != other.external {
        let decides = other.samples.contains { sample in
          guard let url = try? LinkURL(sample) else { return false }
          var normalized = NormalizedURL(url)
          return compiled[i].mismatch(&normalized) == nil
        }
        if decides { before[i].insert(j) }
      }
    }
    var order: [Int] = []
    var placed = Set<Int>()
    while order.count < items.count {
      let ready = items.indices.first { !placed.contains($0) && before[$0].isSubset(of: placed) }
      // A cycle (two wide patterns that decide each other's samples, such as `<int:n>` and
      // `:s`, both `?*`): the include goes first, so the file never admits less than the
      // routes match (it then admits some URLs of the internal-only route too).
      let next =
        ready ?? items.indices.first { !placed.contains($0) && items[$0].external }
        ?? items.indices.first { !placed.contains($0) }!
      order.append(next)
      placed.insert(next)
    }
    return wrap(order.map { items[$0].json })
  }

  /// The `/` pattern and `?` items of each expansion: a literal as itself, a `uuid` capture as
  /// its 8-4-4-4-12 hex digits, any other capture (`int` and `float` too: `-5` and `.5` are
  /// numbers) as one character or more, a path tail as `/` and anything (and, for `*`, also
  /// nothing). A pattern admits every URL its route matches, and may admit more.
  static func components(_ pattern: RoutePattern) -> [(String, [JSONMember])] {
    // An absent key cannot be said in an AASA: the component admits it either way.
    let query = pattern.constraints.compactMap { constraint -> JSONMember? in
      switch constraint.value {
      case .literal(let text): return JSONMember(constraint.key, .string(text))
      case .capture(let type, _): return JSONMember(constraint.key, .string(wildcard(type)))
      case .oneOf, .regex: return JSONMember(constraint.key, .string("?*"))
      case .absent: return nil
      }
    }
    var result: [(String, [JSONMember])] = []
    for segments in pattern.expansions {
      var path = ""
      var optionalTail = false
      for segment in segments {
        switch segment.kind {
        case .literal(let text): path += "/" + text
        case .capture(let type): path += "/" + wildcard(type)
        case .rest:
          path += "/?*"
          optionalTail = true
        default: path += "/?*"
        }
      }
      if optionalTail {
        let bare = String(path.dropLast(3))
        result.append((bare.isEmpty ? "/" : bare, query))
      }
      result.append((path.isEmpty ? "/" : path, query))
    }
    return result
  }

  static func wildcard(_ type: CaptureType) -> String {
    switch type {
    case .uuid:
      return [8, 4, 4, 4, 12].map { String(repeating: "$(xdigit)", count: $0) }
        .joined(separator: "-")
    default: return "?*"
    }
  }

  /// The document as text: two-space indentation, each component on one line.
  package static func text(_ document: JSON) -> String {
    guard case .array(let details)? = document["applinks"]?["details"] else {
      return document.serialized + "\n"
    }
    var lines = ["{", "  \"applinks\": {", "    \"details\": ["]
    for (index, detail) in details.enumerated() {
      lines.append("      {")
      lines.append("        \"appIDs\": \(detail["appIDs"]?.serialized ?? "[]"),")
      lines.append("        \"components\": [")
      if case .array(let components)? = detail["components"] {
        for (position, component) in components.enumerated() {
          lines.append(
            "          \(component.serialized)\(position == components.count - 1 ? "" : ",")")
        }
      }
      lines.append("        ]")
      lines.append("      }\(index == details.count - 1 ? "" : ",")")
    }
    lines += ["    ]", "  }", "}"]
    return lines.joined(separator: "\n") + "\n"
  }
}
