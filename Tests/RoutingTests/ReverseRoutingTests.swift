import JSON
import TestSupport
import Testing

@testable import Routing

/// `RouteTable.url(for:parameters:scheme:)`, rule by rule (docs/typed-routes.md).
@Suite struct ReverseRoutingTests {
  private func table(_ routes: [(String, String)], extra: String = "") throws -> RouteTable {
    let entries = routes.map { pattern, target in
      "{\"pattern\":\(JSON.quote(pattern)),\(target)\(extra)}"
    }
    return try RouteTable(json: "{\"routes\":[\(entries.joined(separator: ","))]}")
  }

  private func url(
    _ routes: [(String, String)], _ target: RouteTarget, _ parameters: Parameters,
    scheme: String? = nil
  ) throws -> String? {
    let table = try table(routes)
    let url = table.url(for: target, parameters: parameters, scheme: scheme)
    if let url {
      // Whatever it returns resolves back.
      guard case .matched(let entry, let params) = table.resolve(url).outcome else {
        Issue.record("\(url) does not resolve")
        return url
      }
      #expect(entry.target == target)
      for (key, value) in parameters { #expect(params[key].map(value.isSame) == true) }
    }
    return url
  }

  @Test func typedCapturesTakeValuesOfTheirType() throws {
    let routes = [("myapp://orders/<int:id>/<float:w>/<uuid:u>/:s", "\"screen\":\"o\"")]
    let uuid = "123E4567-E89B-12D3-A456-426614174000"
    #expect(
      try url(
        routes, .screen("o"), ["id": .int(42), "w": .float(2.5), "u": .string(uuid), "s": "a b"])
        == "myapp://orders/42/2.5/\(uuid)/a%20b")
    // A number as text, or an int for a float, is the same value.
    #expect(
      try url(routes, .screen("o"), ["id": "42", "w": .int(8), "u": .string(uuid), "s": "x"])
        == "myapp://orders/42/8/\(uuid)/x")
    // A value the capture does not accept: no URL.
    #expect(
      try url(routes, .screen("o"), ["id": "x", "w": .int(8), "u": .string(uuid), "s": "x"]) == nil)
    #expect(
      try url(
        routes, .screen("o"), ["id": .float(1.5), "w": .int(8), "u": .string(uuid), "s": "x"])
        == nil)
    #expect(
      try url(routes, .screen("o"), ["id": .int(1), "w": .int(8), "u": "no", "s": "x"]) == nil)
    // A string segment must be non-empty, and not a dot segment.
    #expect(
      try url(routes, .screen("o"), ["id": .int(1), "w": .int(8), "u": .string(uuid), "s": ""])
        == nil)
    #expect(
      try url(routes, .screen("o"), ["id": .int(1), "w": .int(8), "u": .string(uuid), "s": ".."])
        == nil)
    // A missing parameter.
    #expect(try url(routes, .screen("o"), ["id": .int(1)]) == nil)
  }

  @Test func valueSetsAndRegularExpressions() throws {
    let routes = [
      ("myapp://stats/<day|week:period>/:lang([a-z]{2})", "\"screen\":\"s\"")
    ]
    #expect(
      try url(routes, .screen("s"), ["period": "week", "lang": "en"]) == "myapp://stats/week/en")
    #expect(try url(routes, .screen("s"), ["period": "year", "lang": "en"]) == nil)
    #expect(try url(routes, .screen("s"), ["period": "day", "lang": "eng"]) == nil)
  }

  @Test func wildcardsWriteSegments() throws {
    let routes = [
      ("myapp://files/*", "\"screen\":\"f\""), ("myapp://docs/<path:p>/end", "\"screen\":\"d\""),
    ]
    #expect(
      try url(routes, .screen("f"), ["*": .strings(["a", "b c"])]) == "myapp://files/a/b%20c")
    #expect(try url(routes, .screen("f"), ["*": .strings([])]) == "myapp://files")
    #expect(try url(routes, .screen("d"), ["p": "x/y"]) == "myapp://docs/x/y/end")
    #expect(try url(routes, .screen("d"), ["p": ""]) == nil)
  }

  @Test func optionalGroupsAreWrittenWhenTheirCapturesHaveValues() throws {
    let routes = [("myapp://search(/:query)(/page/<int:page>)", "\"screen\":\"s\"")]
    #expect(try url(routes, .screen("s"), [:]) == "myapp://search")
    #expect(try url(routes, .screen("s"), ["page": .int(2)]) == "myapp://search/page/2")
    #expect(
      try url(routes, .screen("s"), ["query": "tea", "page": .int(2)])
        == "myapp://search/tea/page/2")
  }

  @Test func queryLiteralsCapturesAndExtraParameters() throws {
    let routes = [
      ("navigateApp://action?navigationKey=orderdetail&orderid=:orderid", "\"screen\":\"o\"")
    ]
    #expect(
      try url(routes, .screen("o"), ["orderid": "42"])
        == "navigateApp://action?navigationKey=orderdetail&orderid=42".lowercased(
          with: "navigateapp"))
    // Parameters no capture takes follow as query items, sorted by key.
    #expect(
      try url(routes, .screen("o"), ["orderid": "1", "z": "2", "b": .strings(["x", "y"])])
        == "navigateapp://action?navigationKey=orderdetail&orderid=1&b=x&b=y&z=2")
  }

  @Test func anAbsentKeyCannotBeSaid() throws {
    let routes = [("myapp://feed?!preview", "\"screen\":\"f\"")]
    #expect(try url(routes, .screen("f"), [:]) == "myapp://feed")
    #expect(try url(routes, .screen("f"), ["preview": "1"]) == nil)
    #expect(try url(routes, .screen("f"), ["other": "1"]) == "myapp://feed?other=1")
  }

  @Test func schemesDomainsAndFragments() throws {
    let routes = [
      ("/user/:id", "\"screen\":\"u\""),
      ("https://*.example.com/wiki/:title", "\"screen\":\"w\""),
      ("https://example.com/items/:id#p/:tab", "\"screen\":\"i\""),
      ("myapp://pack#pack_id=:id&!x", "\"screen\":\"p\""),
      ("myapp://:host/x", "\"screen\":\"h\""),
    ]
    // A global route needs a scheme.
    #expect(try url(routes, .screen("u"), ["id": "7"]) == nil)
    #expect(try url(routes, .screen("u"), ["id": "7"], scheme: "myapp") == "myapp://user/7")
    // A `*.` domain cannot be written.
    #expect(try url(routes, .screen("w"), ["title": "Swift"], scheme: "https") == nil)
    #expect(
      try url(routes, .screen("i"), ["id": "3", "tab": "info"])
        == "https://example.com/items/3#p/info")
    #expect(try url(routes, .screen("p"), ["id": "9"]) == "myapp://pack#pack_id=9")
    // A first segment with a `.` is written after an empty host, so it stays a segment.
    #expect(try url(routes, .screen("h"), ["host": "a.b"]) == "myapp:///a.b/x")
    #expect(try url(routes, .screen("h"), ["host": "LocalHost"]) == "myapp:///LocalHost/x")
    #expect(try url(routes, .screen("h"), ["host": "ab"]) == "myapp://ab/x")
  }

  @Test func renamedCapturesTakeTheRenamedParameter() throws {
    let table = try RouteTable(
      json: """
        {"routes":[{"pattern":"myapp://orders/<int:id>","screen":"o","rename":{"id":"orderid"}}]}
        """)
    #expect(table.url(for: .screen("o"), parameters: ["orderid": .int(5)]) == "myapp://orders/5")
    #expect(table.url(for: .screen("o"), parameters: ["id": .int(5)]) == nil)
  }

  @Test func aShadowedCandidateIsSkippedForTheNextRoute() throws {
    let routes = [
      ("myapp://a/:x", "\"screen\":\"s\""),
      ("myapp://a/new", "\"screen\":\"other\""),
      ("myapp://b/:x", "\"screen\":\"s\""),
    ]
    // `myapp://a/new` is another route's: the next route says it.
    #expect(try url(routes, .screen("s"), ["x": "new"]) == "myapp://b/new")
    #expect(try url(routes, .screen("s"), ["x": "old"]) == "myapp://a/old")
    // Redirects are not destinations; a target no route has gives nil.
    #expect(try url(routes, .screen("none"), [:]) == nil)
  }
}

