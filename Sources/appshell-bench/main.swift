import Foundation
import Routing

// Routing benchmark: matches per second at several table sizes, in one process with a fixed
// seed. Run with `swift run -c release appshell-bench`.

/// SplitMix64: a small fixed-seed generator so every run measures the same tables and URLs.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A table of `count` routes like a real app's (literals, string and typed parameters, a few
/// wildcards and query constraints, two schemes) and URLs that mostly hit them.
func makeWorkload(routes count: Int, urls urlCount: Int, seed: UInt64) -> (
  [Router.Route], [RouteURL]
) {
  var rng = SplitMix64(state: seed)
  var routes: [Router.Route] = []
  var samples: [String] = []
  for index in 0..<count {
    let scheme = index % 3 == 0 ? "shop" : "myapp"
    let section = "s\(index)"
    let pattern: String
    let sample: String
    switch index % 10 {
    case 0, 1, 2, 3:
      pattern = "\(scheme)://\(section)/list"
      sample = "\(scheme)://\(section)/list"
    case 4, 5, 6:
      pattern = "\(scheme)://\(section)/item/:name"
      sample = "\(scheme)://\(section)/item/n\(rng.next() % 1000)"
    case 7:
      pattern = "\(scheme)://\(section)/order/<int:id>"
      sample = "\(scheme)://\(section)/order/\(rng.next() % 100000)"
    case 8:
      pattern = "\(scheme)://\(section)/files/*"
      sample = "\(scheme)://\(section)/files/a/b%20c"
    default:
      pattern = "\(scheme)://\(section)?tab=<int:tab>"
      sample = "\(scheme)://\(section)?tab=\(rng.next() % 9)&ref=x"
    }
    routes.append(Router.Route(pattern: try! RoutePattern(pattern)))
    samples.append(sample)
  }
  var urls: [RouteURL] = []
  for _ in 0..<urlCount {
    let roll = rng.next() % 10
    let text =
      roll == 0 ? "myapp://nowhere/\(rng.next())" : samples[Int(rng.next() % UInt64(count))]
    urls.append(try! RouteURL(text))
  }
  return (routes, urls)
}

func measure(_ router: Router, _ urls: [RouteURL], rounds: Int) -> Double {
  var matched = 0
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<rounds {
    for url in urls where router.match(url) != nil { matched += 1 }
  }
  let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  precondition(matched > 0)
  return Double(rounds * urls.count) / elapsed
}

var results: [(Int, Double)] = []
for size in [10, 1000, 10000] {
  let (routes, urls) = makeWorkload(routes: size, urls: 10000, seed: 42)
  let router = try! Router(routes)
  _ = measure(router, urls, rounds: 1)
  let rate = measure(router, urls, rounds: 20)
  results.append((size, rate))
}
let baseline = results[0].1
print("routes     matches/s      ns/URL   vs 10 routes")
for (size, rate) in results {
  let line = String(
    format: "%6d  %12.0f  %10.1f   %.2fx", size, rate, 1e9 / rate, rate / baseline)
  print(line)
}
