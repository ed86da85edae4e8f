import Render
import RouteExplain
import Routing

/// The text form of `appshell resolve --explain`: one block per URL, and in it one section per
/// hop (the URL, then each redirect): how the URL was read, every route in table order with
/// its verdict and reason in aligned columns, then what the winner did; the block ends with
/// the result. Every URL, pattern and value is shown inert (no control characters).
enum ExplainText {
  /// Patterns wider than this put their reason on the next line.
  static let patternColumnLimit = 40

  /// The block for one URL, ending with a newline.
  static func block(_ explanation: Explanation) -> String {
    var lines: [String] = []
    let from = explanation.origin == .app ? "from inside the app" : "from outside the app"
    lines.append("URL \(Explanation.inert(explanation.url)) (\(from))")
    let layout = Layout(explanation.entries)
    for (number, hop) in explanation.hops.enumerated() {
      if number > 0 {
        lines.append("")
        lines.append("redirect \(number): \(Explanation.inert(hop.url))")
      }
      lines += section(hop, number: number, explanation, layout)
    }
    lines.append(label("result") + result(explanation))
    // Every value is already quoted inert; this also covers messages that quote as JSON does.
    return lines.map { Explanation.inert($0) + "\n" }.joined()
  }

  /// Column widths shared by every hop of a table.
  struct Layout {
    var routeWidth: Int
    var patternWidth: Int

    init(_ entries: [RouteEntry]) {
      routeWidth = "routes[\(max(entries.count - 1, 0))]".count
      let widest = entries.map { TextWidth.of(Explanation.inert($0.pattern.text)) }.max() ?? 0
      patternWidth = min(widest, ExplainText.patternColumnLimit)
    }
  }

  /// `  name` padded so values line up.
  static func label(_ name: String) -> String {
    "  " + name + String(repeating: " ", count: max(1, 9 - name.count))
  }

  static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - TextWidth.of(text)))
  }

  private static func section(
    _ hop: Explanation.Hop, number: Int, _ explanation: Explanation, _ layout: Layout
  ) -> [String] {
    guard let url = hop.read else {
      if case .invalid(let why) = hop.end { return [label("read") + "invalid: " + why] }
      return []
    }
    var lines = [label("read") + Explanation.describe(url)]
    let reasonColumn = 2 + layout.routeWidth + 2 + 6 + 2 + layout.patternWidth + 2
    for candidate in hop.candidates {
      let pattern = Explanation.inert(explanation.entries[candidate.route].pattern.text)
      let head =
        "  " + pad("routes[\(candidate.route)]", layout.routeWidth) + "  "
        + pad(Explanation.word(candidate.verdict), 6) + "  "
      let reason = explanation.reason(candidate, in: hop)
      if TextWidth.of(pattern) <= layout.patternWidth {
        lines.append(head + pad(pattern, layout.patternWidth) + "  " + reason)
      } else {
        lines.append(head + pattern)
        lines.append(String(repeating: " ", count: reasonColumn) + reason)
      }
    }
    guard let winner = hop.winner else {
      for candidate in hop.nearest {
        let pattern = Explanation.inert(explanation.entries[candidate.route].pattern.text)
        lines.append(
          label("nearest") + "routes[\(candidate.route)] \(pattern): "
            + explanation.reason(candidate, in: hop))
      }
      return lines
    }
    let entry = explanation.entries[winner]
    lines.append(label("winner") + "routes[\(winner)] " + Explanation.inert(entry.pattern.text))
    lines.append(label("params") + Explanation.show(hop.params))
    if !entry.rename.isEmpty {
      let pairs = entry.rename.keys.sorted().map {
        Explanation.inert($0) + " -> " + Explanation.inert(entry.rename[$0]!)
      }
      lines.append(
        label("rename") + pairs.joined(separator: ", ") + "; now "
          + Explanation.show(hop.renamed))
    }
    lines.append(label("target") + Explanation.describe(entry))
    switch hop.end {
    case .redirect(let next):
      lines.append(label("redirect") + "\(number + 1): " + Explanation.inert(next))
    case .failed(let why, let next?):
      lines.append(
        label("redirect") + "\(number + 1): " + Explanation.inert(next)
          + " (not followed: \(why))")
    case .failed(let why, nil):
      lines.append(label("redirect") + "not filled: " + why)
    case .refused:
      lines.append(
        label("refused") + "the URL came from outside and this route is internal only;"
          + " the next-ranked route is not tried")
    case .invalid, .unmatched, .target:
      break
    }
    return lines
  }

  private static func result(_ explanation: Explanation) -> String {
    let redirects = explanation.resolution.redirects.count
    let after = redirects == 0 ? "" : " after \(redirects) redirect\(redirects == 1 ? "" : "s")"
    switch explanation.resolution.outcome {
    case .matched(let entry, let params):
      return
        "matched routes[\(entry.index)]\(after): \(Explanation.describe(entry)); params "
        + Explanation.show(params)
    case .unmatched:
      return "no route matches\(after)"
    case .invalid(let why):
      return "invalid URL\(after): \(why)"
    case .refused(let why):
      return "refused\(after): \(why)"
    case .failed(let why):
      return "failed\(after): \(why)"
    }
  }
}
