/// Who gets a URL from outside.
package enum LinkOpener: String, Sendable, Hashable {
  /// The app.
  case app
  /// Safari (an `http` link, or an `https` link the app's associated domains do not claim).
  case safari
  /// Nothing: no installed app registers the scheme, or the URL cannot be read.
  case nothing
}

/// The delivery decision for one URL: who opens it, why, and the AASA member that decided.
package struct LinkDelivery: Sendable, Hashable {
  /// Who opens it.
  package var opens: LinkOpener
  /// Why, in a sentence.
  package var reason: String
  /// `FILE: applinks.details[i].components[j]` when an AASA component (or legacy path)
  /// decided; nil otherwise.
  package var decidedBy: String?
  /// With an explanation asked for: every AASA entry and component tried.
  package var trace: [String] = []

  /// Makes a decision.
  package init(opens: LinkOpener, reason: String, decidedBy: String? = nil, trace: [String] = []) {
    self.opens = opens
    self.reason = reason
    self.decidedBy = decidedBy
    self.trace = trace
  }
}

/// An app's `links`, with its files read: the app ID, the schemes it registers, its
/// associated domains and the AASA each host serves. Pure: ``delivery(of:explain:)`` decides.
package struct LinkPolicy: Sendable {
  /// `TEAMID.bundle-id`.
  package var appID: String
  /// The registered schemes, in lowercase.
  package var schemes: [String]
  /// The `applinks:` hosts, in lowercase (`*.example.org` for any subdomain).
  package var domains: [String]
  /// Host (lowercase) -> the file it serves (as named in `app.json`) and its document.
  package var aasa: [String: (file: String, document: AASADocument)]

  /// Makes a policy.
  package init(
    appID: String, schemes: [String], domains: [String],
    aasa: [String: (file: String, document: AASADocument)]
  ) {
    self.appID = appID
    self.schemes = schemes.map { $0.lowercased() }
    self.domains = domains.map { $0.lowercased() }
    var lowered: [String: (file: String, document: AASADocument)] = [:]
    for (host, value) in aasa { lowered[host.lowercased()] = value }
    self.aasa = lowered
  }

  /// The associated domain that covers `host` (exact, or `*.` for a subdomain), if any.
  package func domain(covering host: String) -> String? {
    domains.first { domain in
      if domain.hasPrefix("*.") {
        let base = domain.dropFirst(1)
        return host.hasSuffix(base) && host.count > base.count
      }
      return domain == host
    }
  }

  /// Who gets `url` from outside, and why.
  package func delivery(of text: String, explain: Bool = false) -> LinkDelivery {
    let url: LinkURL
    do {
      url = try LinkURL(text)
    } catch {
      return LinkDelivery(opens: .nothing, reason: "cannot read the URL: \(error)")
    }
    switch url.scheme {
    case "http":
      return LinkDelivery(opens: .safari, reason: "http links open in Safari")
    case "https":
      return httpsDelivery(url, explain: explain)
    default:
      guard schemes.contains(url.scheme) else {
        return LinkDelivery(opens: .nothing, reason: "no installed app opens \(url.scheme):")
      }
      return LinkDelivery(opens: .app, reason: "the app registers \(url.scheme):")
    }
  }

  private func httpsDelivery(_ url: LinkURL, explain: Bool) -> LinkDelivery {
    guard let domain = domain(covering: url.host) else {
      return LinkDelivery(
        opens: .safari,
        reason: "no associated domain for \(url.host.isEmpty ? "an empty host" : url.host)")
    }
    guard let (file, document) = aasa[url.host] else {
      return LinkDelivery(
        opens: .safari, reason: "no AASA for \(url.host) (associated domain applinks:\(domain))")
    }
    let decision = document.decide(url, appID: appID, explain: explain)
    let decidedBy = decision.decidedBy.map { "\(file): \($0)" }
    if decision.admitted {
      return LinkDelivery(
        opens: .app, reason: "admitted by \(decidedBy!)", decidedBy: decidedBy,
        trace: decision.trace)
    }
    if let decidedBy {
      return LinkDelivery(
        opens: .safari, reason: "excluded by \(decidedBy)", decidedBy: decidedBy,
        trace: decision.trace)
    }
    return LinkDelivery(
      opens: .safari, reason: "no component of \(file) admits it for \(appID)", decidedBy: nil,
      trace: decision.trace)
  }

  /// The decision for an app without `links`: every URL from outside reaches it.
  package static let everything = LinkDelivery(
    opens: .app, reason: "the app has no links configuration: every URL reaches it")
}
