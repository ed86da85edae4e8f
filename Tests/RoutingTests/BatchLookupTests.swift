import Testing

@testable import Routing

/// ``Router/decide(count:url:_:)`` and ``Router/match(count:url:_:)`` must answer exactly as
/// the single lookups do, for every URL, in order, with and without prefetching.
@Suite struct BatchLookupTests {
  /// Each URL in memory of its own that ends where it ends, as a caller's buffers would.
  private final class URLBuffers {
    private let buffers: [UnsafeMutableBufferPointer<UInt8>]

    init(_ urls: [[UInt8]]) {
      buffers = urls.map { bytes in
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
      }
    }

    deinit {
      for buffer in buffers { buffer.deallocate() }
    }

    /// The URL at `index`.
    func url(_ index: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(buffers[index]) }
  }

  /// Runs both batch calls over `urls` and compares each answer with the single lookups.
  private func expectBatchAgrees(
    _ router: Router, _ urls: [[UInt8]], prefetching: Bool?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    var decided: [(Int, Int?)] = []
    var matched: [(Int, RouteMatch?)] = []
    let buffers = URLBuffers(urls)
    let url = buffers.url
    router.decide(count: urls.count, url: url, prefetching: prefetching) {
      decided.append(($0, $1))
    }
    router.match(count: urls.count, url: url, prefetching: prefetching) {
      matched.append(($0, $1))
    }
    #expect(decided.map(\.0) == Array(urls.indices), sourceLocation: sourceLocation)
    #expect(matched.map(\.0) == Array(urls.indices), sourceLocation: sourceLocation)
    var disagreements: [String] = []
    for (position, bytes) in urls.enumerated()
    where position < decided.count && position < matched.count {
      let single = bytes.withUnsafeBufferPointer { router.match(bytes: $0) }
      let singleRoute = bytes.withUnsafeBufferPointer { router.decide(bytes: $0) }
      if decided[position].1 != singleRoute || matched[position].1 != single {
        disagreements.append(
          "\(String(decoding: bytes, as: UTF8.self).debugDescription): batch \(String(describing: decided[position].1)) \(String(describing: matched[position].1)), single \(String(describing: singleRoute)) \(String(describing: single))"
        )
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))", sourceLocation: sourceLocation)
  }

  @Test(arguments: [nil, true, false] as [Bool?])
  func edgeURLsAnswerAsSingleLookups(prefetching: Bool?) throws {
    let router = try Router(
      FastPathTests.table.map { Router.Route(pattern: try RoutePattern($0.0), priority: $0.1) })
    var urls: [[UInt8]] = []
    for text in FastPathTests.urls {
      urls += [Array(text.utf8), Array(text.utf8) + [0xFF], [0xC3] + Array(text.utf8)]
    }
    #expect(urls.count % RouterIndex.batchWidth != 0, "the last group should be partial")
    expectBatchAgrees(router, urls, prefetching: prefetching)
  }

  /// A batch refills one list of parameters for every match its caller does not keep; a
  /// match the caller keeps must keep its own parameters while later ones are made.
  @Test(arguments: [1, 2, 3, 1_000])
  func keptMatchesKeepTheirParameters(keepEvery: Int) throws {
    let router = try Router(
      FastPathTests.table.map { Router.Route(pattern: try RoutePattern($0.0), priority: $0.1) })
    let texts =
      FastPathTests.urls + [
        "myapp://user/1", "/x/y?a=1&b=2&c=3&d=4&e=5&f=6", "myapp://user/2", "/local/a%20b",
        "myapp://search?q=1&q=2&q=3", "myapp://files/a/b/c/d/e/f",
      ]
    let urls = texts.map { Array($0.utf8) }
    let single = urls.map { bytes in bytes.withUnsafeBufferPointer { router.match(bytes: $0) } }
    var kept: [(Int, RouteMatch?)] = []
    var wrongAtOnce: [Int] = []
    let buffers = URLBuffers(urls)
    let url = buffers.url
    router.match(count: urls.count, url: url) { index, match in
      if match != single[index] { wrongAtOnce.append(index) }
      if index % keepEvery == 0 { kept.append((index, match)) }
    }
    #expect(wrongAtOnce.isEmpty, "\(wrongAtOnce.map { texts[$0] })")
    #expect(kept.count == (urls.count + keepEvery - 1) / keepEvery)
    for (index, match) in kept {
      #expect(match == single[index], "\(texts[index])")
      // `==` ignores the order of parameters; the order must survive too.
      #expect(match?.params.keys == single[index]?.params.keys, "\(texts[index])")
    }
  }

  @Test func noURLsCallNothing() throws {
    let router = try Router([Router.Route(pattern: try RoutePattern("myapp://a"))])
    var calls = 0
    let url = { (_: Int) in UnsafeBufferPointer<UInt8>(start: nil, count: 0) }
    router.decide(count: 0, url: url) { _, _ in calls += 1 }
    router.match(count: 0, url: url) { _, _ in calls += 1 }
    #expect(calls == 0)
  }

  /// A table big enough that batches prefetch on their own, with the shapes the prefetch
  /// pass follows: literals, typed and string children side by side, optional groups,
  /// wildcards, domains, query constraints and global patterns.
  @Test func aBigTablePrefetchesAndAnswersAsSingleLookups() throws {
    var patterns: [String] = []
    for section in 0..<1_500 {
      let base = section % 3 == 0 ? "https://m.example.com/s\(section)" : "myapp://s\(section)"
      patterns += [
        "\(base)/home", "\(base)/user/:id", "\(base)/user/<int:id>", "\(base)/user/me",
        "\(base)/news/:slug(/:page)", "\(base)/files/*", "\(base)/p/<float:price>",
        "\(base)/order?id=<int:id>", "\(base)/token/<uuid:t>", "/s\(section)/g/:x",
      ]
    }
    let router = try Router(patterns.map { Router.Route(pattern: try RoutePattern($0)) })
    #expect(router.indexByteCount >= RouterIndex.prefetchThreshold)
    var urls: [[UInt8]] = []
    for section in stride(from: 0, to: 1_500, by: 7) {
      let base = section % 3 == 0 ? "https://m.example.com/s\(section)" : "myapp://s\(section)"
      for path in [
        "/home", "/user/42", "/user/u42", "/user/me", "/news/a", "/news/a/2", "/files/x/y%2Fz",
        "/p/1.5", "/order?id=7&ref=x", "/order?id=x", "/token/123e4567-e89b-12d3-a456-426614174000",
        "/nothing", "", "/user/a%20b", "/HOME",
      ] {
        urls.append(Array((base + path).utf8))
      }
      urls.append(Array("myapp://s\(section)/g/v".utf8))
      urls.append(Array("shop://s\(section)/g/v".utf8))
    }
    expectBatchAgrees(router, urls, prefetching: nil)
    expectBatchAgrees(router, urls, prefetching: false)
  }
}
