import JSON

/// Where a URL comes from: the app itself, or outside (a web page, a push, another app).
public enum Origin: Sendable, Hashable {
  /// Opened from inside the app.
  case app
  /// Arrived from outside; `external: false` routes refuse it.
  case external
}

/// What resolving a URL through a table gave, redirects followed.
public struct Resolution: Sendable {
  /// How it ended.
  public var outcome: Outcome
  /// Each URL produced by following a redirect, in order; empty when none was followed.
  public var redirects: [String]

  /// Makes a resolution.
  package init(outcome: Outcome, redirects: [String]) {
    self.outcome = outcome
    self.redirects = redirects
  }

  /// How resolving a URL ended.
  public enum Outcome: Sendable {
    /// The final route (never a redirect) and its parameters after `rename`.
    case matched(RouteEntry, Parameters)
    /// The URL (or a redirect's URL) could not be read; says why.
    case invalid(String)
    /// No route matches.
    case unmatched
    /// The winning route refuses URLs from outside; says why.
    case refused(String)
    /// Following redirects failed (loop, depth, a placeholder without a value); says why.
    case failed(String)
  }

  /// True when a route matched.
  public var isMatched: Bool {
    if case .matched = outcome { return true }
    return false
  }
}

extension RouteTable {
  /// The most redirects followed in a row before resolving fails.
  public static let maxRedirects = 8

  /// Resolves a URL: matches it, applies `rename`, follows redirects, and refuses an
  /// internal-only route for a URL from outside.
  public func resolve(_ url: String, from origin: Origin = .app) -> Resolution {
    resolve(bytes: Array(url.utf8), from: origin)
  }

  /// Resolves a URL given as raw bytes (which may not be UTF-8).
  public func resolve(bytes: [UInt8], from origin: Origin = .app) -> Resolution {
    var redirects: [String] = []
    var current = bytes
    var seen: Set<[UInt8]> = [bytes]
    while true {
      let found: RouteMatch?
      do {
        found = try current.withUnsafeBufferPointer { bytes throws(URLReadError) in
          try router.match(reading: bytes)
        }
      } catch {
        return Resolution(outcome: .invalid(error.description), redirects: redirects)
      }
      guard let match = found else {
        return Resolution(outcome: .unmatched, redirects: redirects)
      }
      let entry = entries[match.route]
      if origin == .external && !entry.external {
        return Resolution(outcome: .refused(Self.refusal(entry)), redirects: redirects)
      }
      let params = entry.renamed(match.params)
      guard case .redirect(let template) = entry.target else {
        return Resolution(outcome: .matched(entry, params), redirects: redirects)
      }
      let next: String
      do {
        next = try template.fill(params)
      } catch {
        return Resolution(outcome: .failed(error.description), redirects: redirects)
      }
      redirects.append(next)
      let nextBytes = Array(next.utf8)
      guard seen.insert(nextBytes).inserted else {
        return Resolution(outcome: .failed(Self.loop(next)), redirects: redirects)
      }
      guard redirects.count <= Self.maxRedirects else {
        return Resolution(outcome: .failed(Self.tooManyRedirects), redirects: redirects)
      }
      current = nextBytes
    }
  }

  /// Why an internal-only route refuses a URL from outside.
  package static func refusal(_ entry: RouteEntry) -> String {
    "route \(JSON.quote(entry.pattern.text)) can be opened only from inside the app"
  }

  /// Why following a redirect to `next` fails when `next` was reached before.
  package static func loop(_ next: String) -> String {
    "redirect loop: \(JSON.quote(next)) was reached before"
  }

  /// Why following one more redirect fails after ``maxRedirects``.
  package static let tooManyRedirects = "more than \(maxRedirects) redirects in a row"

  /// Whether `url` resolves to a route.
  public func canOpen(_ url: String, from origin: Origin = .app) -> Bool {
    resolve(url, from: origin).isMatched
  }
}
