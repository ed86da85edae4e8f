import Foundation
import Testing

@testable import Routing

// Tables of route-table cases: refusals, bad patterns, conflicting and distinct pairs.

struct RouteTableEntryRefusal: Sendable, CustomTestStringConvertible {
  var entry: String
  var prefix: String
  var testDescription: String { entry }

  init(_ entry: String, _ prefix: String) {
    self.entry = entry
    self.prefix = prefix
  }
}

let entryRefusals: [RouteTableEntryRefusal] = [
  // Unknown fields in an entry.
  .init(#"{"pattern": "/a", "screen": "s", "bogus": 1}"#, "routes[2].bogus: "),
  .init(#"{"pattern": "/a", "screen": "s", "Screen": "t"}"#, "routes[2].Screen: "),
  .init(#"{"pattern": "/a", "screen": "s", "priorty": 1}"#, "routes[2].priorty: "),
  // Pattern missing or not a string.
  .init(#"{"screen": "s"}"#, "routes[2].pattern: "),
  .init(#"{"pattern": 5, "screen": "s"}"#, "routes[2].pattern: "),
  .init(#"{"pattern": null, "screen": "s"}"#, "routes[2].pattern: "),
  .init(#"{"pattern": ["/a"], "screen": "s"}"#, "routes[2].pattern: "),
  // No target, two targets, a target of the wrong type.
  .init(#"{"pattern": "/a"}"#, "routes[2]: "),
  .init(#"{"pattern": "/a", "priority": 1}"#, "routes[2]: "),
  .init(#"{"pattern": "/a", "screen": "s", "action": "t"}"#, "routes[2]."),
  .init(#"{"pattern": "/a", "notification": "n", "redirect": "/b"}"#, "routes[2]."),
  .init(#"{"pattern": "/a", "screen": 3}"#, "routes[2].screen: "),
  .init(#"{"pattern": "/a", "action": true}"#, "routes[2].action: "),
  .init(#"{"pattern": "/a", "notification": {}}"#, "routes[2].notification: "),
  .init(#"{"pattern": "/a", "redirect": ["/b"]}"#, "routes[2].redirect: "),
  // priority: an integer.
  .init(#"{"pattern": "/a", "screen": "s", "priority": "5"}"#, "routes[2].priority: "),
  .init(#"{"pattern": "/a", "screen": "s", "priority": 1.5}"#, "routes[2].priority: "),
  .init(#"{"pattern": "/a", "screen": "s", "priority": true}"#, "routes[2].priority: "),
  .init(#"{"pattern": "/a", "screen": "s", "priority": null}"#, "routes[2].priority: "),
  .init(#"{"pattern": "/a", "screen": "s", "priority": [1]}"#, "routes[2].priority: "),
  // presentation: push or present.
  .init(#"{"pattern": "/a", "screen": "s", "presentation": "modal"}"#, "routes[2].presentation: "),
  .init(#"{"pattern": "/a", "screen": "s", "presentation": "Push"}"#, "routes[2].presentation: "),
  .init(#"{"pattern": "/a", "screen": "s", "presentation": 1}"#, "routes[2].presentation: "),
  // external: a boolean.
  .init(#"{"pattern": "/a", "screen": "s", "external": "true"}"#, "routes[2].external: "),
  .init(#"{"pattern": "/a", "screen": "s", "external": 0}"#, "routes[2].external: "),
  .init(#"{"pattern": "/a", "screen": "s", "external": null}"#, "routes[2].external: "),
  // minVersion: decimal numbers joined by `.`.
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": 3}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": ""}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": "1."}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": ".1"}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": "1..2"}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": "v1"}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": "1.a"}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": "-1"}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": "1.2 "}"#, "routes[2].minVersion: "),
  .init(#"{"pattern": "/a", "screen": "s", "minVersion": "1,2"}"#, "routes[2].minVersion: "),
  // parent: a string.
  .init(#"{"pattern": "/a", "screen": "s", "parent": 1}"#, "routes[2].parent: "),
  .init(#"{"pattern": "/a", "screen": "s", "parent": ["/b"]}"#, "routes[2].parent: "),
  .init(#"{"pattern": "/a", "screen": "s", "parent": null}"#, "routes[2].parent: "),
  // guard: a string.
  .init(#"{"pattern": "/a", "screen": "s", "guard": false}"#, "routes[2].guard: "),
  // rename: an object of strings (the values of the nested object are checked too).
  .init(#"{"pattern": "/a", "screen": "s", "rename": "a"}"#, "routes[2].rename: "),
  .init(#"{"pattern": "/a", "screen": "s", "rename": ["a", "b"]}"#, "routes[2].rename: "),
  .init(#"{"pattern": "/a", "screen": "s", "rename": null}"#, "routes[2].rename: "),
  .init(#"{"pattern": "/a/:a", "screen": "s", "rename": {"a": 1}}"#, "routes[2].rename.a: "),
  .init(#"{"pattern": "/a/:a", "screen": "s", "rename": {"a": null}}"#, "routes[2].rename.a: "),
  .init(
    #"{"pattern": "/a/:a", "screen": "s", "rename": {"a": {"b": "c"}}}"#, "routes[2].rename.a: "),
  .init(
    #"{"pattern": "/a/:a", "screen": "s", "rename": {"a": "b", "c": ["d"]}}"#,
    "routes[2].rename.c: "),
  // Not an object at all.
  .init(#""/a""#, "routes[2]: "),
  .init("[]", "routes[2]: "),
  // A typed placeholder in a redirect template (section 6).
  .init(#"{"pattern": "/a/:id", "redirect": "myapp://b/<int:id>"}"#, "routes[2].redirect: "),
  .init(#"{"pattern": "/a/:id", "redirect": "myapp://b?x=<string:id>"}"#, "routes[2].redirect: "),
  .init(#"{"pattern": "/a/:p", "redirect": "myapp://b/<path:p>"}"#, "routes[2].redirect: "),
]

/// A pattern that breaks the grammar, and the column (1-based, in characters) of the problem
/// when the spot is unambiguous.
struct RouteTableBadPattern: Sendable, CustomTestStringConvertible {
  var pattern: String
  var column: Int?
  var testDescription: String { pattern }

  init(_ pattern: String, _ column: Int? = nil) {
    self.pattern = pattern
    self.column = column
  }
}

let badPatterns: [RouteTableBadPattern] = [
  .init("/a/*/*", 6),
  .init("/ü/*/*", 6),
  .init("/a/<path:p>/b(/c)", 4),
  .init("/a(/*)(/b)"),
  .init("/a(/<path:p>)(/b)"),
  .init("/a(/b", 3),
  .init("/a)", 3),
  .init("/a/b)(/c)", 5),
  .init("/a(b)", 3),
  .init("/a()", 3),
  .init("/a(/)", 3),
  .init("/a(/b(/c))"),
  .init("/a(/b)/c", 8),
  .init("/a#b(/c)", 5),
  .init("/a/:x([a-z]+", 6),
  .init("/a/:x(a(?=b))", 8),
  .init("/a/:x([)", 6),
  .init("https://a.*.b.com/x", 11),
  .init("/files/*.json", 8),
  .init("/p#a#b", 5),
  .init("/a/../b", 4),
  .init("/a/./b", 4),
  .init("/a/%2E%2E", 4),
  .init("/a/%zz"),
  .init("/a/%4"),
  .init("/a/%FF"),
  .init("/x/<int:id"),
  .init("/x/<bad:id>"),
  .init("/x/<int:>"),
  .init("/x/<>"),
  .init("/x/:"),
  .init("/x/:1a"),
  .init("/x/:a-b"),
  .init("/x/b<c"),
  .init("/x/b>c"),
  .init("/x/:id/:id"),
  .init("/x/:id?k=<id>"),
  .init("/x?k"),
  .init("/x?k=1&k=2"),
  .init("/x?k="),
  .init("/x?=v"),
  .init("/x?:k=v"),
  .init("/x?k=*"),
  .init("/x?k=<path:p>"),
  .init("/x?k=a(b"),
]

/// Two patterns (at indexes 2 and 5) that no URL can tell apart.
let conflicting: [(String, String)] = [
  // Scheme compares case-insensitively; placeholder names do not count.
  ("MyApp://a/:x", "myapp://a/:y"),
  ("myapp://a/:x", "MYAPP://a/<y>"),
  ("/u/:a", "/u/<b>"),
  ("/u/:a", "/u/<string:c>"),
  ("/u/<int:a>", "u/<int:b>"),
  ("/u/<uuid:a>/<path:p>", "/u/<uuid:b>/<path:q>"),
  ("/u/*", "/u/*"),
  // Domain compares case-insensitively.
  ("https://Example.COM/items/:id", "https://example.com/items/:x"),
  ("myapp://LOCALHOST/a", "myapp://localhost/a"),
  // Literal segments compare after decoding; empty segments are dropped.
  ("/a%20b", "/a b"),
  ("/a//b/", "/a/b"),
  // Query constraints: a set; literal values count (decoded), capture names do not.
  ("/q?k=1", "/q?k=1"),
  ("/q?x=1&y=2", "/q?y=2&x=1"),
  ("/q?k=%41", "/q?k=A"),
  ("/q?k=a+b", "/q?k=a%20b"),
  ("/q?k=:a", "/q?k=<b>"),
  ("/q?k=<int:a>", "/q?k=<int:b>"),
  // Expansions of optional groups take part.
  ("/o(/:a)", "/o/:b"),
  ("/o(/:a)", "/o"),
  ("/o/:a(/p)", "/o/:b/p"),
  ("/o/:a(/p)(/q)", "/o/:b/p/q"),
  ("/o(/:a)", "/o(/:b)"),
  ("/o/:b/p/q", "/o/:a(/p)(/q)"),
  // Same explicit priority.
  (#"/p/:a"#, #"/p/:b"#),
]

/// Pairs that look alike but can be told apart, so the table loads.
let distinct: [(String, String)] = [
  ("myapp://a/:x", "other://a/:x"),
  ("myapp://a/:x", "/a/:x"),
  ("https://a.com/x", "https://b.com/x"),
  ("https://a.com/x", "https://x"),
  ("/u/<int:a>", "/u/:a"),
  ("/u/<float:a>", "/u/<int:a>"),
  ("/u/<uuid:a>", "/u/:a"),
  ("/u/<path:a>", "/u/*"),
  ("/u/:a", "/u/*"),
  ("/u/A", "/u/a"),
  ("/q?k=1", "/q?k=2"),
  ("/q?k=1", "/q?K=1"),
  ("/q?k=1", "/q?k=:a"),
  ("/q?k=<int:a>", "/q?k=:a"),
  ("/q?k=1", "/q"),
  ("/q?k=1", "/q?k=1&j=2"),
  ("/o(/:a)", "/o/:a/:b"),
  ("/o/p(/q)", "/o/q"),
  // Canonically equivalent but different text: `é` and `e` + U+0301.
  ("/caf\u{E9}", "/cafe\u{301}"),
  ("/q?k=caf\u{E9}", "/q?k=cafe\u{301}"),
  ("/q?caf\u{E9}=1", "/q?cafe\u{301}=1"),
  ("https://caf\u{E9}.com/x", "https://cafe\u{301}.com/x"),
]
