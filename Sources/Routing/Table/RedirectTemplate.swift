import JSON

/// The URL template of a `redirect` target, such as `myapp://orders/:id?from=<source>`,
/// filled from the match parameters.
public struct RedirectTemplate: Sendable, Hashable {
  /// The template as written.
  public let text: String
  private let parts: [Part]

  private enum Part: Hashable {
    case text(String)
    case placeholder(String)
  }

  /// The placeholder names, in written order.
  public var placeholders: [String] {
    parts.compactMap {
      if case .placeholder(let name) = $0 { return name }
      return nil
    }
  }

  /// Reads a template; a placeholder is a whole path segment or a whole query value written
  /// `:name` or `<name>`. A typed `<type:name>` is refused.
  public init(_ text: String) throws(TemplateError) {
    self.text = text
    var parts: [Part] = []
    var literal = ""
    var inQuery = false
    let characters = Array(text)
    var index = 0
    var atTokenStart = true
    while index < characters.count {
      let character = characters[index]
      if atTokenStart, character == ":" || character == "<" {
        var end = index
        while end < characters.count, !"/?&#".contains(characters[end]) { end += 1 }
        let token = String(characters[index..<end])
        let name = try Self.placeholderName(token, column: index + 1)
        if !literal.isEmpty { parts.append(.text(literal)) }
        literal = ""
        parts.append(.placeholder(name))
        index = end
        atTokenStart = false
        continue
      }
      literal.append(character)
      if character == "?" { inQuery = true }
      atTokenStart = inQuery ? character == "=" : character == "/"
      index += 1
    }
    if !literal.isEmpty { parts.append(.text(literal)) }
    self.parts = parts
  }

  private static func placeholderName(_ token: String, column: Int) throws(TemplateError)
    -> String
  {
    var name = Substring(token)
    if token.hasPrefix(":") {
      name = name.dropFirst()
    } else {
      guard token.hasSuffix(">"), token.count >= 2 else {
        throw TemplateError("'<' without a closing '>' at column \(column)")
      }
      name = name.dropFirst().dropLast()
      if name.contains(":") {
        throw TemplateError(
          "typed placeholder '\(token)' at column \(column) is not allowed in a redirect template")
      }
    }
    guard let first = name.utf8.first, first.isASCIILetter || first == 0x5F,
      name.utf8.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == 0x5F })
    else {
      throw TemplateError("invalid placeholder '\(token)' at column \(column)")
    }
    return String(name)
  }

  /// The template with each placeholder replaced by its parameter, written as text and
  /// percent-encoded; a missing or array value is an error.
  public func fill(_ params: Parameters) throws(TemplateError) -> String {
    var result = ""
    for part in parts {
      switch part {
      case .text(let text):
        result += text
      case .placeholder(let name):
        guard let value = params[name] else {
          throw TemplateError(
            "redirect template \(JSON.quote(text)) needs '\(name)', which has no value")
        }
        guard let valueText = value.text else {
          throw TemplateError(
            "redirect template \(JSON.quote(text)): '\(name)' is a list, not one value")
        }
        result += percentEncodeUnreserved(valueText)
      }
    }
    return result
  }
}

/// A redirect template that cannot be read or filled.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var description: String

  init(_ description: String) { self.description = description }
}

/// Every UTF-8 byte outside `A-Z a-z 0-9 - . _ ~` as `%XX` (uppercase hex).
public func percentEncodeUnreserved(_ text: String) -> String {
  let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
  var out: [UInt8] = []
  out.reserveCapacity(text.utf8.count)
  for byte in text.utf8 {
    if byte.isASCIILetter || byte.isASCIIDigit || byte == 0x2D || byte == 0x2E || byte == 0x5F
      || byte == 0x7E
    {
      out.append(byte)
    } else {
      out += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
    }
  }
  return String(decoding: out, as: UTF8.self)
}
