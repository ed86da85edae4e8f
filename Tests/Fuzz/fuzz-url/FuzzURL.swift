// libFuzzer target: the URL reader and the matcher (see Tests/Fuzz/run).
//
// Invariants: a URL that reads re-serialises (`RouteURL.text`) to text that reads as the same
// URL and stays within the limits; the trie and the linear oracle rank the same routes in the
// same order with the same parameters; reading from bytes in place answers as from an array.
@testable import Routing

private let router = try! Router(
  [
    "myapp://user/:id", "myapp://user/<int:id>", "myapp://user/me", "myapp://files/*",
    "myapp://search?q=<q>", "myapp://search", "https://shop.example.com/item/<uuid:u>",
    "/local/:x", "/:a/:b/:c", "myapp://p/<float:price>", "myapp://news/:slug(/:page)",
    "myapp://docs/<path:rest>", "/x/y?a=1&b=<int:b>",
  ].enumerated().map { Router.Route(pattern: try! RoutePattern($1), priority: $0 == 12 ? 2 : 0) }
)
private let linear = LinearScan(router.routes)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let read = try? RouteURL(bytes: bytes)
  if let url = read {
    guard url.segments.count <= RouteURL.maxSegments, url.query.count <= RouteURL.maxQueryItems
    else { fatalError("over the limits: \(url)") }
    let again: RouteURL
    do {
      again = try RouteURL(url.text)
    } catch {
      fatalError("\(url.text.debugDescription) does not read: \(error)")
    }
    guard again == url else { fatalError("\(url) re-read from \(url.text) as \(again)") }
    let trie = router.matches(url)
    let oracle = linear.matches(url)
    guard trie == oracle else {
      fatalError("\(url): trie \(String(describing: trie)), linear \(String(describing: oracle))")
    }
  }
  bytes.withUnsafeBufferPointer { buffer in
    let expected = read.flatMap(router.match)
    let fromBytes = router.match(bytes: buffer)
    guard fromBytes == expected, router.decide(bytes: buffer) == expected?.route else {
      fatalError(
        "bytes \(bytes): \(String(describing: fromBytes)) vs \(String(describing: expected))")
    }
  }
  return 0
}
