import JSON
import RouteCodegen
import Routing

/// Typed routes: generating the Swift enum for a table, and reverse routing
/// (`RouteTable.url(for:parameters:)`) per call beside `resolve` in the same process.
enum TypedBench {
  struct Result {
    var routes: Int
    var generateMs: Double
    var urlForNs: Double
    var resolveNs: Double
    var said: Int
    var calls: Int
  }

  /// The workload's table with a screen target per route (three routes share a screen, so a
  /// destination has several routes to try), as a route table.
  static func table(routes count: Int, seed: UInt64) -> (RouteTable, [String]) {
    let workload = Workload(routes: count, urls: 2000, seed: seed)
    let entries = workload.patterns.enumerated().map { index, route in
      "{\"pattern\":\(JSON.quote(route.text)),\"screen\":\"screen-\(index / 3)\","
        + "\"priority\":\(route.priority)}"
    }
    let inspection = try! RouteTable.inspect(
      json: Array(("{\"version\":1,\"routes\":[" + entries.joined(separator: ",") + "]}").utf8))
    let urls = (0..<2000).map { String(decoding: workload.urls.url($0), as: UTF8.self) }
    return (inspection.table, urls)
  }

  static func run(routes count: Int, seed: UInt64, rounds: Int) -> Result {
    let (table, urls) = table(routes: count, seed: seed)
    let generate = bestTime(rounds: rounds) {
      consume(try? SwiftEmitter(tableName: "routes.json").source(for: table))
    }
    // The destinations the URLs reach, with their parameters: what reverse routing is asked.
    var asked: [(RouteTarget, Parameters)] = []
    for url in urls {
      if case .matched(let entry, let params) = table.resolve(url).outcome {
        asked.append((entry.target, params))
      }
    }
    var said = 0
    let urlFor = bestTime(rounds: rounds) {
      said = 0
      for (target, params) in asked where table.url(for: target, parameters: params) != nil {
        said += 1
      }
    }
    let resolve = bestTime(rounds: rounds) {
      for url in urls { consume(table.resolve(url)) }
    }
    return Result(
      routes: count, generateMs: generate / 1e6, urlForNs: urlFor / Double(max(asked.count, 1)),
      resolveNs: resolve / Double(urls.count), said: said, calls: asked.count)
  }

  static func report(quick: Bool, seed: UInt64) {
    let sizes = quick ? [10, 1000] : [10, 10_000]
    let results = sizes.map { run(routes: $0, seed: seed, rounds: quick ? 1 : 5) }
    for r in results {
      print(
        "typed: \(r.routes) routes: generate the enum \(format(r.generateMs, 1)) ms; url(for:) "
          + "\(format(r.urlForNs, 0)) ns per call (\(r.said) of \(r.calls) said), resolve "
          + "\(format(r.resolveNs, 0)) ns per URL (\(format(r.urlForNs / r.resolveNs, 2))x)")
    }
    print(
      "{"
        + results.map { r in
          "\"typed_\(r.routes)\":{\"generate_ms\":\(format(r.generateMs, 3)),\"url_for_ns\":\(format(r.urlForNs, 0)),\"resolve_ns\":\(format(r.resolveNs, 0)),\"url_for_vs_resolve\":\(format(r.urlForNs / r.resolveNs, 2)),\"said\":\(r.said),\"calls\":\(r.calls)}"
        }.joined(separator: ",") + "}")
  }
}
