/// Reverse routing: from a destination and its parameters to a URL that resolves back to them.
extension RouteTable {
  /// A URL that resolves (as from inside the app) to exactly `target` with `parameters`, or nil
  /// when no route can say it.
  ///
  /// The routes that target the destination directly are tried in table order; the first
  /// whose URL resolves back wins. A route's captures (after `rename`) take the parameters'
  /// values, written as redirect templates write them, and each must be a value the capture
  /// accepts; an optional group is written when it has captures and all of them have values;
  /// literal query constraints are written as they stand, and the parameters no capture takes
  /// follow as query items sorted by key (a route with `!key` for one of them cannot say it).
  /// A route without a scheme uses `scheme` (none given: it is skipped), a `*.` domain is
  /// skipped, and a fragment pattern is written after `#`. Numbers compare as numbers when the
  /// URL is resolved back: `8` and `8.0` are the same value, and so are `"42"` and `42`.
  public func url(for target: RouteTarget, parameters: Parameters, scheme: String? = nil)
    -> String?
  {
    let routes = routeIndices(reaching: target)
    // What must resolve back: the given parameters and every name the destination's routes
    // capture (a literal query value under another name is not a parameter of it).
    var names = Set(parameters.keys)
    for index in routes {
      for name in entries[index].pattern.allCaptureNames {
        names.insert(entries[index].rename[name] ?? name)
      }
    }
    for index in routes {
      guard let url = ReverseWriter(entries[index], scheme: scheme).write(parameters),
        case .matched(let reached, let params) = resolve(url).outcome,
        reached.target == target,
        params.isSame(as: parameters, on: names)
      else { continue }
      return url
    }
    return nil
  }
}

extension Parameters {
  /// Whether both have the same keys with the same values, numbers compared as numbers
  /// (``ParamValue/isSame(as:)``).
  package func isSame(as other: Parameters) -> Bool {
    count == other.count
      && allSatisfy { element in other[element.key].map { element.value.isSame(as: $0) } ?? false }
  }

  /// Whether both have the same values under `names` (both none, or the same value).
  package func isSame(as other: Parameters, on names: Set<String>) -> Bool {
    names.allSatisfy { name in
      switch (self[name], other[name]) {
      case (nil, nil): return true
      case (let mine?, let theirs?): return mine.isSame(as: theirs)
      default: return false
      }
    }
  }
}

extension ParamValue {
  /// Whether two values are the same, numbers compared as numbers: an `int` and a `float` of
  /// equal value, a number and text that reads as it (`42`, `"42"`, `"042"`, `"4.2e1"`), and
  /// a list and its items joined with `/` (as `<path:>` captures them) are the same.
  package func isSame(as other: ParamValue) -> Bool {
    switch (self, other) {
    case (.int(let a), .float(let b)), (.float(let b), .int(let a)): return Double(a) == b
    case (.string(let text), .int(let number)), (.int(let number), .string(let text)):
      if case .int(let read)? = CaptureType.int.value(of: text) { return read == number }
      return ParamValue.string(text).doubleValue == Double(number)
    case (.string(let text), .float(let number)), (.float(let number), .string(let text)):
      return ParamValue.string(text).doubleValue == number
    case (.strings(let items), .string(let text)), (.string(let text), .strings(let items)):
      return text.isExactly(items.joined(separator: "/"))
    case (.string(let a), .string(let b)): return a.isExactly(b)
    default: return self == other
    }
  }
}

/// Writes one route's URL for a destination's parameters (section 3 of the typed routes rules).
struct ReverseWriter {
  let entry: RouteEntry
  let scheme: String?

  init(_ entry: RouteEntry, scheme: String?) {
    self.entry = entry
    self.scheme = scheme
  }

  private var pattern: RoutePattern { entry.pattern }

  /// The name a capture's value has after `rename`.
  private func finalName(_ name: String) -> String { entry.rename[name] ?? name }

