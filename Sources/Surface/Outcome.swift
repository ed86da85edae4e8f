import Links
import Routing
import Shell

/// What opening a URL from one origin does: the app reaches a destination, or it does not.
package enum SurfaceOutcome: Sendable, Hashable {
  /// A route (after redirects) was reached.
  case reached(Reach)
  /// No route matches (or following redirects failed: `why` says so).
  case unmatched(String?)
  /// The winning route refuses URLs from outside.
  case refused(String)
  /// iOS opens it in Safari, not in the app.
  case safari(String)
  /// No installed app opens it.
  case nothing(String)

  /// The destination reached, if any.
  package var reach: Reach? {
    if case .reached(let reach) = self { return reach }
    return nil
  }
}

/// A route reached by a URL: the destination, its parameters and how it lands.
package struct Reach: Sendable, Hashable {
  /// The route the URL itself matched, and which of its expansions.
  package var firstRoute: Int
  package var firstExpansion: Int
  /// The final route, after redirects.
  package var route: Int
  /// The final route's pattern as written.
  package var pattern: String
  /// `screen`, `action` or `notification`, and its name.
  package var kind: String
  package var name: String
  /// The parameters after `rename`.
  package var params: Parameters
  /// The URLs redirects produced, in order.
  package var redirects: [String]
  /// Every route along the way, first to final.
  package var chain: [Int]
  /// The final route's `guard`, `minVersion`, `presentation`, `tab`, `arrival`, `parent`.
  package var guardName: String?
  package var minVersion: AppVersion?
  package var presentation: Presentation
  package var tab: String?
  package var arrival: Arrival
  package var parent: String?

  /// Whether `other` is the same destination (target kind and name).
  package func sameDestination(_ other: Reach) -> Bool {
    kind == other.kind && name == other.name
  }

  /// How it lands, compared for `arrival-changed`: `presentation` always; from outside also
  /// `tab`, `arrival` and `parent`.
  func landing(_ origin: LinkOrigin) -> [String?] {
    var fields: [String?] = [presentation.rawValue]
    if origin != .inside { fields += [tab, arrival.rawValue, parent] }
    return fields
  }
}

extension ShellApp {
  /// What opening `url` from `origin` does: iOS's delivery decision for a URL from outside,
  /// then the route table (redirects followed, internal-only routes refused).
  package func surfaceOutcome(of url: String, from origin: LinkOrigin) -> SurfaceOutcome {
    if origin != .inside {
      let delivery = self.delivery(of: url)
      switch delivery.opens {
      case .safari: return .safari(delivery.reason)
      case .nothing: return .nothing(delivery.reason)
      case .app: break
      }
    }
    let resolution = table.resolve(url, from: origin == .inside ? .app : .external)
    switch resolution.outcome {
    case .unmatched: return .unmatched(nil)
    case .invalid(let why), .failed(let why): return .unmatched(why)
    case .refused(let why): return .refused(why)
    case .matched(let entry, let params):
      var chain: [Int] = []
      var first = (route: entry.index, expansion: 0)
      for (position, step) in ([url] + resolution.redirects).enumerated() {
        guard let match = table.router.match(bytes: step) else { continue }
        if position == 0 { first = (match.route, match.expansion) }
        chain.append(match.route)
      }
      let (kind, name): (String, String)
      switch entry.target {
      case .screen(let screen): (kind, name) = ("screen", screen)
      case .action(let action): (kind, name) = ("action", action)
      case .notification(let notification): (kind, name) = ("notification", notification)
      case .redirect(let template): (kind, name) = ("redirect", template.text)
      }
      return .reached(
        Reach(
          firstRoute: first.route, firstExpansion: first.expansion, route: entry.index,
          pattern: entry.pattern.text, kind: kind, name: name, params: params,
          redirects: resolution.redirects, chain: chain, guardName: entry.guardName,
          minVersion: entry.minVersion, presentation: entry.presentation, tab: entry.tab,
          arrival: entry.arrival, parent: entry.parent))
    }
  }

  /// The schemes and hosts a pattern without a scheme or domain is tried with: the schemes
  /// `links` registers (without `links`: the schemes the table's routes name) and each
  /// associated domain (a `*.` domain as each host under it that has an AASA, else as its
  /// `a.` subdomain).
  package var witnessContext: WitnessContext {
    guard let links else {
      let schemes = Set(table.entries.compactMap(\.pattern.scheme)).sorted()
      return WitnessContext(schemes: schemes, hosts: [])
    }
    var hosts: [String] = []
    for domain in links.domains {
      guard domain.hasPrefix("*.") else {
        hosts.append(domain)
        continue
      }
      let served = links.aasa.keys.filter { links.domain(covering: $0) == domain }
      hosts += served.isEmpty ? ["a" + domain.dropFirst()] : served
    }
    return WitnessContext(
      schemes: Array(Set(links.schemes)).sorted(), hosts: Array(Set(hosts)).sorted())
  }
}

extension Router {
  /// The best match for `url` as text, or nil.
  func match(bytes text: String) -> RouteMatch? {
    var text = text
    return text.withUTF8 { match(bytes: $0) }
  }
}
