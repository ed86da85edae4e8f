import JSON
import Links
import Routing
import Shell

/// Which parts of an app a test run exercised: route expansions that won for a URL a test
/// opened (every route along a redirect chain), destinations reached, and link components (AASA
/// components, registered schemes) that decided the delivery of a URL from outside.
package struct Coverage: Sendable {
  /// One measure: what there is, in a fixed order, and which of it was covered.
  package struct Measure: Sendable {
    package var all: [String]
    package var covered: Set<String> = []

    package var coveredCount: Int { all.filter { covered.contains($0) }.count }
    package var notCovered: [String] { all.filter { !covered.contains($0) } }
    /// Covered as a whole percentage, rounded down (100 when there is nothing).
    package var percent: Int { all.isEmpty ? 100 : coveredCount * 100 / all.count }
  }

  package var routes: Measure
  package var destinations: Measure
  package var components: Measure
  private let app: ShellApp

  /// Nothing covered yet, for `app`.
  package init(_ app: ShellApp) {
    self.app = app
    var routes: [String] = []
    var destinations: [String] = []
    for entry in app.table.entries {
      for mask in 0..<entry.pattern.expansionCount { routes.append(Self.name(entry, mask: mask)) }
      switch entry.target {
      case .screen(let name): destinations.append("screen \(name)")
      case .action(let name): destinations.append("action \(name)")
      case .notification(let name): destinations.append("notification \(name)")
      case .redirect: break
      }
    }
    var components: [String] = []
    if let links = app.links {
      components += Set(links.schemes).sorted().map { "scheme \($0)" }
      for host in links.aasa.keys.sorted() {
        let (file, document) = links.aasa[host]!
        for detail in document.details where detail.appIDs.contains(links.appID) {
          if let list = detail.components {
            components += list.map { "\(file) \(detail.member).components[\($0.index)]" }
          } else if let paths = detail.paths {
            components += paths.indices.map { "\(file) \(detail.member).paths[\($0)]" }
          }
        }
      }
    }
    var seen: Set<String> = []
    self.routes = Measure(all: routes)
    self.destinations = Measure(all: destinations.filter { seen.insert($0).inserted })
    self.components = Measure(all: components)
  }

  /// `routes[3] PATTERN`, with the expansion for a pattern with optional groups.
  static func name(_ entry: RouteEntry, mask: Int) -> String {
    "routes[\(entry.index)] " + LinkSurface.expansion(entry, mask: mask, witnesses: []).key
  }

  /// Counts what the URLs of one test's event log exercised.
  package mutating func record(_ log: [LogEntry]) {
    for entry in log {
      if entry.origin.routing == .external, let links = app.links {
        let delivery = links.delivery(of: entry.url)
        if let decidedBy = delivery.decidedBy {
          components.covered.insert(decidedBy.replacingFirst(": ", with: " "))
        } else if delivery.opens == .app, let scheme = LinkScheme.of(entry.url) {
          components.covered.insert("scheme \(scheme)")
        }
      }
      if case .notDelivered = entry.outcome { continue }
      for url in [entry.url] + entry.redirects {
        var bytes = url
        guard let match = bytes.withUTF8({ app.table.router.match(bytes: $0) }) else { continue }
        routes.covered.insert(Self.name(app.table.entries[match.route], mask: match.expansion))
      }
      switch entry.outcome {
      case .pushed(let name), .presented(let name), .alreadyShown(let name):
        destinations.covered.insert("screen \(name)")
      case .handled(let action, _), .started(let action):
        destinations.covered.insert("action \(action)")
      case .notified(let name): destinations.covered.insert("notification \(name)")
      default: break
      }
    }
  }

  /// `coverage: routes 14/17 (82%), ...` and one `  not covered: ...` line per part missed.
  package var lines: [String] {
    func figure(_ name: String, _ measure: Measure) -> String {
      "\(name) \(measure.coveredCount)/\(measure.all.count) (\(measure.percent)%)"
    }
    var lines = [
      "coverage: " + figure("routes", routes) + ", " + figure("destinations", destinations)
        + ", " + figure("link components", components)
    ]
    for measure in [routes, destinations, components] {
      lines += measure.notCovered.map { "  not covered: \($0)" }
    }
    return lines
  }

  /// The JSON form: `routes`, `destinations`, `components`, each with `covered`, `total`,
  /// `percent` and `notCovered`.
  package var json: JSON {
    func measure(_ measure: Measure) -> JSON {
      .object([
        JSONMember("covered", .number(String(measure.coveredCount))),
        JSONMember("total", .number(String(measure.all.count))),
        JSONMember("percent", .number(String(measure.percent))),
        JSONMember("notCovered", .array(measure.notCovered.map(JSON.string))),
      ])
    }
    return .object([
      JSONMember("routes", measure(routes)), JSONMember("destinations", measure(destinations)),
      JSONMember("components", measure(components)),
    ])
  }
}

/// The scheme of a URL, in lowercase, when it has one.
enum LinkScheme {
  static func of(_ url: String) -> String? {
    guard let colon = url.firstIndex(of: ":") else { return nil }
    let scheme = url[..<colon]
    guard let first = scheme.first, first.isLetter else { return nil }
    return scheme.lowercased()
  }
}

extension String {
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let range = firstRange(of: target) else { return self }
    var copy = self
    copy.replaceSubrange(range, with: replacement)
    return copy
  }
}
