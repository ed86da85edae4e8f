// libFuzzer target: the URL reader and the matcher (see Tests/Fuzz/run).
//
// Invariants: a URL that reads re-serialises (`RouteURL.text`) to text that reads as the same
// URL and stays within the limits; the trie and the linear oracle rank the same routes in the
// same order with the same parameters; reading from bytes in place answers as from an array,
// and as from a String of those bytes.
@testable import Routing

private let router = try! Router(
  [
    "myapp://user/:id", "myapp://user/<int:id>", "myapp://user/me", "myapp://files/*",
    "myapp://search?q=<q>", "myapp://search", "https://shop.example.com/item/<uuid:u>",
    "/local/:x", "/:a/:b/:c", "myapp://p/<float:price>", "myapp://news/:slug(/:page)",
    "myapp://docs/<path:rest>", "/x/y?a=1&b=<int:b>",
    // The kinds that need no trie of their own: value sets, regular expressions, absent keys,
    // fragments, `*.` and scheme-less domains, a wildcard inside the path.
    "myapp://stats/<day|week|month:period>/:site", "/lang/:lang([a-z]{2})",
    "myapp://p/:p?!token", "https://signal.me/#p/:phone", "sgnl://add#pack_id=:id&pack_key=:k",
    "https://*.example.com/wiki/:title", "//shop.example.com/items/:id",
    "/stats/*/:period/:site", "myapp://m#/market/*",
    // Regular expressions of every construct, pathological ones included.
    "/r/:x((a+)+b)", "/r/:x((a|aa)+c)", "/r/:x((x+x+)+y)", "/r/:x((?i)[a-z]{2,4}?\\d*\\s?)",
    "myapp://s/:x(\\/settings\\/(addresses|app-icon|password)\\/.+)",
    "/w/:w(^[^\\d\\W]\\w{0,1000}\\s\\S$)", "/q?k=:k(\\x41\\u00e9.+?|(?:ab){3,})",
    "myapp://f#:f(a??b*?c+?|(x+x+)+y)", "/u/:u([^\\d\\s]{1,3}\\x41.|\\D*?)",
  ].enumerated().map { Router.Route(pattern: try! RoutePattern($1), priority: $0 == 12 ? 2 : 0) }
    + [
      Router.Route(
        pattern: try! RoutePattern("myapp://Settings/<Dark|Light:mode>", caseSensitive: false))
    ]
)
private let linear = LinearScan(router.routes)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURL(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let read = try? RouteURL(bytes: bytes, fragment: router.readsFragment)
  if let url = read {
    guard url.segments.count <= RouteURL.maxSegments, url.query.count <= RouteURL.maxQueryItems
    else { fatalError("over the limits: \(url)") }
    let again: RouteURL
    do {
      again = try RouteURL(url.text, fragment: true)
    } catch {
      fatalError("\(url.text.debugDescription) does not read: \(error)")
    }
    // The text holds the fragment as its reading like a path.
    var expected = url
    if let fragment = expected.fragment {
      expected.fragment?.items = again.fragment?.items ?? []
      guard again.fragment?.segments == fragment.segments else {
        fatalError("\(url) re-read from \(url.text) as \(again)")
      }
    }
    guard again == expected else { fatalError("\(url) re-read from \(url.text) as \(again)") }
    let trie = router.matches(url)
    let oracle = linear.matches(url)
    guard trie == oracle else {
      fatalError("\(url): trie \(String(describing: trie)), linear \(String(describing: oracle))")
    }
  }
  bytes.withUnsafeBufferPointer { buffer in
    let expected = read.flatMap(router.match)
    let fromBytes = router.match(bytes: buffer)
    // A String is read in place, as its UTF-8 bytes are.
    let text = String(decoding: buffer, as: UTF8.self)
    if text.utf8.elementsEqual(buffer), router.match(text) != fromBytes {
      fatalError("string \(text.debugDescription) answers unlike its bytes")
    }
    guard fromBytes == expected, router.decide(bytes: buffer) == expected?.route else {
      fatalError(
        "bytes \(bytes): \(String(describing: fromBytes)) vs \(String(describing: expected))")
    }
  }
  return 0
}
