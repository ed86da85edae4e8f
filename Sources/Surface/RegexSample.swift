import Routing

/// Sample values of a `:name(REGEX)` placeholder: a shortest match, built by reading the
/// REGEX (each atom once, the fewest repetitions, the shortest alternative), then `x1` and `7`
/// when the REGEX matches them. Only values the REGEX matches are kept.
enum RegexSample {
  static func samples(_ regex: RouteRegex) -> [String] {
    var reader = Reader(Array(regex.source.unicodeScalars))
    var result: [String] = []
    let shortest = reader.alternation()
    for candidate in [shortest, Witnesses.word, Witnesses.number, "a", "0"]
    where regex.matches(candidate) && !result.contains(candidate) {
      result.append(candidate)
      if result.count == 3 { break }
    }
    return result.isEmpty ? [shortest] : result
  }

  /// Reads a REGEX left to right, building its shortest match.
  struct Reader {
    var scalars: [Unicode.Scalar]
    var index = 0

    init(_ scalars: [Unicode.Scalar]) {
      self.scalars = scalars
      // `(?i)` at the start changes case only.
      if scalars.starts(with: Array("(?i)".unicodeScalars)) { index = 4 }
    }

    var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    /// `a|b|c`: the shortest alternative.
    mutating func alternation() -> String {
      var options = [sequence()]
      while peek == "|" {
        index += 1
        options.append(sequence())
      }
      return options.min { $0.unicodeScalars.count < $1.unicodeScalars.count } ?? ""
    }

    /// Atoms with their quantifiers, up to `|`, `)` or the end.
    mutating func sequence() -> String {
      var out = ""
      while let scalar = peek, scalar != "|", scalar != ")" {
        let piece = atom()
        let count = quantifier()
        out += String(repeating: piece, count: count)
      }
      return out
    }

    /// The fewest repetitions the quantifier after an atom allows (1 without one).
    mutating func quantifier() -> Int {
      var count = 1
      switch peek {
      case "*", "?":
        index += 1
        count = 0
      case "+":
        index += 1
      case "{":
        var digits = ""
        var at = index + 1
        while at < scalars.count, scalars[at].properties.numericType != nil {
          digits.unicodeScalars.append(scalars[at])
          at += 1
        }
        guard let minimum = Int(digits) else { return 1 }
        while at < scalars.count, scalars[at] != "}" { at += 1 }
        index = min(at + 1, scalars.count)
        count = minimum
      default: return 1
      }
      // Lazy and possessive forms match the same values.
      if peek == "?" || peek == "+" { index += 1 }
      return count
    }

    /// One atom's shortest match.
    mutating func atom() -> String {
      guard let scalar = peek else { return "" }
      index += 1
      switch scalar {
      case "(":
        if peek == "?" {
          // `(?:...)` and other group flags: skip to the `:` or `)`.
          while let next = peek, next != ":", next != ")" { index += 1 }
          if peek == ":" { index += 1 }
        }
        let inner = alternation()
        if peek == ")" { index += 1 }
        return inner
      case "[": return bracket()
      case ".": return "a"
      case "^", "$": return ""
      case "\\": return escaped()
      default: return String(scalar)
      }
    }

    /// The character after a `\`.
    mutating func escaped() -> String {
      guard let scalar = peek else { return "" }
      index += 1
      switch scalar {
      case "d": return "0"
      case "w", "D", "S": return "a"
      case "W": return "-"
      case "s": return " "
      case "t": return "\t"
      case "n": return "\n"
      case "x", "u":
        let width = scalar == "x" ? 2 : 4
        let hex = String(
          String.UnicodeScalarView(scalars[index..<min(index + width, scalars.count)]))
        index = min(index + width, scalars.count)
        return UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init).map { String($0) } ?? ""
      default: return String(scalar)
      }
    }

    /// The first character a `[...]` class admits (for a negated class: a letter or digit it
    /// does not exclude).
    mutating func bracket() -> String {
      var negated = false
      if peek == "^" {
        negated = true
        index += 1
      }
      var members: [Unicode.Scalar] = []
      var first = true
      while let scalar = peek, scalar != "]" || first {
        first = false
        index += 1
        if scalar == "\\" {
          members += escaped().unicodeScalars
        } else {
          members.append(scalar)
        }
      }
      if peek == "]" { index += 1 }
      guard negated else { return members.first.map { String($0) } ?? "" }
      let excluded = Set(members)
      return "aZ0_".unicodeScalars.first { !excluded.contains($0) }.map { String($0) } ?? "~"
    }
  }
}
