import Routing

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
    let bytes = Array(text.utf8)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
      throw LinkURLError("no scheme")
    }
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    func isSchemeByte(_ byte: UInt8) -> Bool {
      isLetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D
        || byte == 0x2E
    }
    guard colon > 0, isLetter(bytes[0]), bytes[..<colon].allSatisfy(isSchemeByte) else {
      throw LinkURLError(
        colon == 0
          ? "no scheme" : "\"\(String(decoding: bytes[..<colon], as: UTF8.self))\" is not a scheme")
    }
    // What the router cannot read (a bad escape, bytes that are not UTF-8, a limit) cannot be
    // delivered; spaces and other bytes the router reads as they stand can.
    do {
      _ = try RouteURL(bytes: bytes)
    } catch {
      throw LinkURLError(error.description)
    }
    func lowercased(_ slice: ArraySlice<UInt8>) -> String {
      String(decoding: slice.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
    scheme = lowercased(bytes[..<colon])
    var end = bytes.count
    if let hash = bytes[(colon + 1)...].firstIndex(of: UInt8(ascii: "#")) {
      fragment = String(decoding: bytes[(hash + 1)...], as: UTF8.self)
      end = hash
    } else {
      fragment = ""
    }
    if let question = bytes[(colon + 1)..<end].firstIndex(of: UInt8(ascii: "?")) {
      query = String(decoding: bytes[(question + 1)..<end], as: UTF8.self)
      end = question
    } else {
      query = ""
    }
    var start = colon + 1
    host = ""
    if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
      start += 2
      let authorityEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
      var authority = bytes[start..<authorityEnd]
      start = authorityEnd
      if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
      if authority.first == UInt8(ascii: "["),
        let close = authority.firstIndex(of: UInt8(ascii: "]"))
      {
        authority = authority[...close]
      } else if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
        authority = authority[..<portColon]
      }
      host = lowercased(authority)
    }
    path = start == end ? "/" : String(decoding: bytes[start..<end], as: UTF8.self)
  }
}

/// A URL that cannot be read for delivery.
package struct LinkURLError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Why.
  package var description: String

  init(_ description: String) { self.description = description }
}
