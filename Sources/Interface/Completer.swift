import Foundation
import Routing

/// Tab completion of the URL prompt from the route table: schemes, and each pattern up to its
/// first placeholder.
package struct Completer: Sendable, Hashable {
  /// The completions, sorted and unique.
  package let candidates: [String]

  /// Builds the completions of a table.
  package init(table: RouteTable) {
    var found: Set<String> = []
    for entry in table.entries {
      let text = entry.pattern.text
      if let schemeEnd = text.range(of: "://") {
        found.insert(String(text[..<schemeEnd.upperBound]))
      }
      found.insert(Self.literalPrefix(text))
    }
    found.remove("")
    candidates = found.sorted()
  }

  /// The pattern up to its first placeholder, `*` or optional group.
  static func literalPrefix(_ pattern: String) -> String {
    var prefix = ""
    var previous: Character = "/"
    for character in pattern {
      if character == "(" || character == "<" || character == "*" { break }
      if character == ":" && (previous == "/" || previous == "=") { break }
      prefix.append(character)
      previous = character
    }
    return prefix
  }

  /// What Tab does to `text`: the completed text, and the candidates when more than one fits.
  package func complete(_ text: String) -> (text: String, choices: [String]) {
    let lowered = text.lowercased()
    let fitting = candidates.filter { $0.lowercased().hasPrefix(lowered) && $0.count > text.count }
    guard let first = fitting.first else { return (text, []) }
    if fitting.count == 1 { return (first, []) }
    var common = Array(first)
    for candidate in fitting.dropFirst() {
      let characters = Array(candidate)
      var length = 0
      while length < common.count, length < characters.count,
        String(common[length]).lowercased() == String(characters[length]).lowercased()
      {
        length += 1
      }
      common = Array(common[0..<length])
    }
    let completed = common.count > text.count ? String(common) : text
    return (completed, fitting)
  }
}
