/// How names from a route table become Swift names: lowerCamelCase for cases and labels,
/// UpperCamelCase for types, keywords in backticks.
package enum SwiftNames {
  /// The words of a name: runs of ASCII letters and digits; everything else separates them.
  static func words(_ name: String) -> [String] {
    var words: [String] = []
    var current = ""
    for scalar in name.unicodeScalars {
      if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
        current.unicodeScalars.append(scalar)
      } else if !current.isEmpty {
        words.append(current)
        current = ""
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// `order-detail` -> `orderDetail`, `pk_detail` -> `pkDetail`, `CCFAnimal` -> `ccfAnimal`,
  /// `*` -> `wildcard`; a name starting with a digit gets a leading `_`. Nil when the name has
  /// no ASCII letter or digit. Not escaped (see ``escaped(_:)``).
  package static func lowerCamelCase(_ name: String) -> String? {
    if name == "*" { return "wildcard" }
    let words = words(name)
    guard let first = words.first else { return nil }
    var result = lowerFirstWord(first)
    for word in words.dropFirst() { result += word.prefix(1).uppercased() + word.dropFirst() }
    if let lead = result.unicodeScalars.first, ("0"..."9").contains(lead) { result = "_" + result }
    return result
  }

  /// `period` -> `Period`, `my-shop` -> `MyShop`; nil when the name has no ASCII letter or digit.
  package static func upperCamelCase(_ name: String) -> String? {
    let words = words(name)
    guard !words.isEmpty else { return nil }
    var result = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    if let lead = result.unicodeScalars.first, ("0"..."9").contains(lead) { result = "_" + result }
    return result
  }

  /// The first word with its leading capitals lowered: `URL` -> `url`, `CCFAnimal` ->
  /// `ccfAnimal`, `Order` -> `order`, `userID` stays.
  private static func lowerFirstWord(_ word: String) -> String {
    let characters = Array(word)
    var upper = 0
    while upper < characters.count, characters[upper].isUppercase { upper += 1 }
    if upper == 0 { return word }
    // Keep the last capital of a run that starts the next part (`CCFAnimal`: `A`).
    let lowered =
      upper == characters.count || upper == 1 || !characters[upper].isLowercase
      ? upper : upper - 1
    return characters[..<lowered].map { $0.lowercased() }.joined()
      + String(characters[lowered...])
  }

  /// The name in backticks when it is a Swift keyword.
  package static func escaped(_ name: String) -> String {
    keywords.contains(name) ? "`\(name)`" : name
  }

  /// Words Swift reserves in the places generated names stand.
  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
    "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough",
    "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any",
    "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    "_", "Type", "Protocol", "some", "any", "consume", "copy", "borrowing", "consuming",
    "package", "each", "macro", "actor", "async",
  ]

  /// A string as a Swift string literal.
  package static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case "\"": result += "\\\""
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || !scalar.isASCII {
          result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
