// The words of an explanation: one reason per verdict, the same in the text and JSON forms,
// with every value quoted inert (no control or invisible format character gets through).

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

extension Explanation.Failure: CustomStringConvertible {
  /// The reason in words, pattern side first: `scheme "myapp" vs "shop"`,
  /// `segment 3: literal "view" vs "edit"`, `segment 2: "abc" is not an int`,
  /// `too few segments: the pattern needs 3, the URL has 2`, `query "id": missing`.
  public var description: String {
    let quote = Explanation.quote
    switch self {
    case .scheme(let pattern, let url):
      return "scheme \(quote(pattern)) vs " + (url.map(quote) ?? "none (the URL is a path only)")
    case .domain(let pattern, let url):
      return "domain \(quote(pattern)) vs " + (url.map(quote) ?? "none (the URL has no domain)")
    case .literal(let segment, let pattern, let url):
      return "segment \(segment): literal \(quote(pattern)) vs \(quote(url))"
    case .type(let segment, let type, let url):
      return "segment \(segment): \(quote(url)) is not \(article(type)) \(type.rawValue)"
    case .tooFewSegments(let needs, let atLeast, let has):
      return
        "too few segments: the pattern needs \(atLeast ? "at least " : "")\(needs), the URL has \(has)"
    case .tooManySegments(let takes, let has):
      return "too many segments: the pattern takes \(takes), the URL has \(has)"
    case .queryMissing(let key):
      return "query \(quote(key)): missing"
    case .queryRepeated(let key, let count):
      return "query \(quote(key)): appears \(count) times (must appear once)"
    case .queryLiteral(let key, let pattern, let url):
      return "query \(quote(key)): literal \(quote(pattern)) vs \(quote(url))"
    case .queryType(let key, let type, let url):
      return "query \(quote(key)): \(quote(url)) is not \(article(type)) \(type.rawValue)"
    case .segment(let segment, let expected, let url):
      return "segment \(segment): \(quote(url)) is not \(expected)"
    case .queryValue(let key, let expected, let url):
      return "query \(quote(key)): \(quote(url)) is not \(expected)"
    case .queryPresent(let key):
      return "query \(quote(key)): present (must be absent)"
    case .fragmentMissing:
      return "fragment: the URL has none"
    case .fragment(let inner):
      return "fragment: \(inner)"
    }
  }

  private func article(_ type: CaptureType) -> String {
    type == .int || type == .uuid ? "an" : "a"
  }

