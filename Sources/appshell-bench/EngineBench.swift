import AppShellCLI
import Foundation
import Routing

/// The regular-expression matcher, registration one route at a time, the `String` entry points
/// and `resolve` streaming, each as a ratio to a baseline timed in the same run.
enum EngineBench {
  /// Prints the figures, then one JSON line with them.
  static func report(quick: Bool, seed: UInt64) {
    var json: [String] = []
    func line(_ text: String, _ member: String) {
      print(text)
      json.append(member)
    }

    // Regular expressions: time per byte at 64 B, 4 KiB and 64 KiB, benign and pathological.
    for (name, source, filler, last) in [
      ("benign", "[a-z0-9_-]+", "a", "b"), ("pathological", "(a+)+b", "a", "c"),
    ] {
      let regex = regexOf(source)
      let perByte = [64, 4096, 65536].map { length -> Double in
        let value = String(repeating: filler, count: length - 1) + last
        let repeats = max(1, (quick ? 1 << 16 : 1 << 22) / length)
        let time = bestTime(rounds: quick ? 2 : 5) {
          var found = 0
          for _ in 0..<repeats where regex.matches(value) { found &+= 1 }
          consume(found)
        }
        return time / Double(repeats * length)
      }
      let growth = perByte[2] / perByte[1]
      line(
        "regex \(name) \(source): ns per byte at 64 B, 4 KiB, 64 KiB: "
          + perByte.map { String(format: "%.2f", $0) }.joined(separator: ", ")
          + String(format: " (64 KiB / 4 KiB: %.2fx)", growth),
        "\"regex_\(name)_ns_per_byte\":[\(perByte.map { String(format: "%.3f", $0) }.joined(separator: ","))],\"regex_\(name)_64k_per_4k\":\(String(format: "%.3f", growth))"
      )
    }

    // Registration: 10,000 routes one by one (then a match, which compiles them) against
    // compiling the same table once; and the cost per route at 10.
    let registerSize = quick ? 1000 : 10_000
    let workload = Workload(routes: registerSize, urls: quick ? 20_000 : 200_000, seed: seed)
    let registerOne = { (patterns: ArraySlice<(text: String, priority: Int)>) -> Double in
      bestTime(rounds: 3) {
        let routes = URLRoutes()
        for pattern in patterns {
          try! routes.register(pattern.text, priority: pattern.priority) { _ in true }
        }
        consume(routes.match("myapp://x"))
      }
    }
    let registered = registerOne(workload.patterns[...])
    let compiledOnce = bestTime(rounds: 3) {
      let router = try! Router(
        workload.patterns.map {
          Router.Route(pattern: try! RoutePattern($0.text), priority: $0.priority)
        })
      consume(router.match("myapp://x"))
    }
    let small = Workload(routes: 10, urls: 0, seed: seed)
    let perRouteAtTen = bestTime(rounds: 200) { consume(registerOne(small.patterns[...])) } / 10
    let perRoute = registered / Double(registerSize)
    line(
      String(
        format:
          "register %d routes one by one: %.1f ms vs compiling once %.1f ms (%.2fx); per route %.1f µs (at 10 routes: %.1f µs)",
        registerSize, registered / 1e6, compiledOnce / 1e6, registered / compiledOnce,
        perRoute / 1e3, perRouteAtTen / 1e3),
      String(
        format:
          "\"register_ms\":%.2f,\"compile_once_ms\":%.2f,\"register_per_compile\":%.3f,\"register_us_per_route\":%.2f,\"register_us_per_route_at_10\":%.2f",
        registered / 1e6, compiledOnce / 1e6, registered / compiledOnce, perRoute / 1e3,
        perRouteAtTen / 1e3))

    // `URLRoutes.match` on Strings against `Router.match(bytes:)` on the same URLs and table.
    let routes = URLRoutes()
    for pattern in workload.patterns {
      try! routes.register(pattern.text, priority: pattern.priority) { _ in true }
    }
    let router = try! Router(
      workload.patterns.map {
        Router.Route(pattern: try! RoutePattern($0.text), priority: $0.priority)
      })
    var strings: [String] = []
    workload.urls.eachURL { strings.append(String(decoding: $0, as: UTF8.self)) }
    var best = [Double.infinity, .infinity]
    for _ in 0..<(quick ? 2 : 5) {
      best[0] = min(
        best[0],
        bestTime(rounds: 1) {
          var found = 0
          for url in strings { found &+= routes.match(url)?.params.count ?? 0 }
          consume(found)
        })
      best[1] = min(
        best[1],
        bestTime(rounds: 1) {
          var found = 0
          workload.urls.eachURL { found &+= router.match(bytes: $0)?.params.count ?? 0 }
          consume(found)
        })
    }
    let count = Double(strings.count)
    line(
      String(
        format: "URLRoutes.match %.1f ns vs Router.match(bytes:) %.1f ns per URL (%.2fx)",
        best[0] / count, best[1] / count, best[0] / best[1]),
      String(
        format:
          "\"urlroutes_match_ns\":%.1f,\"router_match_bytes_ns\":%.1f,\"urlroutes_per_bytes\":%.3f",
        best[0] / count, best[1] / count, best[0] / best[1]))

    // `resolve` streaming (read, route, write the line) against deciding the same URLs.
    for size in [10, quick ? 1000 : 10_000] {
      let table = Workload(routes: size, urls: quick ? 20_000 : 100_000, seed: seed &+ 28)
      let path = NSTemporaryDirectory() + "appshell-bench-\(getpid())-\(size).json"
      FileManager.default.createFile(atPath: path, contents: Data(table.json.utf8))
      defer { try? FileManager.default.removeItem(atPath: path) }
      var input: [UInt8] = []
      table.urls.eachURL {
        input += $0
        input.append(0x0A)
      }
      let router = try! Router(
        table.patterns.map {
          Router.Route(pattern: try! RoutePattern($0.text), priority: $0.priority)
        })
      var times = [Double.infinity, .infinity]
      for _ in 0..<3 {
        times[0] = min(times[0], LinksBench.time(["resolve", "--routes", path], input).0)
        times[1] = min(
          times[1],
          bestTime(rounds: 1) {
            var found = 0
            table.urls.eachURL { if router.decide(bytes: $0) != nil { found &+= 1 } }
            consume(found)
          })
      }
      let urls = Double(table.urls.count)
      line(
        String(
          format: "resolve streaming at %d routes: %.0f ns per URL vs decide %.0f ns (%.1fx)",
          size, times[0] / urls, times[1] / urls, times[0] / times[1]),
        String(
          format: "\"resolve_%d_ns\":%.0f,\"decide_%d_ns\":%.1f,\"resolve_%d_per_decide\":%.2f",
          size, times[0] / urls, size, times[1] / urls, size, times[0] / times[1]))
    }
    print("{" + json.joined(separator: ",") + "}")
  }

  /// The regular expression of `/:x(source)`.
  private static func regexOf(_ source: String) -> RouteRegex {
    guard case .regex(let regex) = try! RoutePattern("/:x(\(source))").segments[0].kind else {
      fatalError("not a regular expression: \(source)")
    }
    return regex
  }
}
