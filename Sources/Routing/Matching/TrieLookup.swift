// Looking a URL up in the compiled trie: walking the scheme's trie and the global one, checking
// the rest of the URL at each terminal reached, and keeping the best in ranking order.

extension Trie {
  /// Whether the URL's domain, query and fragment fit a terminal (its path already does).
  @inline(__always)
  private func accepts(_ terminal: Terminal, _ url: URLParts) -> Bool {
    guard terminal.check >= 0 else { return true }
    let check = checks[Int(terminal.check)]
    if let domain = check.domain {
      guard let range = url.domain, url.part(range, is: domain) else { return false }
    }
    guard check.extra >= 0 else {
      return Self.meets(check.constraints, url, url.query, caseSensitive: true)
    }
    return acceptsExtra(extras[Int(check.extra)], check.constraints, url)
  }

  /// The rest of ``accepts(_:_:)`` for a route with one of the other kinds.
  @inline(never)
  private func acceptsExtra(_ extra: Extra, _ constraints: [QueryConstraint], _ url: URLParts)
    -> Bool
  {
    if let domain = extra.wildcardDomain {
      guard let range = url.domain, domainIsUnder(url.string(range), domain) else { return false }
    }
    guard Self.meets(constraints, url, url.query, caseSensitive: extra.caseSensitive) else {
      return false
    }
    switch extra.fragment {
    case nil: return true
    case .segments(let pattern)?:
      return url.hasFragment
        && segmentsMatch(
          pattern, count: url.fragmentSegments.count, caseSensitive: extra.caseSensitive
        ) { url.bytes(url.fragmentSegments[$0]) }
    case .query(let constraints)?:
      return url.hasFragment
        && Self.meets(constraints, url, url.fragmentItems, caseSensitive: extra.caseSensitive)
    }
  }

  /// Whether `items` meet every constraint: `!key` is absent; any other key is there once,
  /// with a value that matches.
  @inline(__always)
  private static func meets(
    _ constraints: [QueryConstraint], _ url: URLParts, _ items: UnsafeBufferPointer<URLParts.Item>,
    caseSensitive: Bool
  ) -> Bool {
    constraints.allSatisfy { constraint in
      var found: Range<Int>?
      for item in items where url.part(item.key, is: constraint.key) {
        if found != nil { return false }
        found = item.value
      }
      switch constraint.value {
      case .literal(let literal) where caseSensitive:
        guard let found else { return false }
        return url.part(found, is: literal)
      case .capture(let type, _):
        guard let found else { return false }
        return type.accepts(url.bytes(found))
      default:
        return meetsOther(constraint.value, found, url, caseSensitive: caseSensitive)
      }
    }
  }

  /// ``meets(_:_:_:caseSensitive:)`` for the other kinds of value, kept out of line so that
  /// the checks of plain routes stay small.
  @inline(never)
  private static func meetsOther(
    _ value: QueryConstraint.Value, _ found: Range<Int>?, _ url: URLParts, caseSensitive: Bool
  ) -> Bool {
    guard let kind = value.segmentKind else { return found == nil }
    guard let found else { return false }
    return kind.accepts(url.bytes(found), caseSensitive: caseSensitive)
  }

  /// Whether a route with an inner wildcard matches the URL.
  private func acceptsInner(_ terminal: Terminal, _ url: URLParts) -> Bool {
    let pattern = routes[Int(terminal.route)].pattern
    if let scheme = pattern.scheme {
      guard let range = url.scheme, url.part(range, is: scheme) else { return false }
    }
    return segmentsMatch(
      pattern.segments, count: url.segments.count, caseSensitive: pattern.caseSensitive
    ) { url.bytes(url.segments[$0]) } && accepts(terminal, url)
  }

  /// The rank of a terminal that matches `url`, made for the URL.
  private func rank(_ terminal: Terminal, _ url: URLParts) -> RouteRank {
    let route = routes[Int(terminal.route)]
    let expansion = Int(terminal.expansion)
    return RouteRank(
      route.pattern, priority: route.priority, route: Int(terminal.route), expansion: expansion,
      segments: route.pattern.expansion(expansion),
      url: (url.segments.count, url.fragmentSegments.count))
  }

