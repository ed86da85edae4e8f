import JSON
import Links
import Lint
import Routing

/// The lint checks of an app's `links` (`appshell routes --lint`): routes iOS never hands to
/// the app, AASA components that admit what no route handles or that can never decide, and
/// entries whose `paths` are ignored.
package enum LinksLint {
  /// Every finding for the app's links (none for an app without `links`).
  package static func findings(_ app: ShellApp) -> [LintFinding] {
    guard let links = app.links else { return [] }
    var findings: [LintFinding] = []
    // A pattern without scheme and host matches any URL, so a global route is reached from
    // outside over https on each associated host that has an AASA.
    let hosts = links.aasa.keys.sorted().filter { links.domain(covering: $0) != nil }
    for entry in app.table.entries where entry.external && entry.pattern.scheme == nil {
      let route = "routes[\(entry.index)] \(JSON.quote(entry.pattern.text))"
      for host in hosts {
        let unreachable = AASAExport.sampleURLs(entry.pattern, host: host).first { sample in
          guard case .matched(let winner, _) = app.table.resolve(sample, from: .external).outcome,
            winner.index == entry.index
          else { return false }
          return links.delivery(of: sample).opens != .app
        }
        if let sample = unreachable {
          findings.append(
            LintFinding(
              kind: .unreachable, routes: [entry.index], patterns: [entry.pattern.text],
              message:
                "\(route): iOS opens \(sample) in Safari: \(links.delivery(of: sample).reason)"))
        }
      }
    }
    for entry in app.table.entries where entry.external {
      guard let scheme = entry.pattern.scheme else { continue }
      let route = "routes[\(entry.index)] \(JSON.quote(entry.pattern.text))"
      if scheme != "http", scheme != "https", !links.schemes.contains(scheme) {
        findings.append(
          LintFinding(
            kind: .scheme, routes: [entry.index], patterns: [entry.pattern.text],
            message:
              "\(route) uses the scheme \(scheme):, which the app does not register (links.schemes, Info.plist): nothing opens it from outside"
          ))
      }
      guard scheme == "https", let domain = entry.pattern.domain,
        links.domain(covering: domain) != nil
      else { continue }
      for sample in AASAExport.sampleURLs(entry.pattern) {
        let delivery = links.delivery(of: sample)
        guard delivery.opens != .app else { continue }
        findings.append(
          LintFinding(
            kind: .unreachable, routes: [entry.index], patterns: [entry.pattern.text],
            message: "\(route): iOS opens \(sample) in Safari: \(delivery.reason)"))
        break
      }
    }
    for host in links.aasa.keys.sorted() {
      let (file, document) = links.aasa[host]!
      var earlier: [(member: String, component: AASADocument.Component)] = []
      for detail in document.details where detail.appIDs.contains(links.appID) {
        if detail.components != nil, detail.paths != nil {
          findings.append(
            LintFinding(
              kind: .pathsIgnored,
              message:
                "\(file): \(detail.member) has both paths and components: its paths are ignored"))
        }
        for component in detail.components ?? [] {
          let member = "\(file): \(detail.member).components[\(component.index)]"
          if let shadow = earlier.first(where: { $0.component.covers(component) }) {
            findings.append(
              LintFinding(
                kind: .shadowedComponent,
                message:
                  "\(member) can never decide: \(shadow.member) comes first and matches everything it matches"
              ))
          } else if !component.exclude {
            let examples = component.exampleURLs(host: host)
            let handled = examples.contains { url in
              links.delivery(of: url).opens != .app
                || app.table.resolve(url, from: .external).isMatched
            }
            if !handled, let example = examples.first {
              findings.append(
                LintFinding(
                  kind: .unrouted,
                  message: "\(member) admits URLs no route handles, such as \(example)"))
            }
          }
          earlier.append(("\(file): \(detail.member).components[\(component.index)]", component))
        }
      }
    }
    return findings
  }
}

extension AASADocument.Component {
  /// Whether every URL this component's keys match, `other`'s match too is matched by this
  /// one: for each key this component has, its pattern is `*`, or the other's pattern is
  /// literal text this pattern matches, or this pattern is a literal prefix then `*` that the
  /// other's starts with (with the same options).
  func covers(_ other: Self) -> Bool {
    func covers(_ mine: AASAPattern?, _ theirs: AASAPattern?) -> Bool {
      guard let mine else { return true }
      if mine.matchesEverything { return true }
      guard let theirs, options == other.options else { return false }
      let their = theirs.literalPrefix
      if their.isLiteral { return mine.matches(normalized: their.prefix) }
      let own = mine.literalPrefix
      return own.endsWithStar && their.prefix.starts(with: own.prefix)
    }
    guard covers(path, other.path), covers(fragment, other.fragment) else { return false }
    switch (query, other.query) {
    case (nil, _): return true
    case (.whole(let mine)?, .whole(let theirs)?): return covers(mine, theirs)
    case (.whole(let mine)?, _): return mine.matchesEverything
    case (.items(let mine)?, .items(let theirs)?):
      return mine.allSatisfy { item in
        item.pattern.matchesEverything
          || theirs.contains {
            $0.normalizedName == item.normalizedName && covers(item.pattern, $0.pattern)
          }
      }
    case (.items(let mine)?, _): return mine.allSatisfy(\.pattern.matchesEverything)
    }
  }

  /// URLs on `host` this component matches: each `*` as nothing, `1` and `sample` in turn.
  func exampleURLs(host: String) -> [String] {
    ["", "1", "sample"].map { fill in
      func text(_ pattern: AASAPattern?) -> String {
        guard let pattern else { return "" }
        return pattern.example(star: fill)
      }
      var url = "https://\(host)" + (path == nil ? "/" : text(path))
      switch query {
      case .whole(let pattern)?: url += "?" + text(pattern)
      case .items(let items)?:
        url += "?" + items.map { "\($0.name)=\(text($0.pattern))" }.joined(separator: "&")
      case nil: break
      }
      if let fragment { url += "#" + text(fragment) }
      return url
    }
  }
}