  /// The route's URL for the parameters, or nil when it cannot say them.
  func write(_ parameters: Parameters) -> String? {
    guard !pattern.domainIsWildcard, let scheme = pattern.scheme ?? scheme else { return nil }
    // Captures that share a name after `rename` cannot each get a value.
    var captured: Set<String> = []
    for name in pattern.allCaptureNames {
      guard captured.insert(finalName(name)).inserted else { return nil }
    }
    var used: Set<String> = []
    var segments: [String] = []
    var path = pattern.segments
    for group in pattern.groups {
      let names = group.compactMap(\.name).map(finalName)
      if !names.isEmpty, names.allSatisfy({ parameters[$0] != nil }) { path += group }
    }
    for segment in path {
      guard let written = write(segment, parameters, &used, dotSegments: false) else { return nil }
      segments += written
    }
    var query: [String] = []
    var fixedKeys: Set<String> = []
    for constraint in pattern.constraints {
      guard
        let item = write(constraint, parameters, &used, fixedKeys: &fixedKeys)
      else { return nil }
      if let item { query.append(item) }
    }
    // The fragment's captures, before the parameters left over go to the query.
    var fragment = ""
    switch pattern.fragment {
    case nil: break
    case .segments(let list)?:
      var written: [String] = []
      for segment in list {
        guard let pieces = write(segment, parameters, &used, dotSegments: true) else { return nil }
        written += pieces
      }
      fragment = "#" + written.joined(separator: "/")
    case .query(let list)?:
      var items: [String] = []
      var ignored: Set<String> = []
      for constraint in list {
        guard let item = write(constraint, parameters, &used, fixedKeys: &ignored)
        else { return nil }
        if let item { items.append(item) }
      }
      fragment = "#" + items.joined(separator: "&")
    }
    for key in parameters.keys.sorted() where !used.contains(key) {
      guard !fixedKeys.contains(key), let value = parameters[key] else { return nil }
      if case .literal(let literal)? = pattern.constraints.first(where: { $0.key == key })?.value {
        // The literal is written already; the parameter must say the same.
        guard value.isSame(as: .string(literal)) else { return nil }
        continue
      }
      let items: [String]
      if case .strings(let list) = value { items = list } else { items = [value.text!] }
      guard !items.isEmpty else { return nil }
      for item in items { query.append(encode(key) + "=" + encode(item)) }
    }
    var url = scheme + "://"
    if let domain = pattern.domain {
      url += domain + segments.map { "/" + $0 }.joined()
    } else if let first = segments.first, first.contains(".") || first.lowercased() == "localhost" {
      // Such a host would be read as a domain: an empty host keeps it a path segment.
      url += segments.map { "/" + $0 }.joined()
    } else {
      url += segments.joined(separator: "/")
    }
    if !query.isEmpty { url += "?" + query.joined(separator: "&") }
    url += fragment
    return url
  }

  /// A path or fragment segment as written URL segments (a wildcard writes any number); nil
  /// when the parameters give it no value it accepts.
  private func write(
    _ segment: PatternSegment, _ parameters: Parameters, _ used: inout Set<String>,
    dotSegments: Bool
  ) -> [String]? {
    guard let name = segment.name else {
      guard case .literal(let text) = segment.kind else { return nil }
      return [encode(text)]
    }
    let key = finalName(name)
    guard let value = parameters[key] else { return nil }
    used.insert(key)
    func fits(_ piece: String) -> Bool {
      !piece.isEmpty && (dotSegments || (piece != "." && piece != ".."))
    }
    switch segment.kind {
    case .path, .rest:
      guard let pieces = value.segmentsValue, pieces.allSatisfy(fits),
        segment.kind == .rest || !pieces.isEmpty
      else { return nil }
      return pieces.map(encode)
    default:
      guard let text = text(of: value, fitting: segment.kind), fits(text) else { return nil }
      return [encode(text)]
    }
  }

  /// A query (or query-like fragment) constraint as `key=value`; `.some(nil)` when nothing is
  /// written (`!key`); nil when the parameters give it no value it accepts.
  private func write(
    _ constraint: QueryConstraint, _ parameters: Parameters, _ used: inout Set<String>,
    fixedKeys: inout Set<String>
  ) -> String?? {
    let kind: SegmentKind
    switch constraint.value {
    case .absent:
      fixedKeys.insert(constraint.key)
      return .some(nil)
    case .literal(let text):
      return encode(constraint.key) + "=" + encode(text)
    case .capture(let type, _): kind = .capture(type)
    case .oneOf(let alternatives, _): kind = .oneOf(alternatives)
    case .regex(let regex, _): kind = .regex(regex)
    }
    fixedKeys.insert(constraint.key)
    let key = finalName(constraint.value.name!)
    guard let value = parameters[key], let text = text(of: value, fitting: kind) else {
      return nil
    }
    used.insert(key)
    return encode(constraint.key) + "=" + encode(text)
  }

  /// The value as the text a one-segment capture of this kind accepts, or nil.
  private func text(of value: ParamValue, fitting kind: SegmentKind) -> String? {
    guard let text = value.text else { return nil }
    switch kind {
    case .capture(.int): return isInt64(value) ? text : nil
    case .capture(.float): return value.doubleValue == nil ? nil : text
    case .capture(.uuid): return CaptureType.uuid.value(of: text) == nil ? nil : text
    case .capture: return text
    case .oneOf(let alternatives):
      let fold = { (text: String) in pattern.caseSensitive ? text : text.lowercased() }
      return alternatives.contains { fold($0).isExactly(fold(text)) } ? text : nil
    case .regex(let regex): return regex.matches(text) ? text : nil
    case .literal, .path, .rest: return nil
    }
  }

  /// Whether the value is a 64-bit integer (which `Int` may not hold on a 32-bit platform).
  private func isInt64(_ value: ParamValue) -> Bool {
    switch value {
    case .int: return true
    case .string(let text): return CaptureType.int.value(of: text) != nil
    default: return false
    }
  }

  private func encode(_ text: String) -> String { percentEncodeUnreserved(text) }
}

extension RoutePattern {
  /// Every name the pattern captures under, before `rename`: path, groups, query and fragment.
  package var allCaptureNames: [String] {
    var names = (segments + groups.flatMap { $0 }).compactMap(\.name)
    names += constraints.compactMap(\.value.name)
    switch fragment {
    case .segments(let list)?: names += list.compactMap(\.name)
    case .query(let list)?: names += list.compactMap(\.value.name)
    case nil: break
    }
    return names
  }
}
