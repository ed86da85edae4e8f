import Routing
import Shell

/// How much a finding matters, most first.
package enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
  case breaking, warning, info

  var rank: Int {
    switch self {
    case .breaking: return 0
    case .warning: return 1
    case .info: return 2
    }
  }

  /// Breaking comes first.
  package static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// What a URL does differently in NEW.
package enum FindingKind: String, Sendable, Hashable, CaseIterable {
  case removed, retargeted
  case paramsChanged = "params-changed"
  case refused
  case needsUpgrade = "needs-upgrade"
  case guarded
  case arrivalChanged = "arrival-changed"
  case redirected, added

  /// Its severity.
  package var severity: Severity {
    switch self {
    case .removed, .retargeted, .paramsChanged, .refused, .needsUpgrade: return .breaking
    case .guarded, .arrivalChanged: return .warning
    case .redirected, .added: return .info
    }
  }
}

/// One difference: a URL that, from one origin, does in NEW what the kind says.
package struct Finding: Sendable {
  package var kind: FindingKind
  package var origin: LinkOrigin
  /// The first URL that shows it, and every URL that does.
  package var url: String
  package var urls: [String]
  /// Where it comes from: `routes[3] PATTERN [EXPANSION]` for an OLD (or, for `added`, NEW)
  /// expansion, or `FILE:LINE` for a `--urls` line.
  package var subject: String
  /// The OLD expansion's place (route index, expansion), for ordering; `--urls` lines after.
  package var order: (Int, Int)
  /// What the URL did in OLD and does in NEW (nil for a side it does not apply to).
  package var old: SurfaceOutcome?
  package var new: SurfaceOutcome?
  /// The routes reached, when one was (final route index and pattern).
  package var severity: Severity { kind.severity }
}

/// A URL of `--urls FILE`: its place, for messages.
package struct ListedURL: Sendable, Hashable {
  package var url: String
  /// `FILE:LINE`.
  package var place: String

  package init(url: String, place: String) {
    self.url = url
    self.place = place
  }
}

