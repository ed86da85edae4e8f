// The reasons of an explanation in words: why a route failed, and which ranking rule decided.

import JSON
import Routing

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
