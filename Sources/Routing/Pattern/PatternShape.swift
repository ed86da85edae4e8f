/// When two patterns cannot be told apart by any URL, part by part (the conflicts of a table).
/// Placeholder names never count; literal text counts exactly, or ignoring case when both
/// routes ignore case.
extension RoutePattern {
  /// Whether the domain, the query constraints and the fragment pattern are the same.
  func sameBeyondPath(_ other: RoutePattern) -> Bool {
    guard domain.isExactly(other.domain),
      QueryConstraint.sameSet(constraints, caseSensitive, other.constraints, other.caseSensitive)
    else { return false }
    switch (fragment, other.fragment) {
    case (nil, nil): return true
    case (.segments(let a)?, .segments(let b)?):
      return PatternSegment.sameKinds(a, caseSensitive, b, other.caseSensitive)
    case (.query(let a)?, .query(let b)?):
      return QueryConstraint.sameSet(a, caseSensitive, b, other.caseSensitive)
    default: return false
    }
  }
}

extension PatternSegment {
  /// Whether two segment lists have the same kinds, one by one.
  static func sameKinds(
    _ a: [PatternSegment], _ aCaseSensitive: Bool, _ b: [PatternSegment], _ bCaseSensitive: Bool
  ) -> Bool {
    a.count == b.count
      && zip(a, b).allSatisfy {
        $0.kind.sameKind($1.kind, aCaseSensitive, bCaseSensitive)
      }
  }
}

extension SegmentKind {
  /// Whether two segment kinds match exactly the same text: literals with the same text, value
  /// sets with the same alternatives in any order, regular expressions with the same text,
  /// the same capture type.
  func sameKind(_ other: SegmentKind, _ caseSensitive: Bool, _ otherCaseSensitive: Bool) -> Bool {
    switch (self, other) {
    case (.literal(let a), .literal(let b)):
      return Self.sameTexts([a], caseSensitive, [b], otherCaseSensitive)
    case (.oneOf(let a), .oneOf(let b)):
      return Self.sameTexts(a, caseSensitive, b, otherCaseSensitive)
    case (.regex(let a), .regex(let b)): return a == b
    case (.capture(let a), .capture(let b)): return a == b
    case (.path, .path), (.rest, .rest): return true
    default: return false
    }
  }

  /// The same set of texts: byte for byte when both are case-sensitive, ignoring case when
  /// neither is; never when one is and the other is not.
  static func sameTexts(
    _ a: [String], _ aCaseSensitive: Bool, _ b: [String], _ bCaseSensitive: Bool
  ) -> Bool {
    guard aCaseSensitive == bCaseSensitive else { return false }
    func bytes(_ list: [String]) -> Set<[UInt8]> {
      Set(list.map { Array((aCaseSensitive ? $0 : $0.lowercased()).utf8) })
    }
    return bytes(a) == bytes(b)
  }
}

extension QueryConstraint {
  /// Whether two lists hold the same constraints in any order: the same keys (exactly), each
  /// with the same kind of value.
  static func sameSet(
    _ a: [QueryConstraint], _ aCaseSensitive: Bool, _ b: [QueryConstraint],
    _ bCaseSensitive: Bool
  ) -> Bool {
    // Keys are unique within a pattern.
    a.count == b.count
      && a.allSatisfy { constraint in
        b.contains { other in
          guard other.key.isExactly(constraint.key) else { return false }
          switch (constraint.value.segmentKind, other.value.segmentKind) {
          case (nil, nil): return true
          case (let x?, let y?): return x.sameKind(y, aCaseSensitive, bCaseSensitive)
          default: return false
          }
        }
      }
  }
}
