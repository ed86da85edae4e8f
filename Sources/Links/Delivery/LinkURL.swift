/// A URL from outside, split as iOS reads it for the delivery decision: the scheme, the host
/// (lowercase, without user information or port) and the path, query and fragment as written.
package struct LinkURL: Sendable, Hashable {
  /// The scheme, in lowercase.
  package var scheme: String
  /// The host, in lowercase; empty when the URL has no authority.
  package var host: String
  /// The path as written; `/` when empty.
  package var path: String
  /// The query as written, without `?`; `""` when absent.
  package var query: String
  /// The fragment as written, without `#`; `""` when absent.
  package var fragment: String

  /// Splits `text`, or says why it cannot be read.
  package init(_ text: String) throws(LinkURLError) {
    guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else {
      throw LinkURLError("no scheme")
    }
    let schemeText = text[..<colon]
    guard let first = schemeText.unicodeScalars.first, first.isASCII,
      first.properties.isAlphabetic,
      schemeText.unicodeScalars.allSatisfy({
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "+-.".unicodeScalars.contains($0))
      })
    else {
      throw LinkURLError(schemeText.isEmpty ? "no scheme" : "\"\(schemeText)\" is not a scheme")
    }
    guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
      throw LinkURLError("it contains a space or a control character")
    }
    scheme = schemeText.lowercased()
    var rest = text[text.index(after: colon)...]
    if let hash = rest.firstIndex(of: "#") {
      fragment = String(rest[rest.index(after: hash)...])
      rest = rest[..<hash]
    } else {
      fragment = ""
    }
    if let question = rest.firstIndex(of: "?") {
      query = String(rest[rest.index(after: question)...])
      rest = rest[..<question]
    } else {
      query = ""
    }
    host = ""
    if rest.hasPrefix("//") {
      rest = rest.dropFirst(2)
      let end = rest.firstIndex(of: "/") ?? rest.endIndex
      var authority = rest[..<end]
      rest = rest[end...]
      if let at = authority.lastIndex(of: "@") {
        authority = authority[authority.index(after: at)...]
      }
      if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
        authority = authority[...close]
      } else if let portColon = authority.firstIndex(of: ":") {
        authority = authority[..<portColon]
      }
      host = authority.lowercased()
    }
    path = rest.isEmpty ? "/" : String(rest)
  }
}

/// A URL that cannot be read for delivery.
package struct LinkURLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Why.
  package var description: String

  init(_ description: String) { self.description = description }
}