extension String {
  fileprivate func lowercased(with scheme: String) -> String {
    guard let end = range(of: "://") else { return self }
    return scheme + self[end.lowerBound...]
  }
}

/// Over random tables (the differential test's generator) and random parameters: whenever
/// `url(for:)` gives a URL, it resolves back to the destination and the parameters.
@Suite struct ReverseRoutingDifferentialTests {
  @Test func everyURLGivenResolvesBack() throws {
    var routes = RouteGenerator(random: SeededGenerator(seed: 0x8E7E_0000))
    var values = URLGenerator(random: SeededGenerator(seed: 0x8E7E_0001))
    var tried = 0
    var given = 0
    var checked = 0
    while checked < 400 {
      let generated = routes.table()
      let entries = generated.enumerated().map { index, route in
        "{\"pattern\":\(JSON.quote(route.text)),\"screen\":\"s\(index % 2)\","
          + "\"priority\":\(route.priority)"
          + (route.caseSensitive ? "" : ",\"caseSensitive\":false") + "}"
      }
      guard let table = try? RouteTable(json: "{\"routes\":[\(entries.joined(separator: ","))]}")
      else { continue }
      checked += 1
      for route in generated {
        for _ in 0..<8 {
          // Values for the route's captures (fitting or not), some left out, some extra.
          var parameters = Parameters()
          let segments = route.segments + route.groups.flatMap { $0 }
          for segment in segments {
            guard let name = segment.name, !values.random.chance(10) else { continue }
            switch segment.kind {
            case .rest, .path: parameters[name] = .strings(values.segmentValues(for: [segment]))
            default:
              let text = values.value(for: segment.kind)
              if case .capture(.int) = segment.kind, let number = Int64(text) {
                parameters[name] = .int(number)
              } else {
                parameters[name] = .string(text)
              }
            }
          }
          for constraint in route.constraints {
            if let name = constraint.value.name {
              parameters[name] = .string(values.value(for: constraint))
            }
          }
          if values.random.chance(20) { parameters["extra"] = "e x" }
          let target = RouteTarget.screen("s\(values.random.below(2))")
          tried += 1
          guard let url = table.url(for: target, parameters: parameters, scheme: "myapp") else {
            continue
          }
          given += 1
          guard case .matched(let entry, let params) = table.resolve(url).outcome else {
            Issue.record("\(url) for \(parameters) does not resolve")
            continue
          }
          #expect(entry.target == target, "\(url)")
          for (key, value) in parameters {
            #expect(params[key].map(value.isSame) == true, "\(url): \(key) \(value) \(params)")
          }
        }
      }
    }
    print("ReverseRoutingDifferential: \(tried) tries, \(given) URLs given and resolved back")
    #expect(given > tried / 5)
  }
}
