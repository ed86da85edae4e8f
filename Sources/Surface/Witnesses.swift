import Routing

/// Where a pattern without a scheme (or without a domain) is tried from: the schemes the app
/// registers and the hosts it is associated with.
package struct WitnessContext: Sendable, Hashable {
  /// The schemes a scheme-less pattern is written with, in lowercase.
  package var schemes: [String]
  /// The hosts a global pattern is tried on over `https` (a `*.` domain as one subdomain).
  package var hosts: [String]

  /// Makes a context.
  package init(schemes: [String], hosts: [String]) {
    self.schemes = schemes
    self.hosts = hosts
  }
}

/// Witness URLs: concrete URLs each expansion of a route's pattern matches, built from sample
/// values of each placeholder kind (one base URL, then one sample changed at a time).
package enum Witnesses {
  /// A `string` or regex sample that is not a number, and one that is.
  static let word = "x1"
  static let number = "7"
  /// The fixed UUID of `uuid` placeholders.
  static let uuid = "123E4567-E89B-12D3-A456-426614174000"
  /// The query item added once to a pattern with query constraints, which no pattern asks for.
  static let extraItem = "witness-extra=1"

  /// The witness URLs of one expansion (`mask` picks the optional groups), in a fixed order,
  /// each once.
  package static func urls(_ pattern: RoutePattern, mask: Int, context: WitnessContext)
    -> [String]
  {
    let segments = pattern.expansion(mask)
    let folded = !pattern.caseSensitive
    // The base choice of every part, then each part's other samples one at a time.
    var parts: [[[String]]] = segments.map { samples($0.kind) }
    let queryStart = parts.count
    let constraints = pattern.constraints.filter { $0.value != .absent }
    parts += constraints.map { [[querySample($0)].compactMap { $0 }] + others($0) }
    var fragmentParts: [[[String]]] = []
    switch pattern.fragment {
    case .segments(let list)?: fragmentParts = list.map { samples($0.kind) }
    case .query(let list)?:
      fragmentParts = list.filter { $0.value != .absent }.map {
        [[querySample($0)].compactMap { $0 }] + others($0)
      }
    case nil: break
    }
    let fragmentStart = parts.count
    parts += fragmentParts
    var choices: [[Int]] = [Array(repeating: 0, count: parts.count)]
    for (index, options) in parts.enumerated() where options.count > 1 {
      for option in 1..<options.count {
        var choice = choices[0]
        choice[index] = option
        choices.append(choice)
      }
    }
    var result: [String] = []
    var seen: Set<String> = []
    func add(_ url: String) {
      if seen.insert(url).inserted { result.append(url) }
    }
    for origin in origins(pattern, context: context) {
      for choice in choices {
        let picked = choice.enumerated().map { parts[$0.offset][$0.element] }
        let path = Array(picked[..<queryStart].joined())
        let query = picked[queryStart..<fragmentStart].map { $0.first ?? "" }
        let fragment = Array(picked[fragmentStart...])
        let url = text(
          origin, path: path, query: query, fragment: fragment, pattern: pattern)
        add(url)
        if choice == choices[0] {
          if !pattern.constraints.isEmpty {
            add(url.inserting(extra: extraItem))
          }
          if folded {
            add(
              text(
                origin, path: path.map { $0.uppercased() }, query: query, fragment: fragment,
                pattern: pattern))
          }
        }
      }
    }
    return result
  }

  /// The schemes and hosts an expansion is written with: its own, or for a pattern without a
  /// scheme each registered scheme and `https` on each associated host (a `//domain` pattern:
  /// on its own domain); a `*.` domain with one and two labels before the suffix.
  static func origins(_ pattern: RoutePattern, context: WitnessContext) -> [(String, String?)] {
    var domains: [String?] = [pattern.domain]
    if let domain = pattern.domain, domain.hasPrefix("*.") {
      let suffix = domain.dropFirst(1)
      domains = ["a" + suffix, "a.b" + suffix]
    }
    if let scheme = pattern.scheme { return domains.map { (scheme, $0) } }
    var result: [(String, String?)] = []
    for scheme in context.schemes where scheme != "https" && scheme != "http" {
      result += domains.map { (scheme, $0) }
    }
    if pattern.domain != nil {
      result += domains.map { ("https", $0) }
    } else {
      result += context.hosts.map { ("https", $0) }
    }
    return result
  }

  /// The samples of one segment, each a list of URL segments.
  static func samples(_ kind: SegmentKind) -> [[String]] {
    switch kind {
    case .literal(let text): return [[text]]
    case .capture(let type): return typed(type).map { [$0] }
    case .oneOf(let alternatives): return alternatives.map { [$0] }
    case .regex(let regex): return RegexSample.samples(regex).map { [$0] }
    case .path: return [[word], [word, "x2"]]
    case .rest: return [[], [word], [word, "x2"]]
    }
  }

  /// Sample values of a typed placeholder.
  static func typed(_ type: CaptureType) -> [String] {
    switch type {
    case .string, .path: return [word, number]
    case .int: return ["0", "42", "-7"]
    case .float: return ["1.5"]
    case .uuid: return [uuid]
    }
  }

  /// `key=value` for a constraint's first sample; nil for `!key`.
  static func querySample(_ constraint: QueryConstraint) -> String? {
    values(constraint).first.map { escape(constraint.key, query: true) + "=" + $0 }
  }

  /// The constraint's other samples, each as a one-item part.
  static func others(_ constraint: QueryConstraint) -> [[String]] {
    values(constraint).dropFirst().map { [escape(constraint.key, query: true) + "=" + $0] }
  }

  /// The escaped sample values of a constraint.
  static func values(_ constraint: QueryConstraint) -> [String] {
    let raw: [String]
    switch constraint.value {
    case .literal(let text): raw = [text]
    case .capture(let type, _): raw = typed(type)
    case .oneOf(let alternatives, _): raw = alternatives
    case .regex(let regex, _): raw = RegexSample.samples(regex)
    case .absent: raw = []
    }
    return raw.map { escape($0, query: true) }
  }

  /// The URL text: `scheme://domain/path?query#fragment`. A first segment that would read as a
  /// host with a domain (`.` or `localhost`) is written after an empty host (`scheme:///`).
  static func text(
    _ origin: (String, String?), path: [String], query: [String], fragment: [[String]],
    pattern: RoutePattern
  ) -> String {
    var url = origin.0 + ":/"
    if let domain = origin.1 {
      url += "/" + domain
    } else if let first = path.first {
      if first.contains(".") || first.lowercased() == "localhost" { url += "/" }
    } else {
      url += "/"
    }
    url += path.map { "/" + escape($0, query: false) }.joined()
    let items = query.filter { !$0.isEmpty }
    if !items.isEmpty { url += "?" + items.joined(separator: "&") }
    switch pattern.fragment {
    case .segments?:
      url += "#" + fragment.joined().map { escape($0, query: false) }.joined(separator: "/")
    case .query?:
      url += "#" + fragment.compactMap(\.first).joined(separator: "&")
    case nil: break
    }
    return url
  }

  /// `text` percent-encoded except for `A-Z a-z 0-9 - . _ ~` (and, in a path, `+ : @ ! $ , ;`).
  static func escape(_ text: String, query: Bool) -> String {
    guard query else {
      var out = ""
      for scalar in text.unicodeScalars {
        if "+:@!$,;".unicodeScalars.contains(scalar) {
          out.unicodeScalars.append(scalar)
        } else {
          out += percentEncodeUnreserved(String(scalar))
        }
      }
      return out
    }
    return percentEncodeUnreserved(text)
  }
}

extension String {
  /// The URL with `item` added as the last query item, before any fragment.
  fileprivate func inserting(extra item: String) -> String {
    let end = firstIndex(of: "#") ?? endIndex
    let separator = self[..<end].contains("?") ? "&" : "?"
    return self[..<end] + separator + item + self[end...]
  }
}
