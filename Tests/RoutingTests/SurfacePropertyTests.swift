import JSON
import Routing
import Shell
import Surface
import TestSupport
import Testing

/// `links diff` on random tables: a table against itself has no finding, and removing a route
/// reports every witness URL that route won (as `removed` or `retargeted`).
@Suite struct SurfacePropertyTests {
  /// The generated routes as an app: route i opens screen `s<i>` (kept when routes go), so that
  /// a URL that another route takes reaches another destination.
  static func app(_ routes: [(index: Int, route: GeneratedRoute)]) -> ShellApp? {
    let entries = routes.map { item in
      "{\"pattern\":\(JSON.quote(item.route.text)),\"screen\":\"s\(item.index)\","
        + "\"priority\":\(item.route.priority),\"caseSensitive\":\(item.route.caseSensitive)}"
    }
    let text = "{\"routes\":[" + entries.joined(separator: ",") + "]}"
    guard let table = try? RouteTable(json: Array(text.utf8)) else { return nil }
    return ShellApp(table: table, catalog: ScreenCatalog(), tabs: [], version: AppVersion("1")!)
  }

  @Test(arguments: 0..<4)
  func removingARouteReportsEveryURLItWon(shard: Int) {
    var generator = RouteGenerator(random: SeededGenerator(seed: 0x5A2F_ACE0 + UInt64(shard)))
    var random = SeededGenerator(seed: 0xD1FF + UInt64(shard))
    var tables = 0
    var checkedURLs = 0
    for _ in 0..<30 {
      let routes = Array(generator.table().enumerated()).map {
        (index: $0.offset, route: $0.element)
      }
      guard let table = Self.app(routes) else { continue }
      tables += 1
      let same = SurfaceDiff(old: table, new: table)
      #expect(same.findings.isEmpty, "T against T: \(same.findings.map(DiffReport.message))")

      let removed = random.below(routes.count)
      var rest = routes
      rest.remove(at: removed)
      guard let smaller = Self.app(rest) else { continue }
      let entry = table.table.entries[removed]
      var won: Set<String> = []
      for mask in 0..<entry.pattern.expansionCount {
        for url in Witnesses.urls(entry.pattern, mask: mask, context: table.witnessContext) {
          guard let reach = table.surfaceOutcome(of: url, from: .inside).reach,
            reach.firstRoute == removed
          else { continue }
          won.insert(url)
        }
      }
      let diff = SurfaceDiff(old: table, new: smaller)
      var reported: Set<String> = []
      for finding in diff.findings
      where finding.origin == .inside && [.removed, .retargeted].contains(finding.kind) {
        reported.formUnion(finding.urls)
      }
      checkedURLs += won.count
      #expect(
        won.isSubset(of: reported),
        "routes[\(removed)] \(entry.pattern.text): not reported: \(won.subtracting(reported).sorted())"
      )
    }
    #expect(tables > 15)
    #expect(checkedURLs > 25)
  }
}
