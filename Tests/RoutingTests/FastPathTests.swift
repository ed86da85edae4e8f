import Testing

@testable import Routing

/// ``Router/decide(bytes:)`` and ``Router/match(bytes:)`` read raw bytes in place for ordinary
/// URLs and hand everything else to ``RouteURL``; either way the answer must be the one
/// `RouteURL` + ``Router/match(_:)`` gives (the differential test checks generated URLs; these
/// are the edges of the in-place reader).
@Suite struct FastPathTests {
  static let table: [(String, Int)] = [
    ("myapp://user/:id", 0), ("myapp://user/<int:id>", 0), ("myapp://user/me", 0),
    ("myapp://files/*", 0), ("myapp://search?q=<q>", 0), ("myapp://search", 0),
    ("https://Shop.Example.com/item/<uuid:u>", 0), ("/local/:x", 0), ("/:a/:b/:c", 0),
    ("myapp://p/<float:price>", 0), ("myapp://localhost-thing/x", 0), ("/x/y?a=1&b=<int:b>", 2),
  ]

  static let urls: [String] = [
    "myapp://user/42", "MYAPP://user/42", "myapp://user/me", "myapp://USER/me",
    "myapp://user/a%20b", "myapp://user/a%2Fb", "myapp://user/%2E%2E", "myapp://user/./me",
    "myapp://user/../user/me", "myapp://user/me#frag", "myapp://user/me?#x", "myapp://files/a/b/c",
    "myapp://files", "myapp://files/", "myapp://files//a//", "myapp://search?q=a+b",
    "myapp://search?q=a%2Bb&q=c", "myapp://search?q=", "myapp://search?q", "myapp://search?&&q=x&",
    "myapp://search?q=%", "myapp://search?q=%zz", "myapp://user/%", "myapp://user/%C3%A9",
    "myapp://user/é", "https://shop.example.com/item/123e4567-e89b-12d3-a456-426614174000",
    "https://SHOP.EXAMPLE.COM/item/123E4567-E89B-12D3-A456-426614174000",
    "https://user@shop.example.com/item/123e4567-e89b-12d3-a456-426614174000",
    "https://shop.example.com:8443/item/123e4567-e89b-12d3-a456-426614174000",
    "https://[::1]/item/x", "myapp://localhost/local/1", "myapp://LOCALHOST/local/1",
    "myapp://local/1", "/local/1", "local/1", "/a/b/c", "a:/a/b/c", "myapp://p/1.5",
    "myapp://p/1e5", "myapp://p/1e999", "myapp://p/-.5",
    "myapp://p/" + String(repeating: "9", count: 320),
    "myapp://user/9223372036854775807", "myapp://user/9223372036854775808",
    "myapp://user/-9223372036854775808", "myapp://user/-9223372036854775809", "myapp://user/-0",
    "/x/y?a=1&b=2", "/x/y?b=2&a=1", "/x/y?a=1&b=2&b=3", "/x/y?a=1&b=x", "",
    "?", "#", "myapp:", "myapp://", "myapp:///user/1", "myapp:user/1", "1app://user/1",
    "myapp://user/" + String(repeating: "a", count: 300),
    "/" + Array(repeating: "s", count: 20).joined(separator: "/"),
    "/x/y?" + (0..<20).map { "k\($0)=v" }.joined(separator: "&") + "&a=1&b=2",
    "myapp://user/\u{0}", "myapp://us\u{7f}er/1", "myapp://user/1?q=\u{1b}[31m",
  ]

  @Test func bytesDecideAsTheFullReaderDoes() throws {
    let router = try Router(
      Self.table.map { Router.Route(pattern: try RoutePattern($0.0), priority: $0.1) })
    for text in Self.urls {
      for bytes in [Array(text.utf8), Array(text.utf8) + [0xFF], [0xC3] + Array(text.utf8)] {
        let expected = (try? RouteURL(bytes: bytes)).flatMap(router.match)
        let got = bytes.withUnsafeBufferPointer { router.match(bytes: $0) }
        let decided = bytes.withUnsafeBufferPointer { router.decide(bytes: $0) }
        #expect(got == expected, "\(text.debugDescription)")
        #expect(decided == expected?.route, "\(text.debugDescription)")
      }
    }
  }

  @Test func theInPlaceReaderTakesOrdinaryURLsAndLeavesTheRest() {
    func fast(_ text: String) -> Bool {
      Array(text.utf8).withUnsafeBufferPointer { URLScanner.scan($0) { _ in true } } ?? false
    }
    #expect(fast("myapp://user/42?q=a+b&x=%41"))
    #expect(fast("https://m.example.com/a/b#frag é"))
    #expect(!fast("myapp://user/é"))
    #expect(!fast("myapp://user/%C3%A9"))
    #expect(!fast("myapp://a/../b"))
    #expect(!fast("myapp://u@h/x"))
    #expect(!fast(String(repeating: "a", count: URLScanner.maxBytes + 1)))
  }

