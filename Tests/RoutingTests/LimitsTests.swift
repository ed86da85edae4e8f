import Testing

@testable import Routing

/// Every input limit of the router refuses what is over it with a message naming the limit,
/// and accepts what is exactly at it.
@Suite struct LimitsTests {
  @Test func urlsUpTo64KiBAreRead() throws {
    let path = "/" + String(repeating: "a", count: RouteURL.maxBytes - 1)
    #expect(try RouteURL(path).segments.first?.utf8.count == RouteURL.maxBytes - 1)
    #expect(throws: URLReadError("URL too long: 65537 bytes (at most 65536)")) {
      try RouteURL(path + "a")
    }
  }

  @Test func segmentsAndQueryItemsAreCounted() throws {
    let segments = Array(repeating: "s", count: RouteURL.maxSegments)
    #expect(try RouteURL("/" + segments.joined(separator: "/")).segments.count == 512)
    #expect(throws: URLReadError("too many path segments (at most 512)")) {
      try RouteURL("/" + (segments + ["s"]).joined(separator: "/"))
    }
    let items = Array(repeating: "k=v", count: RouteURL.maxQueryItems)
    #expect(try RouteURL("/x?" + items.joined(separator: "&")).query.count == 512)
    #expect(throws: URLReadError("too many query items (at most 512)")) {
      try RouteURL("/x?" + (items + ["k"]).joined(separator: "&"))
    }
    // Empty pieces are not items, so they do not count.
    #expect(try RouteURL("/x?" + String(repeating: "&", count: 2000) + "k=v").query.count == 1)
  }

  @Test func aURLOverALimitMatchesNothingAndResolvingSaysWhy() throws {
    let table = try RouteTable(json: #"{"routes":[{"pattern":"/:a","screen":"s"}]}"#)
    let long = "/" + String(repeating: "a", count: RouteURL.maxBytes)
    #expect(Array(long.utf8).withUnsafeBufferPointer { table.router.decide(bytes: $0) } == nil)
    guard case .invalid(let reason) = table.resolve(long).outcome else {
      Issue.record("a URL over the limit resolved")
      return
    }
    #expect(reason.contains("URL too long"))
  }

  @Test func patternsUpTo4KiBCompile() throws {
    let pattern = "/" + String(repeating: "p", count: RoutePattern.maxBytes - 1)
    #expect(try RoutePattern(pattern).segments.count == 1)
    let error = #expect(throws: PatternError.self) { try RoutePattern(pattern + "p") }
    #expect(error?.message == "longer than 4096 bytes")
    #expect(error?.column == 1)
  }

  @Test func tablesAreBoundedInBytesRoutesAndDepth() throws {
    let big = Array(repeating: UInt8(0x20), count: RouteTable.maxBytes + 1)
    #expect(throws: RouteTableError("table too large: 16777217 bytes (at most 16777216)")) {
      try RouteTable(json: big)
    }
    let route = #"{"pattern":"/x","screen":"s"}"#
    let many =
      #"{"routes":["#
      + Array(repeating: route, count: RouteTable.maxRoutes + 1)
      .joined(separator: ",") + "]}"
    #expect(throws: RouteTableError("routes: 200001 routes (at most 200000)")) {
      try RouteTable(json: many)
    }
    let deep =
      #"{"routes":[],"version":"# + String(repeating: "[", count: 20) + "1"
      + String(repeating: "]", count: 20) + "}"
    let error = #expect(throws: RouteTableError.self) { try RouteTable(json: deep) }
    #expect(error?.description.contains("nesting deeper than 16") == true)
  }
}