/// The diff of two versions of an app: every witness URL of OLD and every listed URL,
/// delivered and resolved in both from each origin from which it reached a destination in
/// OLD, and NEW's expansions that OLD never reached.
package struct SurfaceDiff: Sendable {
  package var findings: [Finding]
  /// How many distinct URLs were checked.
  package var urlCount: Int
  /// The test cases (`subject from origin`) JUnit lists, in order, each with its findings.
  package var cases: [(name: String, findings: [Int])]

  package init(old: ShellApp, new: ShellApp, listed: [ListedURL] = []) {
    var findings: [Finding] = []
    var cases: [(String, [Int])] = []
    var checked: Set<String> = []
    let context = old.witnessContext
    // Each witness URL goes with the OLD expansion that wins it (its first route).
    var byExpansion: [Int: [Int: [String]]] = [:]
    var subjects: [Int: [Int: String]] = [:]
    var outcomesOld: [String: [LinkOrigin: SurfaceOutcome]] = [:]
    for entry in old.table.entries {
      for mask in 0..<entry.pattern.expansionCount {
        subjects[entry.index, default: [:]][mask] =
          "routes[\(entry.index)] \(LinkSurface.expansion(entry, mask: mask, witnesses: []).key)"
        for url in Witnesses.urls(entry.pattern, mask: mask, context: context)
        where checked.insert(url).inserted {
          var byOrigin: [LinkOrigin: SurfaceOutcome] = [:]
          var owner: (Int, Int)?
          for origin in LinkOrigin.allCases {
            let outcome = old.surfaceOutcome(of: url, from: origin)
            byOrigin[origin] = outcome
            if owner == nil, let reach = outcome.reach {
              owner = (reach.firstRoute, reach.firstExpansion)
            }
          }
          outcomesOld[url] = byOrigin
          if let owner { byExpansion[owner.0, default: [:]][owner.1, default: []].append(url) }
        }
      }
    }
    func compare(
      _ urls: [String], subject: String, order: (Int, Int),
      oldOutcome: (String, LinkOrigin) -> SurfaceOutcome
    ) {
      for origin in LinkOrigin.allCases {
        var found: [FindingKind: Int] = [:]
        var reachedAny = false
        for url in urls {
          let before = oldOutcome(url, origin)
          guard before.reach != nil else { continue }
          reachedAny = true
          let after = new.surfaceOutcome(of: url, from: origin)
          for kind in Self.classify(before, after, origin: origin, newVersion: new.version) {
            if let index = found[kind] {
              findings[index].urls.append(url)
            } else {
              found[kind] = findings.count
              findings.append(
                Finding(
                  kind: kind, origin: origin, url: url, urls: [url], subject: subject,
                  order: order, old: before, new: after))
            }
          }
        }
        if reachedAny {
          cases.append(("\(subject) from \(origin.rawValue)", found.values.sorted()))
        }
      }
    }
    for entry in old.table.entries {
      for mask in 0..<entry.pattern.expansionCount {
        compare(
          byExpansion[entry.index]?[mask] ?? [], subject: subjects[entry.index]![mask]!,
          order: (entry.index, mask), oldOutcome: { outcomesOld[$0]![$1]! })
      }
    }
    for (position, item) in listed.enumerated() {
      checked.insert(item.url)
      compare(
        [item.url], subject: item.place, order: (Int.max, position),
        oldOutcome: { old.surfaceOutcome(of: $0, from: $1) })
    }
    // NEW expansions none of whose witness URLs reached a destination in OLD.
    let newContext = new.witnessContext
    for entry in new.table.entries {
      for mask in 0..<entry.pattern.expansionCount {
        let urls = Witnesses.urls(entry.pattern, mask: mask, context: newContext)
        let reachedBefore = urls.contains { url in
          if let known = outcomesOld[url] { return known.values.contains { $0.reach != nil } }
          return LinkOrigin.allCases.contains {
            old.surfaceOutcome(of: url, from: $0).reach != nil
          }
        }
        guard !reachedBefore,
          let url = urls.first(where: { new.surfaceOutcome(of: $0, from: .inside).reach != nil })
        else { continue }
        let subject =
          "routes[\(entry.index)] \(LinkSurface.expansion(entry, mask: mask, witnesses: []).key)"
        findings.append(
          Finding(
            kind: .added, origin: .inside, url: url, urls: [url], subject: subject,
            order: (Int.max - 1, entry.index * 256 + mask), old: nil,
            new: new.surfaceOutcome(of: url, from: .inside)))
      }
    }
    // By severity, then OLD route order (stable within).
    let order = findings.indices.sorted { a, b in
      let (x, y) = (findings[a], findings[b])
      if x.severity != y.severity { return x.severity < y.severity }
      if x.order != y.order { return x.order < y.order }
      return a < b
    }
    var position: [Int: Int] = [:]
    for (new, old) in order.enumerated() { position[old] = new }
    self.findings = order.map { findings[$0] }
    self.cases = cases.map { ($0.0, $0.1.map { position[$0]! }) }
    self.urlCount = checked.count
  }

  /// The kinds of difference between what a URL did in OLD (a destination) and does in NEW:
  /// at most one breaking kind, else any of the warnings and `redirected`.
  package static func classify(
    _ old: SurfaceOutcome, _ new: SurfaceOutcome, origin: LinkOrigin, newVersion: AppVersion
  ) -> [FindingKind] {
    guard let before = old.reach else { return [] }
    let after: Reach
    switch new {
    case .unmatched: return [.removed]
    case .refused, .safari, .nothing: return [.refused]
    case .reached(let reach): after = reach
    }
    if let needed = after.minVersion, newVersion < needed,
      before.minVersion.map({ !(newVersion < $0) }) ?? true
    {
      return [.needsUpgrade]
    }
    guard after.sameDestination(before) else { return [.retargeted] }
    guard after.params == before.params else { return [.paramsChanged] }
    var kinds: [FindingKind] = []
    if let guardName = after.guardName, guardName != before.guardName { kinds.append(.guarded) }
    if after.landing(origin) != before.landing(origin) { kinds.append(.arrivalChanged) }
    if !after.redirects.isEmpty, after.redirects != before.redirects { kinds.append(.redirected) }
    return kinds
  }

  /// How many findings of each severity.
  package func count(_ severity: Severity) -> Int {
    findings.filter { $0.severity == severity }.count
  }
}