  /// A terminal's capture steps.
  func steps(of terminal: Terminal) -> ArraySlice<CaptureStep> {
    captureSteps[Int(terminal.steps.lowerBound)..<Int(terminal.steps.upperBound)]
  }

  /// A terminal's query constraints.
  func constraints(of terminal: Terminal) -> [QueryConstraint] {
    terminal.check < 0 ? [] : checks[Int(terminal.check)].constraints
  }

  /// A terminal's fragment constraints, when its fragment is read like a query.
  func fragmentConstraints(of terminal: Terminal) -> [QueryConstraint] {
    guard terminal.check >= 0 else { return [] }
    let extra = checks[Int(terminal.check)].extra
    guard extra >= 0, case .query(let list)? = extras[Int(extra)].fragment else { return [] }
    return list
  }

  /// The best terminal for `url` (the smallest order among those that match), or nil.
  @inline(__always)
  func best(_ url: URLParts) -> Terminal? {
    var search = Search(keepsAll: false)
    each(url, &search)
    return inner.isEmpty ? search.best : best(search.best, orInner: url)
  }

  /// The best of `found` (the trie's best) and the routes with an inner wildcard, ranked for
  /// the URL.
  @inline(never)
  private func best(_ found: Terminal?, orInner url: URLParts) -> Terminal? {
    var best = found
    var bestRank = best.map { rank($0, url) }
    for number in inner {
      let terminal = terminals[Int(number)]
      guard acceptsInner(terminal, url) else { continue }
      let candidate = rank(terminal, url)
      if bestRank == nil || candidate < bestRank! {
        (best, bestRank) = (terminal, candidate)
      }
    }
    return best
  }

  /// Every terminal that matches `url`, best first.
  func all(_ url: URLParts) -> [Terminal] {
    var search = Search(keepsAll: true)
    each(url, &search)
    guard !inner.isEmpty else { return search.all.sorted { $0.order < $1.order } }
    let found = search.all + inner.map { terminals[Int($0)] }.filter { acceptsInner($0, url) }
    return found.map { ($0, rank($0, url)) }.sorted { $0.1 < $1.1 }.map(\.0)
  }

  /// What a lookup has found so far.
  private struct Search {
    /// Whether every match is kept, or only the best.
    var keepsAll: Bool
    var best: Terminal?
    var all: [Terminal] = []

    /// Subtrees whose best order is not below this are skipped.
    var bound: Int32 { keepsAll ? .max : best?.order ?? .max }
  }

  /// Looks for the terminals whose path matches the URL's segments, in the scheme's trie and
  /// then the global one.
  private func each(_ url: URLParts, _ search: inout Search) {
    if let scheme = url.scheme, let root = literals.child(of: -1, url.bytes(scheme)) {
      walk(root, 0, url, &search)
    }
    walk(0, 0, url, &search)
  }

  /// Keeps a terminal whose path matches when the rest of the URL fits and it ranks first.
  private func consider(_ list: Int32, _ url: URLParts, _ search: inout Search) {
    let terminal = terminals[Int(lists[Int(list)])]
    guard terminal.order < search.bound, accepts(terminal, url) else { return }
    if search.keepsAll { search.all.append(terminal) }
    search.best = terminal
  }

  private func walk(_ node: Int32, _ position: Int, _ url: URLParts, _ search: inout Search) {
    let here = nodes[Int(node)]
    guard here.best < search.bound else { return }
    guard position < url.segments.count else {
      for list in here.ends { consider(list, url, &search) }
      for list in here.tails where terminals[Int(lists[Int(list)])].tail == .rest {
        consider(list, url, &search)
      }
      return
    }
    let segment = url.bytes(url.segments[position])
    if here.hasLiterals, let child = literals.child(of: node, segment) {
      walk(child, position + 1, url, &search)
    }
    if here.hasFoldedLiterals,
      let child = withFolded(segment, { literals.child(of: -2 - node, $0) })
    {
      walk(child, position + 1, url, &search)
    }
    for edge in here.captures {
      let capture = captures[Int(edge)]
      let accepted =
        capture.test < 0
        ? capture.type.accepts(segment) : tests[Int(capture.test)].accepts(segment)
      if accepted { walk(capture.child, position + 1, url, &search) }
    }
    for list in here.tails { consider(list, url, &search) }
  }
}
