import Render

/// A readable line diff between an expected text and an actual one, for
/// `appshell replay --expect`: hunks of changed lines with a little context, each headed with
/// the line numbers and the snapshot the lines belong to.
package enum LineDiff {
  /// One line of a diff.
  enum Line: Equatable {
    /// A line's bytes; equal when the bytes are.
    struct Text: Equatable {
      var bytes: [UInt8]
      var shown: String { inert(String(decoding: bytes, as: UTF8.self)) }
    }
    case same(Text)
    case removed(Text)
    case added(Text)
  }

  /// The diff of `expected` and `actual` as text (`-` expected, `+` actual, two lines of
  /// context), or nil when they are equal.
  package static func describe(
    expected: String, actual: String, expectedName: String, actualName: String
  ) -> String? {
    // Byte for byte: Swift's `==` would call canonically equivalent text equal.
    guard !expected.utf8.elementsEqual(actual.utf8) else { return nil }
    let old = lines(expected)
    let new = lines(actual)
    let edits = diff(old, new)
    var out = "--- \(expectedName)\n+++ \(actualName)\n"
    // Positions (in `edits`) of changed lines, grouped into hunks with context.
    let context = 2
    let changed = edits.indices.filter {
      if case .same = edits[$0] { return false }
      return true
    }
    var hunks: [ClosedRange<Int>] = []
    for index in changed {
      let range = max(0, index - context)...min(edits.count - 1, index + context)
      if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
        hunks[hunks.count - 1] = last.lowerBound...range.upperBound
      } else {
        hunks.append(range)
      }
    }
    var oldLine = 1
    var newLine = 1
    var position = 0
    for hunk in hunks {
      while position < hunk.lowerBound {
        advance(edits[position], &oldLine, &newLine)
        position += 1
      }
      let snapshot = snapshotName(before: oldLine, in: old)
      out += "@@ line \(oldLine) of expected, line \(newLine) of actual\(snapshot) @@\n"
      while position <= hunk.upperBound {
        switch edits[position] {
        case .same(let text): out += "  \(text.shown)\n"
        case .removed(let text): out += "- \(text.shown)\n"
        case .added(let text): out += "+ \(text.shown)\n"
        }
        advance(edits[position], &oldLine, &newLine)
        position += 1
      }
    }
    if (expected.utf8.last == 0x0A) != (actual.utf8.last == 0x0A) {
      out += "(one of them has no line break at the end)\n"
    }
    return out
  }

  /// Lines split on the `\n` byte (a `\r` stays in its line, so CRLF files show it),
  /// each compared byte for byte.
  private static func lines(_ text: String) -> [Line.Text] {
    var result = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
      Line.Text(bytes: Array($0))
    }
    if result.last?.bytes.isEmpty == true { result.removeLast() }
    return result
  }

  private static func advance(_ line: Line, _ oldLine: inout Int, _ newLine: inout Int) {
    switch line {
    case .same:
      oldLine += 1
      newLine += 1
    case .removed: oldLine += 1
    case .added: newLine += 1
    }
  }

  /// `, in snapshot N` when the line falls under a `=== snapshot N ===` header.
  private static func snapshotName(before line: Int, in lines: [Line.Text]) -> String {
    for index in stride(from: min(line, lines.count) - 1, through: 0, by: -1) {
      let text = String(decoding: lines[index].bytes, as: UTF8.self)
      if text.hasPrefix("=== snapshot ") {
        return ", in \(inert(String(text.dropFirst(4).dropLast(4))))"
      }
    }
    return ""
  }

  /// The edits turning `old` into `new`: a longest common subsequence, with the common
  /// prefix and suffix taken first so long equal runs cost nothing. Past a few million cells
  /// the middle is compared line by line instead.
  static func diff(_ old: [Line.Text], _ new: [Line.Text]) -> [Line] {
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    let a = Array(old[prefix..<(old.count - suffix)])
    let b = Array(new[prefix..<(new.count - suffix)])
    var middle: [Line] = []
    if a.count * b.count > 4_000_000 {
      middle = a.map(Line.removed) + b.map(Line.added)
    } else {
      // lengths[i][j]: the LCS length of a[i...] and b[j...].
      var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
      for i in stride(from: a.count - 1, through: 0, by: -1) {
        for j in stride(from: b.count - 1, through: 0, by: -1) {
          lengths[i][j] =
            a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
        }
      }
      var i = 0
      var j = 0
      while i < a.count || j < b.count {
        if i < a.count, j < b.count, a[i] == b[j] {
          middle.append(.same(a[i]))
          i += 1
          j += 1
        } else if i < a.count, j == b.count || lengths[i + 1][j] >= lengths[i][j + 1] {
          middle.append(.removed(a[i]))
          i += 1
        } else {
          middle.append(.added(b[j]))
          j += 1
        }
      }
    }
    return old[..<prefix].map(Line.same) + middle + old[(old.count - suffix)...].map(Line.same)
  }
}
