import Routing
import Testing

@testable import Links

/// `routes --export aasa` read back with Apple's rules admits what the routes match.
@Suite struct AASAExportTests {
  static let appID = "ABCDE12345.com.example.app"

  /// A small deterministic generator (SplitMix64).
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static func randomTable(_ generator: inout Generator) -> RouteTable? {
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
    var generator = Generator(state: 24)
    var checked = 0
    var tables = 0
    while tables < 300 {
      guard let table = Self.randomTable(&generator) else { continue }
      tables += 1
      let json = AASAExport.document(table, appID: Self.appID, domains: ["shop.example.com"])
      let document = try AASADocument(json: json)
      // The text form reads back to the same document.
      _ = try AASADocument(bytes: Array(AASAExport.text(json).utf8))
      // The file is served by shop.example.com: the other hosts' routes are not its business.
      for entry in table.entries where entry.pattern.domain == "shop.example.com" {
        for sample in AASAExport.sampleURLs(entry.pattern) {
          // Only the samples this route opens from inside the app say what it matches.
          guard case .matched(let winner, _) = table.resolve(sample).outcome,
            winner.index == entry.index
          else { continue }
          let decision = document.decide(try LinkURL(sample), appID: Self.appID)
          #expect(
            decision.admitted == entry.external,
            "\(sample) of \(entry.pattern.text) (external: \(entry.external)) in \(AASAExport.text(json))"
          )
          checked += 1
        }
      }
    }
    #expect(checked > 500)
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
                  {"/":"/orders/$(digit)*","percentEncoded":false,"comment":"routes[0] https://shop.example.com/orders/<int:id>"},
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
