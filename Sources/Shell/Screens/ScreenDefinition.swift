import Foundation
import JSON
import Routing

/// A parameter a screen declares: its type and whether it is required.
package struct ParameterSpec: Sendable, Hashable {
  /// `string`, `int`, `float` or `uuid`.
  package var type: CaptureType
  /// Whether the screen refuses to open without it.
  package var required: Bool

  /// Makes a parameter declaration.
  package init(type: CaptureType, required: Bool) {
    self.type = type
    self.required = required
  }

  /// Whether `value` fits: an `int` accepts an int capture or a decimal string, and so on.
  package func accepts(_ value: ParamValue) -> Bool {
    switch (type, value) {
    case (.string, _): return true
    case (_, .strings): return false
    case (.int, .int): return true
    case (.float, .float), (.float, .int): return true
    case (_, .string(let text)): return type.value(of: text) != nil
    default: return false
    }
  }
}

/// Text with `{{param}}` placeholders, checked against the declared parameters when loaded.
package struct TextTemplate: Sendable, Hashable {
  enum Piece: Sendable, Hashable {
    case text(String)
    case parameter(String)
  }

  let pieces: [Piece]

  /// The template as written.
  package let source: String

  /// The placeholder names used, in order.
  package var parameterNames: [String] {
    pieces.compactMap {
      if case .parameter(let name) = $0 { return name }
      return nil
    }
  }

  /// Reads `{{name}}` placeholders; an unclosed `{{` or an empty name is an error.
  package init(_ source: String) throws(ScreenFileError) {
    self.source = source
    var pieces: [Piece] = []
    var rest = Substring(source)
    while let open = rest.range(of: "{{") {
      if open.lowerBound > rest.startIndex {
        pieces.append(.text(String(rest[..<open.lowerBound])))
      }
      let afterOpen = rest[open.upperBound...]
      guard let close = afterOpen.range(of: "}}") else {
        throw ScreenFileError("unclosed '{{' in \(JSON.quote(source))")
      }
      let name = afterOpen[..<close.lowerBound].trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { throw ScreenFileError("empty '{{}}' in \(JSON.quote(source))") }
      pieces.append(.parameter(name))
      rest = afterOpen[close.upperBound...]
    }
    if !rest.isEmpty { pieces.append(.text(String(rest))) }
    self.pieces = pieces
  }

  /// The text with each placeholder replaced by its parameter's text (empty when absent);
  /// `encode` is applied to each value (for URLs).
  package func render(_ params: Parameters, encode: (String) -> String = { $0 }) -> String {
    var out = ""
    for piece in pieces {
      switch piece {
      case .text(let text): out += text
      case .parameter(let name):
        guard let value = params[name] else { continue }
        out += encode(value.displayText)
      }
    }
    return out
  }
}

extension ParamValue {
  /// The value as one line of text: arrays joined with `, `.
  package var displayText: String {
    text ?? (stringsValue ?? []).joined(separator: ", ")
  }

  /// The array of a `*` capture or repeated query key, else nil.
  package var stringsValue: [String]? {
    if case .strings(let values) = self { return values }
    return nil
  }
}