  /// The in-place reader finds split points eight bytes at a time; wherever it takes a URL,
  /// its parts must be exactly the full reader's. URLs are drawn from the bytes that matter
  /// (separators, escapes, `+`, `#`) at every offset and length.
  @Test func theInPlaceReaderSplitsAsTheFullReaderDoes() throws {
    // Non-ASCII bytes (é) and scheme bytes too; lengths vary, so every byte of interest falls
    // in a whole word and in the last, partial one.
    let alphabet = Array("ab/?&=%+#2F.:Z-é@[".utf8)
    var state: UInt64 = 0x5EED
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var compared = 0
    for _ in 0..<20_000 {
      // Random hosts too, after `myapp://`.
      let prefixes = [
        "myapp://h/", "/", "x:", "", "Sch+1.-://h.example.com/", "1x:", "myapp://", "my://lo",
      ]
      let prefix = Array(prefixes[next(prefixes.count)].utf8)
      let bytes = prefix + (0..<next(40)).map { _ in alphabet[next(alphabet.count)] }
      let view = bytes.withUnsafeBufferPointer { buffer in
        URLScanner.scan(buffer) { view in
          (
            view.scheme?.string, view.domain?.string, view.segments.map(\.string),
            view.query.map { [$0.key.string, $0.value.string] },
            // The keys made while reading are the keys of the segments read.
            view.segments.indices.allSatisfy { position in
              let made = view.keys![position]
              let key = RouterIndex.SegmentKey(view.segments[position].bytes)
              return made.hash == key.hash && made.word == key.word && made.kind == key.kind
            }
          )
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      let beforeFragment = bytes.prefix { $0 != UInt8(ascii: "#") }
      guard let (scheme, domain, segments, query, keysAgree) = view else { continue }
      // Only ASCII is read in place.
      #expect(beforeFragment.allSatisfy { $0 < 0x80 }, "\(text)")
      let full = try RouteURL(bytes: bytes)
      #expect(scheme?.lowercased() == full.scheme?.lowercased(), "\(text)")
      #expect(domain?.lowercased() == full.domain?.lowercased(), "\(text)")
      #expect(segments == full.segments, "\(text)")
      #expect(query == full.query.map { [$0.key, $0.value] }, "\(text)")
      #expect(keysAgree, "\(text)")
      compared += 1
    }
    #expect(compared > 5_000)
  }

  /// A scheme of up to 7 bytes is checked eight bytes at a time: every byte value at every
  /// place of a scheme must give the full reader's scheme (or no scheme where it gives none),
  /// and the reader must take every URL whose scheme is made of scheme bytes.
  @Test func shortSchemesAreReadAsTheFullReaderDoes() throws {
    let schemeBytes = Set(
      Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.".utf8))
    var compared = 0
    for length in 2...9 {
      for place in 1..<length {
        for byte in UInt8.min...UInt8.max where byte != UInt8(ascii: ":") {
          var scheme = Array("Sc0+-.xyz".utf8.prefix(length))
          scheme[place] = byte
          for rest in ["://h/x", ":/x", ":x"] {
            let bytes = scheme + Array(rest.utf8)
            let read = bytes.withUnsafeBufferPointer { buffer in
              URLScanner.scan(buffer) { view in view.scheme.map { Array($0.bytes) } }
            }
            let valid = scheme.dropFirst().allSatisfy(schemeBytes.contains)
            if valid { #expect(read != nil, "\(bytes)") }
            guard let read else { continue }
            let full = try RouteURL(bytes: bytes)
            #expect(
              read.map { String(decoding: $0, as: UTF8.self).lowercased() }
                == full.scheme?.lowercased(), "\(bytes)")
            #expect((read != nil) == valid, "\(bytes)")
            compared += 1
          }
        }
      }
    }
    #expect(compared > 10_000)
  }

  /// Literal segments of up to 8 bytes are compared as one word, built with overlapping loads.
  @Test func segmentWordsHoldExactlyTheirBytes() {
    let bytes: [UInt8] = Array("abcdefghij".utf8)
    for count in 0...8 {
      var expected: UInt64 = 0
      for offset in 0..<count { expected |= UInt64(bytes[offset]) << UInt64(offset * 8) }
      let word = bytes.withUnsafeBufferPointer {
        RouterIndex.SegmentKey.word(UnsafeBufferPointer(rebasing: $0[0..<count]))
      }
      #expect(word == expected, "\(count) bytes")
    }
  }
}
