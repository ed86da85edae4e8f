import AppRuntime
import AppShellCLI
import Demo
import Foundation
import Routing

// Routing and replay benchmark: `swift run -c release appshell-bench [--quick]`
// (`--engine-only`: only ``EngineBench``'s figures).
//
// One process, fixed seed. For each table size it builds the table, times compiling and
// loading it, checks that the trie and a plain linear scan pick the same route with the same
// parameters for every URL it checks, and only then times: deciding the route from URL bytes,
// the full result with typed parameters, the linear scan, and the floor (one allocation-free
// pass over the same bytes). Ratios are against the floor and the 10-route figure of this run.

let quick = CommandLine.arguments.contains("--quick")

// The shipped demo's Swift screens and actions, as the `appshell` executable registers them.
DemoApp.register()

// `--test-only`: only the `appshell test` benchmark.
if CommandLine.arguments.contains("--test-only") {
  TestBench.report(quick: quick, seed: 0x5EED_2026)
  exit(0)
}

// `--engine-only`: only the regular expression, registration, `String` and streaming figures.
if CommandLine.arguments.contains("--engine-only") {
  EngineBench.report(quick: quick, seed: 0x5EED_2026)
  exit(0)
}

// `--typed-only`: only the typed-routes benchmark (generating the enum, reverse routing).
if CommandLine.arguments.contains("--typed-only") {
  TypedBench.report(quick: quick, seed: 0x5EED_2026)
  exit(0)
}

// `--profile replay KEYS`: only the replay loop.
if let flag = CommandLine.arguments.firstIndex(of: "--profile"),
  CommandLine.arguments.count > flag + 2, CommandLine.arguments[flag + 1] == "replay",
  let count = Int(CommandLine.arguments[flag + 2])
{
  let app = try! AppLoader.loadApp(screens: nil, routes: nil)
  let result = ReplayBench.run(app: app, keys: ReplayBench.keys(count: count, seed: 7))
  print("profile: replay \(count) keys: \(result.keysPerSecond) keys/s")
  exit(0)
}

// `--profile compile SIZE`: compile time and memory per route of one table.
if let flag = CommandLine.arguments.firstIndex(of: "--profile"),
  CommandLine.arguments.count > flag + 2, CommandLine.arguments[flag + 1] == "compile",
  let size = Int(CommandLine.arguments[flag + 2])
{
  let (bytesPerRoute, routes) = memoryPerRoute(of: Workload(routes: size, urls: 0, seed: 7))
  let compile = bestTime(rounds: 5) { consume(try! Router(routes)) }
  print("profile: \(size) routes: compile \(compile / 1e6) ms, \(bytesPerRoute) bytes/route")
  exit(0)
}

// `--profile decide|full SIZE URLS [regex]`: only that loop, for `valgrind --tool=callgrind` or
// perf; with `regex`, over the table with 10% regular-expression routes.
if let flag = CommandLine.arguments.firstIndex(of: "--profile"),
  CommandLine.arguments.count > flag + 3, let size = Int(CommandLine.arguments[flag + 2]),
  let count = Int(CommandLine.arguments[flag + 3])
{
  // A fifth argument `regex`: the table with 10% regular-expression routes.
  let regexEvery =
    CommandLine.arguments.count > flag + 4 && CommandLine.arguments[flag + 4] == "regex" ? 10 : 0
  let workload = Workload(routes: size, urls: count, seed: 7, regexEvery: regexEvery)
  let router = try! Router(
    workload.patterns.map {
      Router.Route(pattern: try! RoutePattern($0.text), priority: $0.priority)
    })
  var found = 0
  let mode = CommandLine.arguments[flag + 1]
  let corpus = workload.urls
  let start = now()
  for _ in 0..<5 {
    switch mode {
    case "full":
      corpus.eachURL { found &+= router.match(bytes: $0)?.params.count ?? 0 }
    case "decide":
      corpus.eachURL { if router.decide(bytes: $0) != nil { found &+= 1 } }
    case "read":
      corpus.eachURL { if (try? RouteURL(bytes: $0)) != nil { found &+= 1 } }
    default:
      found &+= floorCopies[0](corpus)  // any copy: they run the same instructions
    }
  }
  let perURL = Double(now() - start) / Double(5 * count)
  print("profile: \(CommandLine.arguments[flag + 1]) \(size) routes: \(found), \(perURL) ns/URL")
  exit(0)
}
// `--sizes 10,10000`: only those table sizes (10 is always included: ratios are against it).
let chosenSizes = CommandLine.arguments.firstIndex(of: "--sizes").flatMap { flag in
  CommandLine.arguments.count > flag + 1
    ? CommandLine.arguments[flag + 1].split(separator: ",").compactMap { Int($0) } : nil
}
let sizes =
  chosenSizes.map { Array(Set([10] + $0)).sorted() }
  ?? (quick ? [10, 100] : [10, 100, 1000, 10_000, 100_000])
