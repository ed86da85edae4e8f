/// Close names for "did you mean" hints: the known name a misspelt one most likely meant.
package enum CloseName {
  /// The known name closest to `name`: one that differs only in case, else the nearest by edit
  /// distance (a character inserted, deleted, replaced, or two swapped) when it is within a
  /// third of the name's length (at least 1, for names longer than 3); the first of equals in
  /// `known`'s order.
  package static func closest(to name: String, in known: some Sequence<String>) -> String? {
    let lowered = Array(name.lowercased())
    // Short names only by case: one edit makes any short name another.
    let limit = lowered.count <= 3 ? 0 : max(1, lowered.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in known where candidate != name {
      let distance = self.distance(lowered, Array(candidate.lowercased()))
      if distance < (best?.distance ?? limit + 1) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// `; did you mean "NAME"?` for the closest known name, or nothing.
  package static func hint(for name: String, in known: some Sequence<String>) -> String {
    closest(to: name, in: known).map { "; did you mean \"\($0)\"?" } ?? ""
  }

  /// `unknown field; did you mean "screen"? (fields: a, b, c)`: an unknown member of a JSON
  /// object, with the close name and the members it may have.
  package static func unknownField(_ name: String, fields: [String]) -> String {
    "unknown field\(hint(for: name, in: fields)) (fields: \(fields.joined(separator: ", ")))"
  }

  /// The optimal-string-alignment distance between two strings of characters.
  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }
}
