import Routing

/// A route expansion written out as a pattern (its optional groups present or gone), and the
/// parameters it captures with their types.
enum PatternText {
  /// `scheme://domain/segments?constraints#fragment` of one expansion.
  static func expansion(_ pattern: RoutePattern, mask: Int) -> String {
    guard pattern.expansionCount > 1 else { return pattern.text }
    var text = ""
    if let scheme = pattern.scheme { text += scheme + ":" }
    if let domain = pattern.domain { text += "//" + domain }
    text += pattern.expansion(mask).map { "/" + segment($0) }.joined()
    if text.isEmpty || text.hasSuffix(":") { text += "/" }
    if !pattern.constraints.isEmpty {
      text += "?" + pattern.constraints.map(constraint).joined(separator: "&")
    }
    switch pattern.fragment {
    case .segments(let list)?: text += "#" + list.map(segment).joined(separator: "/")
    case .query(let list)?: text += "#" + list.map(constraint).joined(separator: "&")
    case nil: break
    }
    return text
  }

  static func segment(_ segment: PatternSegment) -> String {
    let name = segment.name ?? ""
    switch segment.kind {
    case .literal(let text): return text
    case .capture(let type): return type == .string ? ":" + name : "<\(type.rawValue):\(name)>"
    case .oneOf(let values): return "<\(values.joined(separator: "|")):\(name)>"
    case .regex(let regex): return ":\(name)(\(regex.source))"
    case .path: return "<path:\(name)>"
    case .rest: return "*"
    }
  }

  static func constraint(_ constraint: QueryConstraint) -> String {
    switch constraint.value {
    case .literal(let text): return "\(constraint.key)=\(text)"
    case .capture(let type, let name):
      return "\(constraint.key)=" + (type == .string ? ":" + name : "<\(type.rawValue):\(name)>")
    case .oneOf(let values, let name):
      return "\(constraint.key)=<\(values.joined(separator: "|")):\(name)>"
    case .regex(let regex, let name): return "\(constraint.key)=:\(name)(\(regex.source))"
    case .absent: return "!" + constraint.key
    }
  }

  /// The captures of one expansion: name and type (`string`, `int`, ..., `one of a|b`,
  /// `regex SRC`, `path`, `* strings`), path first, then query, then fragment.
  static func parameters(_ pattern: RoutePattern, mask: Int) -> [(name: String, type: String)] {
    func type(_ kind: SegmentKind) -> String? {
      switch kind {
      case .literal: return nil
      case .capture(let type): return type.rawValue
      case .oneOf(let values): return "one of " + values.joined(separator: "|")
      case .regex(let regex): return "regex " + regex.source
      case .path: return "path"
      case .rest: return "strings"
      }
    }
    var result: [(String, String)] = []
    func add(_ segments: [PatternSegment]) {
      for segment in segments {
        guard let kind = type(segment.kind) else { continue }
        result.append((segment.name ?? "*", kind))
      }
    }
    func add(_ constraints: [QueryConstraint]) {
      for item in constraints {
        switch item.value {
        case .capture(let captured, let name): result.append((name, captured.rawValue))
        case .oneOf(let values, let name):
          result.append((name, "one of " + values.joined(separator: "|")))
        case .regex(let regex, let name): result.append((name, "regex " + regex.source))
        case .literal, .absent: break
        }
      }
    }
    add(pattern.expansion(mask))
    add(pattern.constraints)
    switch pattern.fragment {
    case .segments(let list)?: add(list)
    case .query(let list)?: add(list)
    case nil: break
    }
    return result
  }
}
