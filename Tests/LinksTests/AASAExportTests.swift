import Routing
import TestSupport
import Testing

@testable import Links

/// `routes --export aasa` read back with Apple's rules admits what the routes match.
@Suite struct AASAExportTests {
  static let appID = "ABCDE12345.com.example.app"

  static func randomTable(_ generator: inout SeededGenerator) -> RouteTable? {
    var routes: [String] = []
    for _ in 0..<Int.random(in: 1...8, using: &generator) {
      var pattern = "https://shop.example.com"
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        pattern +=
          "/" + ["a", "b", "orders", ":s", "<int:n>", "<uuid:u>"].randomElement(using: &generator)!
      }
      if Int.random(in: 0..<5, using: &generator) == 0 { pattern += "/*" }
      if Int.random(in: 0..<4, using: &generator) == 0 {
        pattern += ["?tab=x", "?id=<int:id>", "?q=:q"].randomElement(using: &generator)!
      }
      let external = Int.random(in: 0..<3, using: &generator) != 0
      routes.append(
        #"{"pattern":"\#(pattern)","screen":"s","external":\#(external)}"#)
    }
    if Bool.random(using: &generator) {
      routes.append(#"{"pattern":"https://other.example.net/a","screen":"s"}"#)
    }
    routes.append(#"{"pattern":"myapp://a","screen":"s"}"#)
    return try? RouteTable(json: #"{"routes":[\#(routes.joined(separator: ","))]}"#)
  }

  @Test func roundTripOverRandomTables() throws {
    var generator = SeededGenerator(seed: 24)
    var checked = 0
    var exact = 0
    var tables = 0
    while tables < 300 {
      guard let table = Self.randomTable(&generator) else { continue }
      tables += 1
      let json = AASAExport.document(table, appID: Self.appID, domains: ["shop.example.com"])
      let document = try AASADocument(json: json)
      // The text form reads back to the same document.
      _ = try AASADocument(bytes: Array(AASAExport.text(json).utf8))
      // URLs of other hosts are not in it: every component is a route of shop.example.com.
      let forShop = AASAExport.document(
        table, appID: Self.appID, domains: ["shop.example.com", "other.example.net"],
        host: "shop.example.com")
      guard case .array(let details)? = forShop["applinks"]?["details"],
        case .array(let components)? = details.first?["components"]
      else {
        Issue.record("no components in \(forShop.serialized)")
        continue
      }
      for component in components {
        guard case .string(let comment)? = component["comment"] else { continue }
        #expect(comment.contains(" https://shop.example.com"), "\(comment)")
      }
      // With literal segments only, it is exact: a path no route has is not admitted.
      let literalOnly = table.entries.allSatisfy { entry in
        entry.pattern.domain != "shop.example.com"
          || !entry.pattern.text.dropFirst("https://".count).contains { "<:*".contains($0) }
      }
      if literalOnly {
        for url in ["https://shop.example.com/zz", "https://shop.example.com/a/zz"] {
          #expect(!document.decide(try LinkURL(url), appID: Self.appID).admitted, "\(url)")
          exact += 1
        }
      }
      // The file is served by shop.example.com: the other hosts' routes are not its business.
      for entry in table.entries where entry.pattern.domain == "shop.example.com" {
        for sample in AASAExport.sampleURLs(entry.pattern) {
          // Only the samples this route opens from inside the app say what it matches.
          guard case .matched(let winner, _) = table.resolve(sample).outcome,
            winner.index == entry.index
          else { continue }
          let decision = document.decide(try LinkURL(sample), appID: Self.appID)
          // Never less than the routes match; an internal-only route's sample is refused,
          // unless its route or the deciding include has a typed segment (`?*` in AASA, which
          // cannot tell a number from other text).
          func typed(_ text: String) -> Bool { text.contains("<int:") || text.contains("<float:") }
          var typedInclude = !entry.external && decision.admitted && typed(entry.pattern.text)
          if decision.admitted, !entry.external, let member = decision.decidedBy,
            let open = member.lastIndex(of: "["),
            let index = Int(member[open...].dropFirst().dropLast()),
            case .array(let details)? = json["applinks"]?["details"],
            case .array(let components)? = details.first?["components"],
            case .string(let comment)? = components[index]["comment"]
          {
            typedInclude = typedInclude || typed(comment)
          }
          #expect(
            decision.admitted == entry.external || typedInclude,
            "\(sample) of \(entry.pattern.text) (external: \(entry.external)) in \(AASAExport.text(json))"
          )
          checked += 1
        }
      }
    }
    #expect(checked > 500)
    #expect(exact > 10)
  }

  /// An export never admits less than the routes match: `int` and `float` take signs and
  /// a leading point.
  @Test func typedSegmentsAdmitEveryValueTheirKindAccepts() throws {
    let table = try RouteTable(
      json: """
        {"routes":[
          {"pattern":"https://shop.example.com/orders/<int:id>","screen":"s"},
          {"pattern":"https://shop.example.com/f/<float:x>","screen":"s"}
        ]}
        """)
    let document = try AASADocument(
      json: AASAExport.document(table, appID: Self.appID, domains: ["shop.example.com"]))
    for url in [
      "https://shop.example.com/orders/-5", "https://shop.example.com/orders/12",
      "https://shop.example.com/f/.5", "https://shop.example.com/f/-1.5",
    ] {
      #expect(table.resolve(url, from: .external).isMatched, "\(url)")
      #expect(document.decide(try LinkURL(url), appID: Self.appID).admitted, "\(url)")
    }
  }

  @Test func internalRoutesAreExcludedFirst() throws {
    let table = try RouteTable(
      json: """
        {"routes":[
          {"pattern":"https://shop.example.com/orders/<int:id>","screen":"s"},
          {"pattern":"https://shop.example.com/admin/*","screen":"s","external":false},
          {"pattern":"https://shop.example.com/:page","screen":"s"}
        ]}
        """)
    let json = AASAExport.document(table, appID: Self.appID, domains: ["shop.example.com"])
    #expect(
      AASAExport.text(json) == """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.app"],
                "components": [
                  {"/":"/admin","percentEncoded":false,"exclude":true,"comment":"routes[1] https://shop.example.com/admin/*"},
                  {"/":"/admin/?*","percentEncoded":false,"exclude":true,"comment":"routes[1] https://shop.example.com/admin/*"},
                  {"/":"/orders/?*","percentEncoded":false,"comment":"routes[0] https://shop.example.com/orders/<int:id>"},
                  {"/":"/?*","percentEncoded":false,"comment":"routes[2] https://shop.example.com/:page"}
                ]
              }
            ]
          }
        }

        """)
  }

  @Test func outsideRouteAnExcludeWouldHideComesFirst() throws {
    let table = try RouteTable(
      json: """
        {"routes":[
          {"pattern":"https://shop.example.com/a/:x","screen":"s","external":false},
          {"pattern":"https://shop.example.com/a/b","screen":"s"}
        ]}
        """)
    let document = try AASADocument(
      json: AASAExport.document(table, appID: Self.appID, domains: ["shop.example.com"]))
    #expect(
      document.decide(try LinkURL("https://shop.example.com/a/b"), appID: Self.appID).admitted)
    #expect(
      !document.decide(try LinkURL("https://shop.example.com/a/c"), appID: Self.appID).admitted)
  }

  @Test func samplesFillCapturesAndExpandGroups() throws {
    let pattern = try RoutePattern("https://h.example/orders/<int:id>(/:tab)?ref=:ref")
    #expect(
      AASAExport.sampleURLs(pattern) == [
        "https://h.example/orders/1?ref=sample", "https://h.example/orders/1/sample?ref=sample",
      ])
    #expect(AASAExport.sampleURLs(try RoutePattern("/global/:x")) == [])
  }
}