let urlCount = quick ? 20_000 : 1_000_000
let replayKeys = quick ? 2_000 : 200_000
let seed: UInt64 = 0x5EED_2026

struct SizeResult {
  var routes: Int
  var compileMs: Double
  var loadMs: Double
  var decideNs: Double
  var fullNs: Double
  var linearDecideNs: Double
  var linearFullNs: Double
  var floorNs: Double
  var checked: Int
  var matched: Int
  /// The median over rounds of each loop's time against the floor's in the same round
  /// (decide, full): what a typical round shows, where the best-of-rounds figures show the
  /// least disturbed one.
  var medianRatios: [Double]
  /// Each copy of the floor's loop at its best round, ns per URL.
  var floorCopiesNs: [Double]

  /// URLs per second: decide, full, linear decide, linear full.
  var perSecond: [Double] { [decideNs, fullNs, linearDecideNs, linearFullNs].map { 1e9 / $0 } }
}

/// The middle value (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

func checkAgreement(_ router: Router, _ linear: LinearScan, _ corpus: URLCorpus, count: Int)
  -> String?
{
  for index in 0..<count {
    let bytes = corpus.url(index)
    let fast = bytes.withUnsafeBufferPointer { router.match(bytes: $0) }
    let decided = bytes.withUnsafeBufferPointer { router.decide(bytes: $0) }
    let url = try? RouteURL(bytes: bytes)
    let slow = url.flatMap { linear.match($0) }
    if fast?.route != slow?.route || decided != slow?.route || fast?.params != slow?.params {
      return
        "URL \(index) \(String(decoding: bytes, as: UTF8.self)): trie \(String(describing: fast)), decide \(String(describing: decided)), linear \(String(describing: slow))"
    }
  }
  return nil
}

// Memory per route, measured first, while the heap is fresh: resident size before and after
// compiling the largest table's patterns and building its router (freed scratch memory is
// handed back to the system first, so only what the router keeps counts).
let bytesPerRoute = memoryPerRoute(of: Workload(routes: sizes.last!, urls: 0, seed: seed)).0

var results: [SizeResult] = []
for size in sizes {
  let workload = Workload(routes: size, urls: urlCount, seed: seed &+ UInt64(size))
  let routes = workload.patterns.map {
    Router.Route(pattern: try! RoutePattern($0.text), priority: $0.priority)
  }
  let compileRounds = size >= 100_000 ? 3 : 10
  var router = try! Router(routes)
  let compile = bestTime(rounds: compileRounds) { router = try! Router(routes) }
  let json = Array(workload.json.utf8)
  let load = bestTime(rounds: compileRounds) { consume(try! RouteTable(json: json)) }
  let linear = LinearScan(routes)
  let corpus = workload.urls
  // Agreement first: every URL the linear scan is timed on, and more where it is affordable.
  let linearCount = min(corpus.count, max(100, 3_000_000 / size))
  let checkCount = min(corpus.count, max(linearCount, 100_000_000 / size))
  if let problem = checkAgreement(router, linear, corpus, count: checkCount) {
    print("appshell-bench: the trie and the linear scan disagree at \(size) routes: \(problem)")
    print("appshell-bench: refusing to report figures")
    exit(1)
  }
  // The router's loops and the floor (the fastest copy of its loop, ``floorTimes(_:)``) take
  // turns, round after round, and each keeps its best round: a disturbance of this noisy VM
  // then hits them alike instead of skewing one ratio. Each round's ratios to that round's
  // floor are kept too, for their median.
  var matched = 0
  var rounds = [[Double]](repeating: [], count: 3)
  let loops: [() -> Void] = [
    {
      var found = 0
      corpus.eachURL { if router.decide(bytes: $0) != nil { found &+= 1 } }
      matched = found
    },
    {
      var parameters = 0
      corpus.eachURL { parameters &+= router.match(bytes: $0)?.params.count ?? 0 }
      consume(parameters)
    },
  ]
  var floorCopyBest = [Double](repeating: .infinity, count: floorCopies.count)
  for _ in 0..<(quick ? 2 : 9) {
    let copies = floorTimes(corpus)
    floorCopyBest = zip(floorCopyBest, copies).map { min($0, $1) }
    rounds[0].append(copies.min()!)
    for (position, loop) in loops.enumerated() {
      rounds[position + 1].append(bestTime(rounds: 1, loop))
    }
  }
  let best = rounds.map { $0.min()! }
  let medianRatios = rounds.dropFirst().map { loop in
    median(zip(loop, rounds[0]).map { $0 / $1 })
  }
  let (floor, decide, full) = (best[0], best[1], best[2])
  var linearCorpus = URLCorpus()
  for index in 0..<linearCount {
    linearCorpus.append(String(decoding: corpus.url(index), as: UTF8.self))
  }
  let linearDecide = bestTime(rounds: 2) {
    var found = 0
    linearCorpus.eachURL { bytes in
      if let url = try? RouteURL(bytes: Array(bytes)), linear.decide(url) != nil { found &+= 1 }
    }
    consume(found)
  }
  let linearFull = bestTime(rounds: 2) {
    var parameters = 0
    linearCorpus.eachURL { bytes in
      if let url = try? RouteURL(bytes: Array(bytes)) {
        parameters &+= linear.match(url)?.params.count ?? 0
      }
    }
    consume(parameters)
  }
  let n = Double(corpus.count)
  results.append(
    SizeResult(
      routes: size, compileMs: compile / 1e6, loadMs: load / 1e6, decideNs: decide / n,
      fullNs: full / n,
      linearDecideNs: linearDecide / Double(linearCount),
      linearFullNs: linearFull / Double(linearCount), floorNs: floor / n, checked: checkCount,
      matched: matched, medianRatios: medianRatios,
      floorCopiesNs: floorCopyBest.map { $0 / n }))
}

