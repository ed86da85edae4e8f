/// What one URL segment or value is tested against, shared by the trie, the linear scan and
/// `--explain`, so that they decide alike.

/// The Unicode lowercase mapping of decoded text.
@inline(never)
func folded(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
  String(decoding: bytes, as: UTF8.self).lowercased()
}

/// Whether decoded `bytes` are `text`: exactly, or when not `caseSensitive` after the Unicode
/// lowercase mapping of both sides (scalar by scalar, without normalization).
func sameText(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String, caseSensitive: Bool) -> Bool {
  var text = caseSensitive ? text : text.lowercased()
  if caseSensitive { return text.withUTF8 { bytes.elementsEqual($0) } }
  var lower = folded(bytes)
  return lower.withUTF8 { lower in text.withUTF8 { lower.elementsEqual($0) } }
}

/// Calls `body` with the Unicode lowercase mapping of decoded `bytes`, made on the stack when
/// they are ASCII.
func withFolded<R>(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R)
  -> R
{
  guard bytes.allSatisfy({ $0 < 0x80 }) else {
    var lower = folded(bytes)
    return lower.withUTF8(body)
  }
  return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
    for (index, byte) in bytes.enumerated() {
      buffer.initializeElement(at: index, to: (0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
    }
    return body(UnsafeBufferPointer(buffer))
  }
}

extension SegmentKind {
  /// Whether one decoded URL segment matches this kind of single segment (a wildcard takes
  /// any).
  func accepts(_ bytes: UnsafeBufferPointer<UInt8>, caseSensitive: Bool) -> Bool {
    switch self {
    case .literal(let text): return sameText(bytes, text, caseSensitive: caseSensitive)
    case .capture(let type): return type.accepts(bytes)
    case .oneOf(let alternatives):
      return alternatives.contains { sameText(bytes, $0, caseSensitive: caseSensitive) }
    case .regex(let regex): return regex.matches(bytes)
    case .path, .rest: return true
    }
  }

  /// Whether one decoded URL segment matches, as ``accepts(_:caseSensitive:)`` decides.
  package func accepts(_ text: String, caseSensitive: Bool) -> Bool {
    var text = text
    return text.withUTF8 { accepts($0, caseSensitive: caseSensitive) }
  }

  /// The value a capture of this kind gives for one decoded segment, or nil when it does not
  /// match.
  func value(of bytes: UnsafeBufferPointer<UInt8>) -> ParamValue? {
    switch self {
    case .capture(let type): return type.value(of: bytes)
    case .literal, .oneOf, .regex, .path, .rest:
      return .string(String(decoding: bytes, as: UTF8.self))
    }
  }
}

extension QueryConstraint.Value {
  /// The same test as a segment kind, for a value the key has exactly once; nil for `!key`.
  package var segmentKind: SegmentKind? {
    switch self {
    case .literal(let text): return .literal(text)
    case .capture(let type, _): return .capture(type)
    case .oneOf(let alternatives, _): return .oneOf(alternatives)
    case .regex(let regex, _): return .regex(regex)
    case .absent: return nil
    }
  }
}

/// Whether URL segments match a list of pattern segments with at most one wildcard, anywhere:
/// the segments before it from the left, those after it against the URL's last segments; `*`
/// takes any number between, `<path:>` at least one. `segment(i)` gives the i-th URL segment.
func segmentsMatch(
  _ pattern: [PatternSegment], count: Int, caseSensitive: Bool,
  _ segment: (Int) -> UnsafeBufferPointer<UInt8>
) -> Bool {
  guard let wildcard = pattern.firstIndex(where: \.kind.isWildcard) else {
    guard pattern.count == count else { return false }
    for (index, part) in pattern.enumerated()
    where !part.kind.accepts(segment(index), caseSensitive: caseSensitive) {
      return false
    }
    return true
  }
  let after = pattern.count - wildcard - 1
  let taken = count - wildcard - after
  guard taken >= (pattern[wildcard].kind == .path ? 1 : 0) else { return false }
  for index in 0..<wildcard
  where !pattern[index].kind.accepts(segment(index), caseSensitive: caseSensitive) {
    return false
  }
  for offset in 0..<after {
    let part = pattern[wildcard + 1 + offset]
    if !part.kind.accepts(segment(wildcard + taken + offset), caseSensitive: caseSensitive) {
      return false
    }
  }
  return true
}

/// Whether `domain` (lowercase) is under the `*.` domain `pattern`: it ends with the suffix
/// after `*`, and what comes before has at least one label that is not empty.
package func domainIsUnder(_ domain: String, _ pattern: String) -> Bool {
  let suffix = pattern.utf8.dropFirst()
  let utf8 = domain.utf8
  guard utf8.count > suffix.count, utf8.reversed().starts(with: suffix.reversed()) else {
    return false
  }
  return utf8.dropLast(suffix.count).contains { $0 != 0x2E }
}

/// Whether a URL's `domain` (lowercase, nil when it has none) is the one `pattern` names.
package func domainMatches(_ domain: String?, _ pattern: String) -> Bool {
  guard let domain else { return false }
  if pattern.hasPrefix("*.") { return domainIsUnder(domain, pattern) }
  return domain.isExactly(pattern)
}
