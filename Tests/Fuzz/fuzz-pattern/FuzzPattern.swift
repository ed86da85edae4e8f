// libFuzzer target: the pattern compiler (see Tests/Fuzz/run).
//
// Invariants: a pattern either compiles or gives an error naming a column inside the text (a
// REGEX's refusals too: backreferences, lookaround, counts above 1000...);
// a compiled pattern's text compiles to the same pattern; a router over it (and a few fixed
// routes), case-sensitive or not, either builds or reports a conflict between real routes,
// and then agrees with the linear oracle on URLs made from the pattern's own literals and
// alternatives, with and without a fragment.
@testable import Routing

private let fixed = ["myapp://user/:id", "/:a/:b", "myapp://files/*", "/x/<int:n>"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPattern(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let pattern: RoutePattern
  do {
    pattern = try RoutePattern(text)
  } catch {
    guard error.column >= 1, error.column <= text.count + 1 else {
      fatalError("\(text.debugDescription): column \(error.column) outside the text: \(error)")
    }
    return 0
  }
  guard let again = try? RoutePattern(pattern.text), again == pattern else {
    fatalError("\(text.debugDescription) does not compile the same from \(pattern.text)")
  }
  let folded = try! RoutePattern(text, caseSensitive: false)
  for first in [pattern, folded] { check(text, first) }
  return 0
}

/// A value for a REGEX made of its own letters and digits, repeated so that a matcher that
/// backtracks would take long; it must answer the same as a String and as bytes. The repeated
/// value is up to 2 KiB, shorter for a large automaton, whose every scalar costs a step per
/// state (a debug build with the address sanitizer would otherwise hit the fuzzer's timeout).
private func regexValue(_ regex: RouteRegex) -> String {
  let scalars = regex.source.unicodeScalars.filter { $0.properties.isAlphabetic || $0 == "1" }
  let value = String(String.UnicodeScalarView(scalars)) + "1"
  let length = min(2048, max(16, 200_000 / regex.stateCount))
  let long = String(repeating: value, count: length / value.utf8.count + 1)
  let fromBytes = Array(long.utf8).withUnsafeBufferPointer { regex.matches($0) }
  guard regex.matches(long) == fromBytes else {
    fatalError("\(regex.source.debugDescription) on \(long.debugDescription): String vs bytes")
  }
  return value
}

private func check(_ text: String, _ pattern: RoutePattern) {
  let routes = ([pattern] + fixed.map { try! RoutePattern($0) }).map { Router.Route(pattern: $0) }
  let router: Router
  do {
    router = try Router(routes)
  } catch {
    guard routes.indices.contains(error.route), routes.indices.contains(error.other) else {
      fatalError("\(text.debugDescription): conflict names no route: \(error)")
    }
    return
  }
  let linear = LinearScan(routes)
  // URLs from the pattern's own words, so they often match it.
  let words = pattern.segments.compactMap { segment -> String? in
    switch segment.kind {
    case .literal(let word): return word.uppercased()
    case .oneOf(let alternatives): return alternatives.first
    case .regex(let regex): return regexValue(regex)
    default: return segment.name
    }
  }
  var scheme = pattern.scheme.map { $0 + "://" } ?? "/"
  if let domain = pattern.domain {
    scheme =
      (pattern.scheme ?? "https") + "://"
      + (domain.hasPrefix("*.") ? "a." + domain.dropFirst(2) : domain) + "/"
  }
  for count in 0...min(words.count + 1, 6) {
    let path = (words + ["1", "x"]).prefix(count).joined(separator: "/")
    guard
      let url = try? RouteURL(scheme + path + (count % 2 == 0 ? "#" + path : ""), fragment: true)
    else { continue }
    let trie = router.match(url)
    let oracle = linear.match(url)
    guard trie?.route == oracle?.route, trie?.params == oracle?.params else {
      fatalError(
        "\(text.debugDescription) on \(url): trie \(String(describing: trie)), linear \(String(describing: oracle))"
      )
    }
  }
}