// A 10,000-route table with 10% regular-expression routes against the plain one, in turns:
// decide and full lookups, each loop's best round.
let regexSize = 10_000
let plainRegexPair = [0, 10].map { every in
  let workload = Workload(routes: regexSize, urls: urlCount, seed: seed, regexEvery: every)
  let router = try! Router(
    workload.patterns.map {
      Router.Route(pattern: try! RoutePattern($0.text), priority: $0.priority)
    })
  return (router, workload.urls)
}
var regexBest = [Double](repeating: .infinity, count: 4)
for _ in 0..<(quick ? 2 : 7) {
  for (position, (router, corpus)) in plainRegexPair.enumerated() {
    regexBest[position] = min(
      regexBest[position],
      bestTime(rounds: 1) {
        var found = 0
        corpus.eachURL { if router.decide(bytes: $0) != nil { found &+= 1 } }
        consume(found)
      })
    regexBest[2 + position] = min(
      regexBest[2 + position],
      bestTime(rounds: 1) {
        var parameters = 0
        corpus.eachURL { parameters &+= router.match(bytes: $0)?.params.count ?? 0 }
        consume(parameters)
      })
  }
}
let regexNs = regexBest.map { $0 / Double(urlCount) }

// Replay: keys per second with an 80x24 frame after every key.
let app = try! AppLoader.loadApp(screens: nil, routes: nil)
let keys = ReplayBench.keys(count: replayKeys, seed: seed)
_ = ReplayBench.run(app: app, keys: Array(keys.prefix(1000)))
let replay = ReplayBench.run(app: app, keys: keys)

// Report.
func format(_ value: Double, _ decimals: Int = 1) -> String {
  String(format: "%.\(decimals)f", value)
}
#if DEBUG
  let buildKind = "DEBUG build (figures are not meaningful)"
#else
  let buildKind = "release build"
#endif
print("appshell-bench: \(urlCount) URLs per size, seed \(seed), \(buildKind)")
print(
  "routes   compile ms  load ms  floor ns  decide ns (/floor)  full ns (/floor)  linear ns  linear/decide  checked"
)
let ten = results.first { $0.routes == 10 }!
for result in results {
  func timed(_ ns: Double, width: Int) -> String {
    (format(ns) + " (" + format(ns / result.floorNs, 2) + "x)").leftPad(width)
  }
  let columns = [
    String(result.routes).padding(toLength: 8, withPad: " ", startingAt: 0),
    format(result.compileMs, 2).leftPad(10), format(result.loadMs, 2).leftPad(8),
    format(result.floorNs).leftPad(9), timed(result.decideNs, width: 19),
    timed(result.fullNs, width: 17), format(result.linearDecideNs, 0).leftPad(10),
    (format(result.linearDecideNs / result.decideNs, 0) + "x").leftPad(14),
    String(result.checked).leftPad(8),
  ]
  print(columns.joined(separator: " "))
}

