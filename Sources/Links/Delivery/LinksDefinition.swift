import JSON
import Routing

/// `app.json`'s `links` as written: the app ID, schemes, associated domains, the AASA file of
/// each host, and the optional Info.plist and `.entitlements` files whose entries are added.
package struct LinksDefinition: Sendable, Hashable {
  /// `TEAMID.bundle-id`.
  package var appID: String
  /// The custom schemes the app registers.
  package var schemes: [String] = []
  /// The `applinks:` hosts (other service types dropped).
  package var domains: [String] = []
  /// Host -> AASA file (relative to the app directory), in the order written.
  package var aasa: [(host: String, file: String)] = []
  /// The Info.plist file, if named.
  package var infoPlist: String?
  /// The `.entitlements` file, if named.
  package var entitlements: String?

  /// Makes a definition.
  package init(appID: String) { self.appID = appID }

  package static func == (lhs: LinksDefinition, rhs: LinksDefinition) -> Bool {
    lhs.appID == rhs.appID && lhs.schemes == rhs.schemes && lhs.domains == rhs.domains
      && lhs.aasa.map(\.host) == rhs.aasa.map(\.host)
      && lhs.aasa.map(\.file) == rhs.aasa.map(\.file)
      && lhs.infoPlist == rhs.infoPlist && lhs.entitlements == rhs.entitlements
  }

  package func hash(into hasher: inout Hasher) { hasher.combine(appID) }

  /// The host of an associated-domain entry, or nil when it is another service type
  /// (`webcredentials:`, ...); throws when an `applinks:` host is not usable (a path, a port,
  /// an empty host, `*` anywhere but a leading `*.`).
  package static func applinksHost(_ entry: String) throws(LinkConfigError) -> String? {
    guard entry.hasPrefix("applinks:") else {
      guard entry.contains(":") else {
        throw LinkConfigError("\"\(entry)\" is not SERVICE:HOST, such as applinks:example.com")
      }
      return nil
    }
    var host = String(entry.dropFirst("applinks:".count))
    // `?mode=developer` and the like pick a mode, not a host.
    if let question = host.firstIndex(of: "?") { host = String(host[..<question]) }
    let name = host.hasPrefix("*.") ? String(host.dropFirst(2)) : host
    guard !name.isEmpty else { throw LinkConfigError("\"\(entry)\" has no host") }
    guard !name.contains("/") else { throw LinkConfigError("\"\(entry)\": a host has no path") }
    guard !name.contains(":") else { throw LinkConfigError("\"\(entry)\": a host has no port") }
    guard !name.contains("*") else {
      throw LinkConfigError("\"\(entry)\": `*` only as a leading `*.`")
    }
    guard name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 }) else {
      throw LinkConfigError("\"\(entry)\": not a host name")
    }
    return host.lowercased()
  }

  /// Why `scheme` cannot be a custom URL scheme the app registers, or nil when it can: a
  /// letter, then letters, digits, `+`, `-` or `.`, and not `http` or `https`.
  package static func schemeProblem(_ scheme: String) -> String? {
    guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
      scheme.unicodeScalars.allSatisfy({
        $0.isASCII
          && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
            || "+-.".unicodeScalars.contains($0))
      })
    else {
      return "\(JSON.quote(scheme)) is not a URL scheme"
    }
    guard scheme.lowercased() != "http", scheme.lowercased() != "https" else {
      return "http and https are not custom schemes"
    }
    return nil
  }

  /// The schemes of an Info.plist: every `CFBundleURLTypes[i].CFBundleURLSchemes[j]`.
  package static func schemes(infoPlist: PropertyList) throws(LinkConfigError) -> [String] {
    guard case .dictionary(let top) = infoPlist else {
      throw LinkConfigError("the top level must be a dictionary, not \(infoPlist.kindDescription)")
    }
    guard let types = top["CFBundleURLTypes"] else { return [] }
    guard case .array(let items) = types else {
      throw LinkConfigError("CFBundleURLTypes: must be an array, not \(types.kindDescription)")
    }
    var schemes: [String] = []
    for (index, item) in items.enumerated() {
      guard case .dictionary(let type) = item else {
        throw LinkConfigError(
          "CFBundleURLTypes[\(index)]: must be a dictionary, not \(item.kindDescription)")
      }
      guard let list = type["CFBundleURLSchemes"] else { continue }
      guard case .array(let names) = list else {
        throw LinkConfigError(
          "CFBundleURLTypes[\(index)].CFBundleURLSchemes: must be an array, not \(list.kindDescription)"
        )
      }
      for (position, name) in names.enumerated() {
        guard case .string(let text) = name, !text.isEmpty else {
          throw LinkConfigError(
            "CFBundleURLTypes[\(index)].CFBundleURLSchemes[\(position)]: must be a non-empty string"
          )
        }
        if let problem = schemeProblem(text) {
          throw LinkConfigError(
            "CFBundleURLTypes[\(index)].CFBundleURLSchemes[\(position)]: \(problem)")
        }
        schemes.append(text)
      }
    }
    return schemes
  }

  /// The `applinks:` hosts of an entitlements list's `com.apple.developer.associated-domains`.
  package static func domains(entitlements: PropertyList) throws(LinkConfigError) -> [String] {
    let key = "com.apple.developer.associated-domains"
    guard case .dictionary(let top) = entitlements else {
      throw LinkConfigError(
        "the top level must be a dictionary, not \(entitlements.kindDescription)")
    }
    guard let list = top[key] else { return [] }
    guard case .array(let items) = list else {
      throw LinkConfigError("\(key): must be an array, not \(list.kindDescription)")
    }
    var hosts: [String] = []
    for (index, item) in items.enumerated() {
      guard case .string(let text) = item else {
        throw LinkConfigError("\(key)[\(index)]: must be a string, not \(item.kindDescription)")
      }
      do {
        if let host = try applinksHost(text) { hosts.append(host) }
      } catch {
        throw LinkConfigError("\(key)[\(index)]: \(error)")
      }
    }
    return hosts
  }
}

/// A `links` member or file that cannot be used: what is wrong (the caller adds where).
package struct LinkConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The problem.
  package var description: String

  /// Makes an error.
  package init(_ description: String) { self.description = description }
}
