// The words of an explanation: one reason per verdict, the same in the text and JSON forms,
// with every value quoted inert (no control or invisible format character gets through).

import JSON
import Routing

extension Explanation {
  /// `text` in double quotes, shown inert: `"` and `\` are escaped with `\`, C0 and C1
  /// control characters and DEL become `\xNN`, and bidi controls and invisible format
  /// characters become `\u{NNNN}` (as the Render module's `inert` writes them), so a URL or
  /// pattern cannot move the cursor, recolour a terminal or reorder the text around it.
  public static func quote(_ text: String) -> String {
    "\"" + escape(text, quotes: true) + "\""
  }

  /// `text` shown inert without quotes, as ``quote(_:)`` escapes it but leaving `"` and `\`
  /// as they are: for a URL or a pattern shown on its own.
  public static func inert(_ text: String) -> String {
    escape(text, quotes: false)
  }

  private static func escape(_ text: String, quotes: Bool) -> String {
    var out = String.UnicodeScalarView()
    let hex = Array("0123456789abcdef".unicodeScalars)
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if quotes && (scalar == "\"" || scalar == "\\") {
        out.append("\\")
        out.append(scalar)
      } else if value < 0x20 || (0x7F..<0xA0).contains(value) {
        out.append(contentsOf: "\\x".unicodeScalars)
        out.append(hex[Int(value >> 4)])
        out.append(hex[Int(value & 0xF)])
      } else if isUnsafeForDisplay(value) {
        out.append(contentsOf: "\\u{".unicodeScalars)
        out.append(contentsOf: String(value, radix: 16).unicodeScalars)
        out.append("}")
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// A parameter value as the explanation shows it: numbers as they are, strings quoted,
  /// arrays in brackets.
  public static func show(_ value: ParamValue) -> String {
    switch value {
    case .string(let text): return quote(text)
    case .int, .float: return value.text ?? ""
    case .strings(let values): return "[" + values.map(quote).joined(separator: ", ") + "]"
    }
  }

  /// Parameters as `name=value` pairs in sorted key order (as `appshell resolve` writes them),
  /// or `none`.
  public static func show(_ params: Parameters) -> String {
    guard !params.isEmpty else { return "none" }
    return params.keys.sorted().map { inert($0) + "=" + show(params[$0]!) }
      .joined(separator: ", ")
  }

  /// Which optional groups an expansion of `pattern` has, e.g.
  /// `with (/:query), without (/page/<int:page>)`; empty for a pattern without groups.
  public static func describe(expansion: Int, of pattern: RoutePattern) -> String {
    let groups = groupTexts(pattern)
    guard !groups.isEmpty else { return "" }
    var with: [String] = []
    var without: [String] = []
    for (index, group) in groups.enumerated() {
      if expansion & (1 << index) != 0 {
        with.append(inert(group))
      } else {
        without.append(inert(group))
      }
    }
    var parts: [String] = []
    if !with.isEmpty { parts.append("with " + with.joined(separator: " ")) }
    if !without.isEmpty { parts.append("without " + without.joined(separator: " ")) }
    return parts.joined(separator: ", ")
  }

  /// The optional groups as written, `(` to `)`: parentheses appear in a pattern only as
  /// group delimiters, before the query.
  static func groupTexts(_ pattern: RoutePattern) -> [String] {
    var groups: [String] = []
    var current: String?
    for character in pattern.text {
      if character == "?" && current == nil { break }
      if character == "(" {
        current = "("
      } else if character == ")", let open = current {
        groups.append(open + ")")
        current = nil
      } else if current != nil {
        current!.append(character)
      }
    }
    return groups
  }

  /// Why a route failed, matched but lost, or won, in one line; e.g.
  /// `segment 3: literal "view" vs "edit"` or
  /// `lost to routes[4], rule 1 (priority): 5 beats 0`.
  public func reason(_ candidate: Candidate, in hop: Hop) -> String {
    let pattern = entries[candidate.route].pattern
    let groups = candidate.expansion.map { Self.describe(expansion: $0, of: pattern) } ?? ""
    switch candidate.verdict {
    case .failed(let failure):
      guard !groups.isEmpty else { return failure.description }
      let count = pattern.expansionCount
      return "\(failure) (closest of \(count) expansions: \(groups))"
    case .lost(let winner, let rule):
      let text = "lost to routes[\(winner)], \(rule)"
      return groups.isEmpty ? text : text + "; matched \(groups)"
    case .won:
      let others = hop.candidates.count { $0.rank != nil } - 1
      var text =
        others == 0
        ? "won: the only route that matches"
        : "won over \(others) other matching route\(others == 1 ? "" : "s")"
      if !groups.isEmpty { text += "; matched \(groups)" }
      return text
    }
  }

  /// The word for a verdict: `failed`, `lost` or `WON`.
  public static func word(_ verdict: Verdict) -> String {
    switch verdict {
    case .failed: return "failed"
    case .lost: return "lost"
    case .won: return "WON"
    }
  }

  /// What a target does, e.g. `screen "payment" (push), guard "signed-in"`.
  public static func describe(_ entry: RouteEntry) -> String {
    var text: String
    switch entry.target {
    case .screen(let name):
      text = "screen \(quote(name)) (\(entry.presentation.rawValue))"
    case .action(let name):
      text = "action \(quote(name))"
    case .notification(let name):
      text = "notification \(quote(name))"
    case .redirect(let template):
      text = "redirect to \(quote(template.text))"
    }
    if let guardName = entry.guardName { text += ", guard \(quote(guardName))" }
    if let minVersion = entry.minVersion { text += ", minVersion \(minVersion)" }
    if !entry.external { text += ", internal only" }
    return text
  }

  /// How a URL was read, e.g.
  /// `scheme "myapp"; segments 1 "orders", 2 "42"; query "a"="1"`.
  public static func describe(_ url: RouteURL) -> String {
    var parts: [String] = []
    parts.append(url.scheme.map { "scheme \(quote($0))" } ?? "no scheme")
    if let domain = url.domain { parts.append("domain \(quote(domain))") }
    if url.segments.isEmpty {
      parts.append("no segments")
    } else {
      parts.append(
        "segments "
          + url.segments.enumerated().map { "\($0.offset + 1) \(quote($0.element))" }
          .joined(separator: ", "))
    }
    if url.query.isEmpty {
      parts.append("no query")
    } else {
      parts.append(
        "query " + url.query.map { "\(quote($0.key))=\(quote($0.value))" }.joined(separator: ", "))
    }
    if let fragment = url.fragment {
      parts.append(
        "fragment "
          + (fragment.segments.isEmpty
            ? "with no segments"
            : fragment.segments.enumerated().map { "\($0.offset + 1) \(quote($0.element))" }
              .joined(separator: ", ")))
    }
    return parts.joined(separator: "; ")
  }
}

extension Explanation {
  /// `app` or `external`.
  public var originName: String { origin == .app ? "app" : "external" }

  /// Every hop as JSON: `url`, `read` (`scheme`, `domain`, `segments`, `query`, `fragment` when read, or `error`),
  /// `candidates` (each `route`, `pattern`, `verdict`, `reason`, and `failure` and
  /// `progress`, or `rank`, `kinds` and for a loser `lostTo` and `rule`; `expansion` for a
  /// route with groups), `nearest` (when nothing matched), `winner`, `params`, `renamed` and
  /// `end` (`kind` and its details).
  public var hopsJSON: JSON {
    .array(hops.map(json))
  }

  private func json(_ hop: Hop) -> JSON {
    var members = [JSONMember("url", .string(hop.url))]
    if let url = hop.read {
      members.append(
        JSONMember(
          "read",
          .object(
            [
              JSONMember("scheme", url.scheme.map(JSON.string) ?? .null),
              JSONMember("domain", url.domain.map(JSON.string) ?? .null),
              JSONMember("segments", .array(url.segments.map(JSON.string))),
              JSONMember(
                "query",
                .array(
                  url.query.map {
                    .object([
                      JSONMember("key", .string($0.key)), JSONMember("value", .string($0.value)),
                    ])
                  })),
            ]
              + (url.fragment.map { fragment in
                [
                  JSONMember(
                    "fragment",
                    .object([
                      JSONMember("segments", .array(fragment.segments.map(JSON.string))),
                      JSONMember(
                        "items",
                        .array(
                          fragment.items.map {
                            .object([
                              JSONMember("key", .string($0.key)),
                              JSONMember("value", .string($0.value)),
                            ])
                          })),
                    ]))
                ]
              } ?? []))))
    }
    members.append(JSONMember("candidates", .array(hop.candidates.map { json($0, hop) })))
    if hop.winner == nil && hop.read != nil {
      members.append(
        JSONMember("nearest", .array(hop.nearest.map { .number(String($0.route)) })))
    }
    if let winner = hop.winner {
      members += [
        JSONMember("winner", .number(String(winner))),
        JSONMember("params", hop.params.json),
        JSONMember("renamed", hop.renamed.json),
      ]
    }
    members.append(JSONMember("end", json(hop.end)))
    return .object(members)
  }

  private func json(_ candidate: Candidate, _ hop: Hop) -> JSON {
    let pattern = entries[candidate.route].pattern
    var members = [
      JSONMember("route", .number(String(candidate.route))),
      JSONMember("pattern", .string(pattern.text)),
      JSONMember("verdict", .string(Self.word(candidate.verdict).lowercased())),
    ]
    if let expansion = candidate.expansion {
      members.append(
        JSONMember("expansion", .string(Self.describe(expansion: expansion, of: pattern))))
    }
    switch candidate.verdict {
    case .failed(let failure):
      members += [
        JSONMember("failure", failure.json),
        JSONMember("progress", .number(String(candidate.progress))),
      ]
    case .lost(let winner, let rule):
      members += [
        JSONMember("rank", .number(String(candidate.rank ?? 0))),
        JSONMember("kinds", .array(candidate.kinds.map { .string($0.description) })),
        JSONMember("lostTo", .number(String(winner))), JSONMember("rule", rule.json),
      ]
    case .won:
      members += [
        JSONMember("rank", .number(String(candidate.rank ?? 0))),
        JSONMember("kinds", .array(candidate.kinds.map { .string($0.description) })),
      ]
    }
    members.append(JSONMember("reason", .string(reason(candidate, in: hop))))
    return .object(members)
  }

  private func json(_ end: End) -> JSON {
    switch end {
    case .invalid(let why):
      return .object([JSONMember("kind", .string("invalid")), JSONMember("error", .string(why))])
    case .unmatched:
      return .object([JSONMember("kind", .string("unmatched"))])
    case .refused(let why):
      return .object([JSONMember("kind", .string("refused")), JSONMember("refused", .string(why))])
    case .target(let target):
      let name: String
      switch target {
      case .screen(let text), .action(let text), .notification(let text): name = text
      case .redirect(let template): name = template.text
      }
      return .object([
        JSONMember("kind", .string("target")), JSONMember(target.field, .string(name)),
      ])
    case .redirect(let next):
      return .object([JSONMember("kind", .string("redirect")), JSONMember("to", .string(next))])
    case .failed(let why, let next):
      var members = [JSONMember("kind", .string("failed")), JSONMember("error", .string(why))]
      if let next { members.append(JSONMember("to", .string(next))) }
      return .object(members)
    }
  }
}
