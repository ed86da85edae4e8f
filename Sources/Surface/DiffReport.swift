import JSON
import Routing

/// The four forms of `appshell links diff`'s report: text for people, JSON for tools,
/// markdown for a pull-request comment, JUnit for CI.
package enum DiffReport {
  /// One sentence about a finding.
  package static func message(_ finding: Finding) -> String {
    let was = finding.old.map { LinkSurface.describe($0) } ?? ""
    let now = finding.new.map { LinkSurface.describe($0) } ?? ""
    let head = "\(finding.url) from \(finding.origin.rawValue)"
    switch finding.kind {
    case .removed: return "\(head) \(now) in NEW; it reached \(was)"
    case .retargeted: return "\(head) reaches another destination: \(now); it reached \(was)"
    case .paramsChanged: return "\(head) reaches \(now); it reached \(was)"
    case .refused: return "\(head) \(now); it reached \(was)"
    case .needsUpgrade:
      let version = finding.new?.reach?.minVersion?.description ?? "?"
      return "\(head) now needs version \(version) of the app: \(now)"
    case .guarded:
      return "\(head) now needs the guard \(finding.new?.reach?.guardName ?? "?"): \(now)"
    case .arrivalChanged: return "\(head) lands differently: \(landing(finding))"
    case .redirected: return "\(head) now reaches the same destination through a redirect: \(now)"
    case .added: return "\(head) is new: \(now)"
    }
  }

  /// What changed in how a screen lands: `tab Orders -> Home, arrival push -> reset`.
  static func landing(_ finding: Finding) -> String {
    guard let old = finding.old?.reach, let new = finding.new?.reach else { return "" }
    var changes: [String] = []
    func note(_ name: String, _ a: String?, _ b: String?) {
      if a != b { changes.append("\(name) \(a ?? "none") -> \(b ?? "none")") }
    }
    note("presentation", old.presentation.rawValue, new.presentation.rawValue)
    if finding.origin != .inside {
      note("tab", old.tab, new.tab)
      note("arrival", old.arrival.rawValue, new.arrival.rawValue)
      note("parent", old.parent, new.parent)
    }
    return changes.joined(separator: ", ")
  }

  /// The summary line: `1 breaking, 0 warning, 2 info; 57 URLs checked`.
  static func summary(_ diff: SurfaceDiff) -> String {
    "\(diff.count(.breaking)) breaking, \(diff.count(.warning)) warning, "
      + "\(diff.count(.info)) info; \(diff.urlCount) URLs checked"
  }

  /// Text: one line per finding (by severity, then OLD route order), more URLs indented below,
  /// then the summary line.
  package static func text(_ diff: SurfaceDiff) -> String {
    var out = ""
    for finding in diff.findings {
      out += "\(finding.severity.rawValue) \(finding.kind.rawValue): \(finding.subject): "
      out += inertLine(message(finding)) + "\n"
      if finding.urls.count > 1 {
        out += "    also: " + finding.urls.dropFirst().joined(separator: " ") + "\n"
      }
    }
    return out + summary(diff) + "\n"
  }

  /// A side of a finding in JSON: `route`, `pattern`, `outcome`.
  static func side(_ outcome: SurfaceOutcome?) -> JSON {
    guard let outcome else { return .null }
    let reach = outcome.reach
    return .object([
      JSONMember("route", reach.map { .number(String($0.route)) } ?? .null),
      JSONMember("pattern", reach.map { .string($0.pattern) } ?? .null),
      JSONMember("outcome", LinkSurface.json(outcome)),
    ])
  }

  /// JSON: `findings` and `summary`.
  package static func json(_ diff: SurfaceDiff) -> String {
    let findings = diff.findings.map { finding in
      JSON.object([
        JSONMember("severity", .string(finding.severity.rawValue)),
        JSONMember("kind", .string(finding.kind.rawValue)),
        JSONMember("origin", .string(finding.origin.rawValue)),
        JSONMember("url", .string(finding.url)),
        JSONMember("urls", .array(finding.urls.map(JSON.string))),
        JSONMember("subject", .string(finding.subject)),
        JSONMember("old", side(finding.old)),
        JSONMember("new", side(finding.new)),
        JSONMember("message", .string(message(finding))),
      ]).serialized
    }
    let summary = JSON.object([
      JSONMember("breaking", .number(String(diff.count(.breaking)))),
      JSONMember("warning", .number(String(diff.count(.warning)))),
      JSONMember("info", .number(String(diff.count(.info)))),
      JSONMember("urls", .number(String(diff.urlCount))),
    ])
    let list = findings.isEmpty ? "[]" : "[\n    " + findings.joined(separator: ",\n    ") + "\n  ]"
    return "{\n  \"findings\": \(list),\n  \"summary\": \(summary.serialized)\n}\n"
  }

  /// Markdown: a heading line with the summary, then one table.
  package static func markdown(_ diff: SurfaceDiff) -> String {
    var out = "### Link surface: \(summary(diff))\n\n"
    guard !diff.findings.isEmpty else { return out + "No link changes.\n" }
    out += "| severity | kind | origin | URL | route | change |\n"
    out += "| --- | --- | --- | --- | --- | --- |\n"
    for finding in diff.findings {
      let cells = [
        finding.severity.rawValue, finding.kind.rawValue, finding.origin.rawValue,
        "`\(finding.url)`", finding.subject, message(finding),
      ]
      out += "| " + cells.map(cell).joined(separator: " | ") + " |\n"
    }
    return out
  }

  /// A table cell: `|` escaped, no line breaks.
  static func cell(_ text: String) -> String {
    inertLine(text).replacingPipes
  }

  /// JUnit: a testcase per OLD expansion (or `--urls` line) and origin, a failure for each
  /// breaking or warning finding.
  package static func junit(_ diff: SurfaceDiff) -> String {
    let failing = diff.cases.reduce(0) { total, item in
      total + (item.findings.contains { diff.findings[$0].severity != .info } ? 1 : 0)
    }
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"appshell links diff\" tests=\"\(diff.cases.count)\" "
    out += "failures=\"\(failing)\">\n"
    out += "  <testsuite name=\"links diff\" tests=\"\(diff.cases.count)\" "
    out += "failures=\"\(failing)\">\n"
    for item in diff.cases {
      out += "    <testcase classname=\"links diff\" name=\"\(xml(item.name))\""
      let failures = item.findings.map { diff.findings[$0] }.filter { $0.severity != .info }
      guard !failures.isEmpty else {
        out += "/>\n"
        continue
      }
      out += ">\n"
      for finding in failures {
        out += "      <failure type=\"\(finding.kind.rawValue)\" "
        out +=
          "message=\"\(xml(finding.severity.rawValue + " " + finding.kind.rawValue + ": " + message(finding)))\">"
        out += xml(finding.urls.joined(separator: "\n")) + "</failure>\n"
      }
      out += "    </testcase>\n"
    }
    return out + "  </testsuite>\n</testsuites>\n"
  }

  /// Text safe in XML content and attributes.
  static func xml(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n": out += "&#10;"
      default:
        out.unicodeScalars.append(scalar.value >= 0x20 ? scalar : "\u{FFFD}")
      }
    }
    return out
  }

  /// The text with control characters shown as U+FFFD, so a URL cannot break a line.
  static func inertLine(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\u{FFFD}" : $0 }))
  }
}

extension String {
  fileprivate var replacingPipes: String {
    var out = ""
    for character in self { out += character == "|" ? "\\|" : String(character) }
    return out
  }
}