  /// The reason as JSON: `kind` (`scheme`, `domain`, `literal`, `type`, `too-few-segments`,
  /// `too-many-segments`, `query-missing`, `query-repeated`, `query-literal`, `query-type`,
  /// `segment`, `query-value`, `query-present`, `fragment-missing`, `fragment`) and its
  /// details.
  public var json: JSON {
    func text(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
    func number(_ value: Int) -> JSON { .number(String(value)) }
    switch self {
    case .scheme(let pattern, let url):
      return .object([
        JSONMember("kind", .string("scheme")), JSONMember("pattern", text(pattern)),
        JSONMember("url", text(url)),
      ])
    case .domain(let pattern, let url):
      return .object([
        JSONMember("kind", .string("domain")), JSONMember("pattern", text(pattern)),
        JSONMember("url", text(url)),
      ])
    case .literal(let segment, let pattern, let url):
      return .object([
        JSONMember("kind", .string("literal")), JSONMember("segment", number(segment)),
        JSONMember("pattern", text(pattern)), JSONMember("url", text(url)),
      ])
    case .type(let segment, let type, let url):
      return .object([
        JSONMember("kind", .string("type")), JSONMember("segment", number(segment)),
        JSONMember("type", text(type.rawValue)), JSONMember("url", text(url)),
      ])
    case .tooFewSegments(let needs, let atLeast, let has):
      return .object([
        JSONMember("kind", .string("too-few-segments")), JSONMember("needs", number(needs)),
        JSONMember("atLeast", .bool(atLeast)), JSONMember("has", number(has)),
      ])
    case .tooManySegments(let takes, let has):
      return .object([
        JSONMember("kind", .string("too-many-segments")), JSONMember("takes", number(takes)),
        JSONMember("has", number(has)),
      ])
    case .queryMissing(let key):
      return .object([JSONMember("kind", .string("query-missing")), JSONMember("key", text(key))])
    case .queryRepeated(let key, let count):
      return .object([
        JSONMember("kind", .string("query-repeated")), JSONMember("key", text(key)),
        JSONMember("count", number(count)),
      ])
    case .queryLiteral(let key, let pattern, let url):
      return .object([
        JSONMember("kind", .string("query-literal")), JSONMember("key", text(key)),
        JSONMember("pattern", text(pattern)), JSONMember("url", text(url)),
      ])
    case .queryType(let key, let type, let url):
      return .object([
        JSONMember("kind", .string("query-type")), JSONMember("key", text(key)),
        JSONMember("type", text(type.rawValue)), JSONMember("url", text(url)),
      ])
    case .segment(let segment, let expected, let url):
      return .object([
        JSONMember("kind", .string("segment")), JSONMember("segment", number(segment)),
        JSONMember("expected", text(expected)), JSONMember("url", text(url)),
      ])
    case .queryValue(let key, let expected, let url):
      return .object([
        JSONMember("kind", .string("query-value")), JSONMember("key", text(key)),
        JSONMember("expected", text(expected)), JSONMember("url", text(url)),
      ])
    case .queryPresent(let key):
      return .object([JSONMember("kind", .string("query-present")), JSONMember("key", text(key))])
    case .fragmentMissing:
      return .object([JSONMember("kind", .string("fragment-missing"))])
    case .fragment(let inner):
      return .object([JSONMember("kind", .string("fragment")), JSONMember("failure", inner.json)])
    }
  }
}

extension Explanation.RankingRule: CustomStringConvertible {
  /// The rule in words, from the loser's side: `rule 1 (priority): 5 beats 0`,
  /// `rule 4 (specificity): at segment 2, literal beats string`.
  public var description: String {
    switch self {
    case .priority(let loser, let winner):
      return "rule 1 (priority): \(winner) beats \(loser)"
    case .scheme(let scheme):
      return "rule 2 (scheme): it names \(Explanation.quote(scheme)), this route is global"
    case .domain(let domain):
      return "rule 3 (domain): it names \(Explanation.quote(domain)), this route names none"
    case .closerDomain(let winner, let loser):
      return
        "rule 3 (domain): its \(Explanation.quote(winner)) is closer than "
        + Explanation.quote(loser)
    case .fragment:
      return "rule 3a (fragment): it matches the fragment, this route ignores it"
    case .fragmentSpecificity(let segment, let loser, let winner):
      return "rule 4 (specificity): at fragment segment \(segment), \(winner) beats \(loser)"
    case .specificity(let segment, let loser, let winner):
      return "rule 4 (specificity): at segment \(segment), \(winner) beats \(loser)"
    case .trailingRest:
      return "rule 4 (specificity): its pattern has no trailing *, this one's matches nothing"
    case .queryConstraints(let loser, let winner):
      return "rule 5 (query constraints): \(winner) beats \(loser)"
    case .tableOrder:
      return "rule 6 (table order): it is listed first"
    }
  }

  /// The rule's name: `priority`, `scheme`, `domain`, `specificity`, `query-constraints` or
  /// `table-order`.
  public var name: String {
    switch self {
    case .priority: return "priority"
    case .scheme: return "scheme"
    case .domain, .closerDomain: return "domain"
    case .fragment: return "fragment"
    case .specificity, .trailingRest, .fragmentSpecificity: return "specificity"
    case .queryConstraints: return "query-constraints"
    case .tableOrder: return "table-order"
    }
  }

  /// The rule as JSON: `number`, `name` and its details.
  public var json: JSON {
    var members = [
      JSONMember("number", .number(String(number))), JSONMember("name", .string(name)),
    ]
    switch self {
    case .priority(let loser, let winner), .queryConstraints(let loser, let winner):
      members += [
        JSONMember("loser", .number(String(loser))), JSONMember("winner", .number(String(winner))),
      ]
    case .scheme(let scheme):
      members.append(JSONMember("scheme", .string(scheme)))
    case .domain(let domain):
      members.append(JSONMember("domain", .string(domain)))
    case .closerDomain(let winner, let loser):
      members += [JSONMember("winner", .string(winner)), JSONMember("loser", .string(loser))]
    case .fragment:
      break
    case .fragmentSpecificity(let segment, let loser, let winner):
      members += [
        JSONMember("fragmentSegment", .number(String(segment))),
        JSONMember("loser", .string(loser.description)),
        JSONMember("winner", .string(winner.description)),
      ]
    case .specificity(let segment, let loser, let winner):
      members += [
        JSONMember("segment", .number(String(segment))),
        JSONMember("loser", .string(loser.description)),
        JSONMember("winner", .string(winner.description)),
      ]
    case .trailingRest:
      members.append(JSONMember("trailingRest", .bool(true)))
    case .tableOrder:
      break
    }
    return .object(members)
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
