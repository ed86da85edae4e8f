/// What an AASA file says about a URL for one app ID.
package struct AASADecision: Sendable, Hashable {
  /// Whether the URL is admitted.
  package var admitted: Bool
  /// The member that decided (`applinks.details[0].components[3]`, or `...paths[k]`); nil when
  /// nothing matched.
  package var decidedBy: String?
  /// Whether the deciding member excludes.
  package var excluded: Bool
  /// When asked for: every entry and component tried, and why it did or did not match.
  package var trace: [String]
}

extension AASADocument {
  /// Decides `url` for `appID` (Apple's rules): entries for the app ID in order, their
  /// components one after another; the first component that matches decides. Legacy `paths`
  /// are used only by an entry without `components`.
  package func decide(_ url: LinkURL, appID: String, explain: Bool = false) -> AASADecision {
    var trace: [String] = []
    var cache = NormalizedURL(url)
    for detail in details {
      guard detail.appIDs.contains(appID) else {
        if explain {
          trace.append(
            "\(detail.member): for \(detail.appIDs.joined(separator: ", ")), not \(appID): skipped")
        }
        continue
      }
      if let components = detail.components {
        if explain, detail.paths != nil {
          trace.append("\(detail.member).paths: ignored, the entry has components")
        }
        for component in components {
          let member = "\(detail.member).components[\(component.index)]"
          if let mismatch = component.mismatch(&cache) {
            if explain { trace.append("\(member): no match: \(mismatch)") }
            continue
          }
          if explain {
            trace.append(
              "\(member): matches\(component.exclude ? " and excludes: refused" : ": admitted")")
          }
          return AASADecision(
            admitted: !component.exclude, decidedBy: member, excluded: component.exclude,
            trace: trace)
        }
      } else if let paths = detail.paths {
        let path = AASAPattern.normalized(url.path, options: AASAPattern.Options())
        for legacy in paths {
          let member = "\(detail.member).paths[\(legacy.index)]"
          guard legacy.pattern.matches(normalized: path) else {
            if explain {
              trace.append(
                "\(member): no match: \(quote(legacy.pattern.text)) does not match the path \(quote(url.path))"
              )
            }
            continue
          }
          if explain {
            trace.append(
              "\(member): matches\(legacy.exclude ? " and excludes (NOT): refused" : ": admitted")")
          }
          return AASADecision(
            admitted: !legacy.exclude, decidedBy: member, excluded: legacy.exclude, trace: trace)
        }
      }
    }
    if explain { trace.append("no component matches") }
    return AASADecision(admitted: false, decidedBy: nil, excluded: false, trace: trace)
  }
}

/// A URL's parts in compared form, made once per set of options.
struct NormalizedURL {
  let url: LinkURL
  private var forms: [AASAPattern.Options: Form] = [:]

  struct Form {
    var path: [Unicode.Scalar]
    var fragment: [Unicode.Scalar]
    var query: [Unicode.Scalar]
    var items: [(name: [Unicode.Scalar], value: [Unicode.Scalar])]
  }

  init(_ url: LinkURL) { self.url = url }

  mutating func form(_ options: AASAPattern.Options) -> Form {
    if let form = forms[options] { return form }
    var items: [(name: [Unicode.Scalar], value: [Unicode.Scalar])] = []
    if !url.query.isEmpty {
      for piece in url.query.split(separator: "&", omittingEmptySubsequences: true) {
        let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        items.append(
          (
            AASAPattern.normalized(String(pair[0]), options: options),
            AASAPattern.normalized(pair.count > 1 ? String(pair[1]) : "", options: options)
          ))
      }
    }
    let form = Form(
      path: AASAPattern.normalized(url.path, options: options),
      fragment: AASAPattern.normalized(url.fragment, options: options),
      query: AASAPattern.normalized(url.query, options: options), items: items)
    forms[options] = form
    return form
  }
}

extension AASADocument.Component {
  /// Why this component does not match, or nil when it matches.
  func mismatch(_ url: inout NormalizedURL) -> String? {
    let form = url.form(options)
    if let path, !path.matches(normalized: form.path) {
      return "\"/\": \(quote(path.text)) does not match the path \(quote(url.url.path))"
    }
    if let fragment, !fragment.matches(normalized: form.fragment) {
      return "\"#\": \(quote(fragment.text)) does not match the fragment \(quote(url.url.fragment))"
    }
    switch query {
    case nil: break
    case .whole(let pattern)?:
      if !pattern.matches(normalized: form.query) {
        return "\"?\": \(quote(pattern.text)) does not match the query \(quote(url.url.query))"
      }
    case .items(let items)?:
      for item in items {
        let values = form.items.filter { $0.name == item.normalizedName }.map(\.value)
        for value in values.isEmpty ? [[]] : values where !item.pattern.matches(normalized: value) {
          var text = ""
          text.unicodeScalars.append(contentsOf: value)
          return
            "\"?\".\(quote(item.name)): \(quote(item.pattern.text)) does not match \(values.isEmpty ? "the missing item (\"\")" : quote(text))"
        }
      }
    }
    return nil
  }
}

func quote(_ text: String) -> String { "\"\(text)\"" }
