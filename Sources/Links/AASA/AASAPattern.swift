/// A compiled AASA pattern: `*` any run of characters (also none, also `/`), `?` any one
/// character, `$(NAME)` a substitution variable or a predefined class, every other character
/// itself. The whole text must match. Characters are Unicode scalars.
package struct AASAPattern: Sendable, Hashable {
  /// The pattern as written.
  package var text: String
  var tokens: [Token]

  indirect enum Token: Sendable, Hashable {
    case scalar(Unicode.Scalar)
    case any
    case one
    case set(Set<Unicode.Scalar>)
    case choice([[Token]])
  }

  /// How texts and patterns are compared.
  package struct Options: Sendable, Hashable {
    /// Upper and lower case differ.
    package var caseSensitive = true
    /// Compared as written in the URL (true) or percent-decoded (false).
    package var percentEncoded = true

    /// The defaults: case-sensitive, as written.
    package init(caseSensitive: Bool = true, percentEncoded: Bool = true) {
      self.caseSensitive = caseSensitive
      self.percentEncoded = percentEncoded
    }
  }

  /// A variable that cannot be used: the message.
  package struct CompileError: Error, Sendable, Equatable {
    package var message: String
  }

  /// Compiles `text` with these options; `variables` are the document's
  /// `substitutionVariables` (their values are patterns too, without variables).
  package init(_ text: String, options: Options, variables: [String: [String]]) throws(CompileError)
  {
    self.text = text
    tokens = try Self.tokens(text, options: options, variables: variables, allowVariables: true)
  }

  /// Checks a `substitutionVariables` value: a pattern without variables.
  package static func checkVariableValue(_ text: String) throws(CompileError) {
    _ = try tokens(text, options: Options(), variables: [:], allowVariables: false)
  }

  /// Whether the whole `text` (already in compared form: see ``normalized(_:options:)``)
  /// matches.
  package func matches(normalized text: [Unicode.Scalar]) -> Bool {
    Self.match(tokens[...], text[...])
  }

  /// Whether `text` matches, after the options' normalization.
  package func matches(_ text: String, options: Options) -> Bool {
    matches(normalized: Self.normalized(text, options: options))
  }

  /// Whether the pattern is one `*`: it matches every text.
  package var matchesEverything: Bool { tokens == [.any] }

  /// The pattern's literal text before its first wildcard, and whether the rest is one `*`.
  package var literalPrefix: (prefix: [Unicode.Scalar], endsWithStar: Bool, isLiteral: Bool) {
    var prefix: [Unicode.Scalar] = []
    for (position, token) in tokens.enumerated() {
      guard case .scalar(let scalar) = token else {
        return (prefix, token == .any && position == tokens.count - 1, false)
      }
      prefix.append(scalar)
    }
    return (prefix, false, true)
  }

  /// A text the pattern matches: `*` as `star`, `?` and classes as one character of theirs,
  /// a variable as its first value.
  package func example(star: String = "") -> String {
    var scalars: [Unicode.Scalar] = []
    func add(_ tokens: [Token]) {
      for token in tokens {
        switch token {
        case .scalar(let scalar): scalars.append(scalar)
        case .any: scalars.append(contentsOf: star.unicodeScalars)
        case .one: scalars.append("x")
        case .set(let set): scalars.append(set.min() ?? "x")
        case .choice(let options): if let first = options.first { add(first) }
        }
      }
    }
    add(tokens)
    var result = ""
    result.unicodeScalars.append(contentsOf: scalars)
    return result
  }

  /// The text as compared: with `percentEncoded`, the hex digits of escapes in uppercase;
  /// without, percent-decoded (UTF-8; `+` stays `+`); lowercased unless `caseSensitive`.
  package static func normalized(_ text: String, options: Options) -> [Unicode.Scalar] {
    var text = options.percentEncoded ? uppercasingEscapes(text) : percentDecoded(text)
    if !options.caseSensitive { text = text.lowercased() }
    return Array(text.unicodeScalars)
  }

  /// Whether `tokens` match the whole text: the set of text positions reachable after each
  /// token, as one flag per position, so a pattern with many `*` costs the number of tokens
  /// times the text's length, never more (no backtracking).
  private static func match(_ tokens: ArraySlice<Token>, _ text: ArraySlice<Unicode.Scalar>)
    -> Bool
  {
    var reach = [Bool](repeating: false, count: text.count + 1)
    reach[0] = true
    return run(tokens, text, reach).last!
  }

  private static func run(
    _ tokens: ArraySlice<Token>, _ text: ArraySlice<Unicode.Scalar>, _ start: [Bool]
  ) -> [Bool] {
    var reach = start
    let base = text.startIndex
    for token in tokens {
      var next = [Bool](repeating: false, count: reach.count)
      var any = false
      switch token {
      case .any:
        var seen = false
        for position in reach.indices {
          seen = seen || reach[position]
          next[position] = seen
        }
        any = seen
      case .choice(let options):
        for option in options {
          let reached = run(option[...], text, reach)
          for position in reached.indices where reached[position] {
            next[position] = true
            any = true
          }
        }
      default:
        for position in 0..<text.count where reach[position] {
          let scalar = text[base + position]
          let accepted: Bool
          switch token {
          case .scalar(let expected): accepted = scalar == expected
          case .set(let set): accepted = set.contains(scalar)
          default: accepted = true
          }
          if accepted {
            next[position + 1] = true
            any = true
          }
        }
      }
      guard any else { return next }
      reach = next
    }
    return reach
  }

  // MARK: - Compiling

  private static func tokens(
    _ text: String, options: Options, variables: [String: [String]], allowVariables: Bool
  ) throws(CompileError) -> [Token] {
    let source = Array(
      (options.percentEncoded ? uppercasingEscapes(text) : text).unicodeScalars)
    var tokens: [Token] = []
    var position = 0
    while position < source.count {
      let scalar = source[position]
      if scalar == "$", position + 1 < source.count, source[position + 1] == "(" {
        guard let close = source[(position + 2)...].firstIndex(of: ")") else {
          throw CompileError(message: "\(quote(text)): unclosed $(")
        }
        var name = ""
        name.unicodeScalars.append(contentsOf: source[(position + 2)..<close])
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(isNameScalar) else {
          throw CompileError(message: "\(quote(text)): $(\(name)) is not a variable name")
        }
        tokens.append(
          try variable(
            name, in: text, options: options, variables: variables,
            allowVariables: allowVariables))
        position = close + 1
        continue
      }
      switch scalar {
      case "*":
        if tokens.last != .any { tokens.append(.any) }
      case "?": tokens.append(.one)
      default:
        tokens.append(.scalar(options.caseSensitive ? scalar : lowercased(scalar)))
      }
      position += 1
    }
    return tokens
  }

  private static func variable(
    _ name: String, in text: String, options: Options, variables: [String: [String]],
    allowVariables: Bool
  ) throws(CompileError) -> Token {
    func fold(_ set: Set<Unicode.Scalar>) -> Token {
      .set(options.caseSensitive ? set : Set(set.map(lowercased)))
    }
    func words(_ list: [String]) -> Token {
      .choice(
        list.map { word in
          word.unicodeScalars.map { .scalar(options.caseSensitive ? $0 : lowercased($0)) }
        })
    }
    switch name {
    case "alpha": return fold(CharacterClass.upper.union(CharacterClass.lower))
    case "upper": return fold(CharacterClass.upper)
    case "lower": return fold(CharacterClass.lower)
    case "alnum":
      return fold(CharacterClass.upper.union(CharacterClass.lower).union(CharacterClass.digit))
    case "digit": return .set(CharacterClass.digit)
    case "xdigit": return fold(CharacterClass.xdigit)
    case "lang": return words(CharacterClass.languages)
    case "region": return words(CharacterClass.regions)
    default:
      guard allowVariables, let values = variables[name] else {
        throw CompileError(
          message:
            "\(quote(text)): $(\(name)) is not a predefined variable nor one of substitutionVariables"
        )
      }
      var alternatives: [[Token]] = []
      for value in values {
        alternatives.append(
          try tokens(value, options: options, variables: [:], allowVariables: false))
      }
      return .choice(alternatives)
    }
  }

  /// Whether a variable name may hold the scalar: any but `$`, `(` and `)`, as Apple's
  /// documentation of `substitutionVariables` says.
  static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar != "$" && scalar != "(" && scalar != ")"
  }

  private static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    let lower = scalar.properties.lowercaseMapping.unicodeScalars
    return lower.count == 1 ? lower.first! : scalar
  }

  private static func quote(_ text: String) -> String { "\"\(text)\"" }

  /// `%2f` -> `%2F`: escapes compare case-insensitively.
  static func uppercasingEscapes(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
    var bytes = Array(text.utf8)
    var index = 0
    while index + 2 < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit
      {
        bytes[index + 1] = bytes[index + 1].uppercasedASCII
        bytes[index + 2] = bytes[index + 2].uppercasedASCII
        index += 3
      } else {
        index += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// `%XX` decoded as UTF-8 (invalid sequences become U+FFFD); `+` stays `+`.
  static func percentDecoded(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
    let bytes = Array(text.utf8)
    var result: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
        let high = bytes[index + 1].hexValue, let low = bytes[index + 2].hexValue
      {
        result.append(high << 4 | low)
        index += 3
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}

extension UInt8 {
  var isHexDigit: Bool { hexValue != nil }
  var hexValue: UInt8? {
    switch self {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return self - 48
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return self - 87
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return self - 55
    default: return nil
    }
  }
  var uppercasedASCII: UInt8 {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) ? self - 32 : self
  }
}