/// Prints a title, then a line for each size: its route count and `columns` of its figures.
func printPerSize(
  _ title: String, _ results: [SizeResult], _ columns: (SizeResult) -> [String]
) {
  print(title)
  for result in results {
    let routes = String(result.routes).padding(toLength: 8, withPad: " ", startingAt: 0)
    print("  " + routes + columns(result).joined(separator: " "))
  }
}
printPerSize(
  "URLs per second (decide, full, linear decide, linear full):", results
) {
  $0.perSecond.map { format($0, 0).leftPad(10) }
}
printPerSize("floor: each copy of its loop, ns per URL (the floor is the fastest):", results) {
  $0.floorCopiesNs.map { format($0).leftPad(7) }
}
printPerSize(
  "median of the per-round ratios to the floor (decide, full):", results
) {
  $0.medianRatios.map { (format($0, 2) + "x").leftPad(7) }
}
let largest = results.last!
print(
  "\(largest.routes) routes vs 10: decide \(format(largest.decideNs / ten.decideNs, 2))x, full \(format(largest.fullNs / ten.fullNs, 2))x"
)
print(
  "memory: \(format(bytesPerRoute, 0)) bytes per route at \(sizes.last!) routes (resident size)")
print(
  "\(regexSize) routes, 10% with a regular expression, vs none: decide \(format(regexNs[1], 1)) ns vs \(format(regexNs[0], 1)) ns (\(format(regexNs[1] / regexNs[0], 2))x), full \(format(regexNs[3], 1)) ns vs \(format(regexNs[2], 1)) ns (\(format(regexNs[3] / regexNs[2], 2))x)"
)
print(
  "replay: \(format(replay.keysPerSecond, 0)) keys/s with an 80x24 frame after every key (\(keys.count) keys)"
)

var json = "{\"urls\":\(urlCount),\"seed\":\(seed),\"sizes\":["
json += results.map { r in
  "{\"routes\":\(r.routes),\"compile_ms\":\(format(r.compileMs, 3)),\"load_ms\":\(format(r.loadMs, 3)),\"decide_ns\":\(format(r.decideNs)),\"full_ns\":\(format(r.fullNs)),\"floor_ns\":\(format(r.floorNs)),\"linear_decide_ns\":\(format(r.linearDecideNs)),\"linear_full_ns\":\(format(r.linearFullNs)),\"decide_per_floor\":\(format(r.decideNs / r.floorNs, 3)),\"full_per_floor\":\(format(r.fullNs / r.floorNs, 3)),\"linear_per_decide\":\(format(r.linearDecideNs / r.decideNs, 1)),\"floor_copies_ns\":[\(r.floorCopiesNs.map { format($0) }.joined(separator: ","))],\"per_second\":{\(zip(["decide", "full", "linear_decide", "linear_full"], r.perSecond).map { "\"\($0)\":\(format($1, 0))" }.joined(separator: ","))},\"median_round_ratios\":{\"decide\":\(format(r.medianRatios[0], 3)),\"full\":\(format(r.medianRatios[1], 3))},\"agreement_checked\":\(r.checked),\"matched\":\(r.matched)}"
}.joined(separator: ",")
json +=
  "],\"largest_vs_10_decide\":\(format(largest.decideNs / ten.decideNs, 3)),\"largest_vs_10_full\":\(format(largest.fullNs / ten.fullNs, 3)),\"bytes_per_route\":\(format(bytesPerRoute, 0)),\"replay_keys_per_second\":\(format(replay.keysPerSecond, 0)),\"regex_10pct_at_10000\":{\"plain_decide_ns\":\(format(regexNs[0])),\"regex_decide_ns\":\(format(regexNs[1])),\"decide_ratio\":\(format(regexNs[1] / regexNs[0], 3)),\"plain_full_ns\":\(format(regexNs[2])),\"regex_full_ns\":\(format(regexNs[3])),\"full_ratio\":\(format(regexNs[3] / regexNs[2], 3))}}"
print(json)
TestBench.report(quick: quick, seed: seed)
TypedBench.report(quick: quick, seed: seed)

// `links check` beside `resolve --external`, 100,000 URLs streamed through one process each.
let links = LinksBench.run(count: quick ? 10_000 : 100_000)
print(
  "{\"links_check_urls\":\(links.urls),\"links_check_answered\":\(links.answered),\"links_check_ns_per_url\":\(format(links.linksNsPerURL, 0)),\"resolve_external_ns_per_url\":\(format(links.resolveNsPerURL, 0)),\"links_check_vs_resolve\":\(format(links.linksNsPerURL / links.resolveNsPerURL, 2))}"
)

EngineBench.report(quick: quick, seed: seed)

// `links diff` of two 10,000-route tables (one route in a hundred retargeted) and `links dump`
// of the demo.
let surface = SurfaceBench.run(routes: quick ? 1_000 : 10_000, seed: seed, rounds: quick ? 1 : 3)
print(
  "{\"links_diff_routes\":\(surface.routes),\"links_diff_changed_routes\":\(surface.changed),\"links_diff_s\":\(format(surface.diffSeconds, 3)),\"links_diff_witness_urls\":\(surface.urls),\"links_diff_breaking\":\(surface.breaking),\"links_dump_demo_ms\":\(format(surface.dumpMilliseconds, 2))}"
)

extension String {
  func leftPad(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