/// A screen defined as data: one JSON file in `Screens/` (docs/shell.md describes the format).
package struct ScreenDefinition: Sendable, Hashable {
  /// One link of a data screen.
  package struct LinkSpec: Sendable, Hashable {
    /// The label, a template.
    package var label: TextTemplate
    /// What the link does; URLs are templates whose values are percent-encoded.
    package var kind: Kind

    /// What a data link does.
    package enum Kind: Sendable, Hashable {
      /// Open a URL.
      case open(TextTemplate)
      /// Open a URL for a result stored under the key.
      case openForResult(TextTemplate, key: String)
      /// Finish the screen with a value.
      case finish(TextTemplate)
      /// Open a destination (for a result under the key, if any), at the URL the route table
      /// gives it when the app loads (`LinkTarget`).
      case to(RouteTarget, Parameters, resultKey: String?)
    }
  }

  /// The factory name, from the `name` field (which must match the file name).
  package var name: String
  /// The title template.
  package var title: TextTemplate
  /// The declared parameters.
  package var params: [String: ParameterSpec]
  /// The body lines, templates.
  package var body: [TextTemplate]
  /// The links.
  package var links: [LinkSpec]

  /// The fields a screen file may have.
  package static let fields: Set<String> = ["name", "title", "params", "body", "links"]

  /// Reads and checks a screen file's JSON; every `{{placeholder}}` must be a declared parameter.
  package init(json: JSON) throws(ScreenFileError) {
    guard case .object(let members) = json else {
      throw ScreenFileError("must be a JSON object")
    }
    for member in members where !Self.fields.contains(member.key) {
      throw ScreenFileError(
        "\(member.key): \(CloseName.unknownField(member.key, fields: Self.fields.sorted()))")
    }
    guard case .string(let name)? = json["name"], !name.isEmpty else {
      throw ScreenFileError("name: required, a non-empty string")
    }
    self.name = name
    guard case .string(let title)? = json["title"] else {
      throw ScreenFileError("title: required, a string")
    }
    self.title = try Self.template(title, field: "title")
    var params: [String: ParameterSpec] = [:]
    if let value = json["params"] {
      guard case .object(let declared) = value else {
        throw ScreenFileError("params: must be an object of parameter declarations")
      }
      for member in declared {
        let place = "params.\(member.key)"
        guard case .object(let fields) = member.value else {
          throw ScreenFileError(
            "\(place): must be an object like {\"type\":\"int\",\"required\":true}")
        }
        for field in fields where field.key != "type" && field.key != "required" {
          throw ScreenFileError(
            "\(place).\(field.key): \(CloseName.unknownField(field.key, fields: ["required", "type"]))"
          )
        }
        var spec = ParameterSpec(type: .string, required: false)
        if let type = member.value["type"] {
          guard case .string(let text) = type, let parsed = CaptureType(rawValue: text),
            parsed != .path
          else {
            throw ScreenFileError(
              "\(place).type: must be \"string\", \"int\", \"float\" or \"uuid\"")
          }
          spec.type = parsed
        }
        if let required = member.value["required"] {
          guard case .bool(let flag) = required else {
            throw ScreenFileError("\(place).required: must be true or false")
          }
          spec.required = flag
        }
        params[member.key] = spec
      }
    }
    self.params = params
    var body: [TextTemplate] = []
    switch json["body"] {
    case nil: break
    case .string(let text)?:
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        body.append(try Self.template(String(line), field: "body line \(index + 1)"))
      }
    case .array(let lines)?:
      for (index, line) in lines.enumerated() {
        guard case .string(let text) = line else {
          throw ScreenFileError("body[\(index)]: must be a string")
        }
        body.append(try Self.template(text, field: "body[\(index)]"))
      }
    default:
      throw ScreenFileError("body: must be a string or an array of strings")
    }
    self.body = body
    var links: [LinkSpec] = []
    if let value = json["links"] {
      guard case .array(let items) = value else {
        throw ScreenFileError("links: must be an array")
      }
      for (index, item) in items.enumerated() {
        links.append(try Self.link(item, place: "links[\(index)]"))
      }
    }
    self.links = links
    try checkPlaceholders()
  }

  private static func template(_ text: String, field: String) throws(ScreenFileError)
    -> TextTemplate
  {
    do {
      return try TextTemplate(text)
    } catch {
      throw ScreenFileError("\(field): \(error.description)")
    }
  }

  private static func link(_ json: JSON, place: String) throws(ScreenFileError) -> LinkSpec {
    guard case .object(let members) = json else {
      throw ScreenFileError("\(place): must be an object with a label and a url or result")
    }
    let allowed: Set<String> = ["label", "url", "resultKey", "result", "to"]
    for member in members where !allowed.contains(member.key) {
      throw ScreenFileError(
        "\(place).\(member.key): \(CloseName.unknownField(member.key, fields: allowed.sorted()))")
    }
    guard case .string(let labelText)? = json["label"], !labelText.isEmpty else {
      throw ScreenFileError("\(place).label: required, a non-empty string")
    }
    let label = try template(labelText, field: "\(place).label")
    if let to = json["to"] {
      guard json["url"] == nil, json["result"] == nil else {
        throw ScreenFileError("\(place).to: a link has a \"url\", a \"to\" or a \"result\"")
      }
      let (target, parameters) = try LinkTarget.read(to, place: "\(place).to")
      var key: String?
      if let value = json["resultKey"] {
        guard case .string(let text) = value else {
          throw ScreenFileError("\(place).resultKey: must be a string")
        }
        key = text
      }
      return LinkSpec(label: label, kind: .to(target, parameters, resultKey: key))
    }
    switch (json["url"], json["result"], json["resultKey"]) {
    case (.string(let url)?, nil, nil):
      return LinkSpec(label: label, kind: .open(try template(url, field: "\(place).url")))
    case (.string(let url)?, nil, .string(let key)?):
      return LinkSpec(
        label: label, kind: .openForResult(try template(url, field: "\(place).url"), key: key))
    case (nil, .string(let value)?, nil):
      return LinkSpec(label: label, kind: .finish(try template(value, field: "\(place).result")))
    default:
      throw ScreenFileError(
        "\(place): needs a string \"url\" (optionally with \"resultKey\") or a string \"result\"")
    }
  }

  private func checkPlaceholders() throws(ScreenFileError) {
    var templates: [(String, TextTemplate)] = [("title", title)]
    templates += body.enumerated().map { ("body line \($0.offset + 1)", $0.element) }
    for (index, link) in links.enumerated() {
      templates.append(("links[\(index)].label", link.label))
      switch link.kind {
      case .open(let url), .openForResult(let url, _):
        templates.append(("links[\(index)].url", url))
      case .finish(let value): templates.append(("links[\(index)].result", value))
      case .to: break
      }
    }
    for (field, template) in templates {
      for name in template.parameterNames where params[name] == nil && !name.hasPrefix("flags.") {
        throw ScreenFileError(
          "\(field): unknown placeholder {{\(name)}} (declare it under \"params\")")
      }
    }
  }

  /// The flags the screen shows (`{{flags.NAME}}`), in order of use.
  package var flagNames: [String] {
    var templates = [title] + body
    for link in links {
      templates.append(link.label)
      switch link.kind {
      case .open(let url), .openForResult(let url, _): templates.append(url)
      case .finish(let value): templates.append(value)
      case .to: break
      }
    }
    var names: [String] = []
    for template in templates {
      for name in template.parameterNames where name.hasPrefix("flags.") {
        let flag = String(name.dropFirst("flags.".count))
        if !names.contains(flag) { names.append(flag) }
      }
    }
    return names
  }

  /// Makes the screen from checked parameters and the app's flags.
  package func make(params: Parameters, url: String?, flags: Flags = Flags()) -> Screen {
    Screen(
      name: name, title: title.render(params, flags: flags), params: params,
      body: body.map { $0.render(params, flags: flags) },
      links: links.map { link in
        let label = link.label.render(params, flags: flags)
        switch link.kind {
        case .open(let url):
          return Link(
            label, .open(url.render(params, flags: flags, encode: percentEncodeUnreserved)))
        case .openForResult(let url, let key):
          return Link(
            label,
            .openForResult(
              url.render(params, flags: flags, encode: percentEncodeUnreserved), key: key))
        case .finish(let value):
          return Link(label, .finish(value.render(params, flags: flags)))
        case .to(_, _, let key):
          // Only a screen made for lint keeps such a link (resolvingLinks(in:) turns it into
          // a URL): it opens nothing.
          return Link(label, key.map { .openForResult("", key: $0) } ?? .open(""))
        }
      }, url: url)
  }
}

/// A screen file that cannot be used: the field and the problem (the loader adds the file).
package struct ScreenFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `field: problem`.
  package var description: String

  /// Makes an error.
  package init(_ description: String) { self.description = description }
}
