/// The shapes of the routes registered so far, so that a new route's conflicts are found
/// without compiling every route again.
///
/// Two expansions conflict where ``Trie`` says they do: they reach the same node of the same
/// trie (the key here: scheme, then each single segment as the trie tells them apart) with the
/// same tail, and agree in priority and beyond the path. Routes with an inner wildcard are
/// compared with each other directly, as the trie does.
struct RouteShapes {
  private struct Key: Hashable {
    var scheme: [UInt8]?
    var segments: [Segment] = []
    var tail = Trie.Tail.none
  }

  private enum Segment: Hashable {
    case literal([UInt8])
    case folded([UInt8])
    case capture(CaptureType, MatchKind, Trie.Test?)
  }

  private var expansions: [Key: [Int]] = [:]
  private var inner: [Int] = []

  /// Adds `routes[first...]`, which follow the routes already added; on the first conflict
  /// (later route first, as ``Trie`` reports it) nothing is added.
  mutating func add(_ routes: [Router.Route], from first: Int) throws(RouteConflict) {
    var touched: [Key] = []
    do {
      for index in first..<routes.count {
        try add(routes, index, touched: &touched)
      }
    } catch {
      for key in touched { expansions[key]?.removeAll { $0 >= first } }
      inner.removeAll { $0 >= first }
      throw error
    }
  }

  private mutating func add(_ routes: [Router.Route], _ index: Int, touched: inout [Key])
    throws(RouteConflict)
  {
    let route = routes[index]
    let pattern = route.pattern
    func same(_ other: Int) -> Bool {
      routes[other].priority == route.priority && routes[other].pattern.sameBeyondPath(pattern)
    }
    if pattern.hasInnerWildcard {
      for other in inner where same(other) {
        let otherPattern = routes[other].pattern
        if otherPattern.scheme == pattern.scheme,
          PatternSegment.sameKinds(
            otherPattern.segments, otherPattern.caseSensitive, pattern.segments,
            pattern.caseSensitive)
        {
          throw RouteConflict(route: index, other: other)
        }
      }
      inner.append(index)
      return
    }
    for expansion in 0..<pattern.expansionCount {
      let key = Self.key(pattern, expansion)
      if let other = expansions[key]?.first(where: same) {
        throw RouteConflict(route: index, other: other)
      }
      expansions[key, default: []].append(index)
      touched.append(key)
    }
  }

  private static func key(_ pattern: RoutePattern, _ expansion: Int) -> Key {
    var key = Key(scheme: pattern.scheme.map { Array($0.utf8) })
    for segment in pattern.expansion(expansion) {
      switch segment.kind {
      case .literal(let text) where pattern.caseSensitive:
        key.segments.append(.literal(Array(text.utf8)))
      case .literal(let text):
        key.segments.append(.folded(Array(text.lowercased().utf8)))
      case .path: key.tail = .path
      case .rest: key.tail = .rest
      case .capture(let type): key.segments.append(.capture(type, MatchKind(segment.kind), nil))
      case .oneOf(let alternatives):
        let folded = !pattern.caseSensitive
        let test = Trie.Test.oneOf(
          Set(alternatives.map { Array((folded ? $0.lowercased() : $0).utf8) }), folded: folded)
        key.segments.append(.capture(.string, MatchKind(segment.kind), test))
      case .regex(let regex):
        key.segments.append(.capture(.string, MatchKind(segment.kind), .regex(regex)))
      }
    }
    return key
  }
}
