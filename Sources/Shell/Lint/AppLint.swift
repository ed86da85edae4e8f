import JSON
import Lint
import Routing

/// The lint checks that need the app as well as the route table (`appshell routes --lint`):
/// guards, targets, renames and links. The table-only checks are the Lint module's
/// `RouteLint`.
package enum AppLint {
  /// Every app-level finding, in report order:
  /// - `guard`: a route names a guard the app does not have, or a guard's own URL opens a
  ///   guarded route (the app refuses such a table);
  /// - `tab`: a route's `tab` is not one of the app's tab titles (the app refuses the table);
  /// - `target`: a route opens a screen or calls an action this build does not have, and its
  ///   `minVersion` does not ask for a newer app (so it is not a planned "Upgrade required");
  /// - `rename`: a screen route renames a parameter to a name its screen does not declare;
  /// - `link`: a link on a screen the app can show (a tab root or a screen route's target),
  ///   made with a sample value for each declared parameter, opens a URL that resolves (from
  ///   inside the app) to nothing.
  /// `ownTable`: the table is the app directory's own `routes.json`, which may name only
  /// screens and actions the app has (the app refuses it otherwise).
  package static func findings(_ app: ShellApp, ownTable: Bool = false) -> [LintFinding] {
    (guardFindings(app) + tabFindings(app) + targetFindings(app, ownTable: ownTable)
      + renameFindings(app) + linkFindings(app))
      .sorted(by: LintFinding.reportOrder)
  }

  /// `routes[i] "pattern"`, for messages.
  static func quoted(_ entry: RouteEntry) -> String {
    "routes[\(entry.index)] \(JSON.quote(entry.pattern.text))"
  }

  static func finding(_ kind: LintKind, _ entry: RouteEntry, _ message: String) -> LintFinding {
    LintFinding(
      kind: kind, routes: [entry.index], patterns: [entry.pattern.text], message: message)
  }

  /// Guards the app does not have, and guards whose own URL is guarded.
  static func guardFindings(_ app: ShellApp) -> [LintFinding] {
    var findings: [LintFinding] = []
    let known = app.guards.keys.sorted()
    for entry in app.table.entries {
      guard let name = entry.guardName, app.guards[name] == nil else { continue }
      findings.append(
        finding(
          .guard, entry,
          """
          \(quoted(entry)) needs the guard '\(name)', which this app does not have \
          (it has: \(known.isEmpty ? "none" : known.joined(separator: ", "))); the app \
          refuses the table
          """))
    }
    for name in known {
      let url = app.guards[name]!.url
      guard case .matched(let route, _) = app.table.resolve(url).outcome,
        let own = route.guardName
      else { continue }
      findings.append(
        finding(
          .guard, route,
          """
          \(quoted(route)) is where the '\(name)' guard's own URL \(JSON.quote(url)) goes, \
          and it is guarded ('\(own)'), so opening it would loop; the app refuses the table
          """))
    }
    return findings
  }

  /// Routes whose `tab` is not one of the app's tab titles (checked, as the app does, when
  /// the app has tabs).
  static func tabFindings(_ app: ShellApp) -> [LintFinding] {
    guard !app.tabs.isEmpty else { return [] }
    let known = app.tabs.map { JSON.quote($0.title) }.joined(separator: ", ")
    return app.table.entries.compactMap { entry in
      guard let title = entry.tab, !app.tabs.contains(where: { $0.title == title }) else {
        return nil
      }
      return finding(
        .tab, entry,
        """
        \(quoted(entry)) lands on the tab \(JSON.quote(title)), which this app does not have \
        (its tabs: \(known)); the app refuses the table
        """)
    }
  }

  /// Screens and actions this build lacks, on routes that do not ask for a newer app; in the
  /// app's own table, every one (the app refuses the table, as it does at start).
  static func targetFindings(_ app: ShellApp, ownTable: Bool) -> [LintFinding] {
    if ownTable {
      return app.targetProblems().map {
        finding(.target, $0.entry, "\($0.message) (the app refuses its own table)")
      }
    }
    var findings: [LintFinding] = []
    for entry in app.table.entries {
      if let minVersion = entry.minVersion, minVersion > app.version { continue }
      let why =
        entry.minVersion.map { "its minVersion \($0) is not newer than this app's \(app.version)" }
        ?? "it has no minVersion asking for a newer app"
      switch entry.target {
      case .screen(let name) where !app.catalog.has(name):
        findings.append(
          finding(
            .target, entry,
            """
            \(quoted(entry)) opens the screen '\(name)', which this build does not have, and \
            \(why): every URL it wins shows "Upgrade required"
            """))
      case .action(let name) where app.actions[name] == nil && app.dataActions[name] == nil:
        findings.append(
          finding(
            .target, entry,
            """
            \(quoted(entry)) calls the action '\(name)', which this build does not have, and \
            \(why): every URL it wins shows "Upgrade required"
            """))
      default:
        break
      }
    }
    return findings
  }

  /// Renames to names the route's screen does not declare.
  static func renameFindings(_ app: ShellApp) -> [LintFinding] {
    var findings: [LintFinding] = []
    for entry in app.table.entries {
      guard case .screen(let name) = entry.target, let factory = app.catalog.factories[name]
      else { continue }
      let declared = factory.params.keys.sorted()
      for (from, to) in entry.rename.sorted(by: { $0.key < $1.key })
      where factory.params[to] == nil {
        findings.append(
          finding(
            .rename, entry,
            """
            \(quoted(entry)) renames '\(from)' to '\(to)', which the screen '\(name)' does not \
            declare (\(declared.isEmpty ? "it declares no parameters" : "it declares: " + declared.joined(separator: ", ")))
            """))
      }
    }
    return findings
  }

  /// A value of a declared parameter's type, for filling link templates.
  package static func sample(_ type: CaptureType) -> ParamValue {
    switch type {
    case .int: return .int(1)
    case .float: return .float(1.5)
    case .uuid: return .string("123E4567-E89B-12D3-A456-426614174000")
    case .string, .path: return .string("sample")
    }
  }

  /// Links that resolve to nothing, on every screen the app can show (a tab root, or the
  /// target of a screen route) that it has, made with a sample value for each declared
  /// parameter.
  static func linkFindings(_ app: ShellApp) -> [LintFinding] {
    var shown = Set(app.tabs.map(\.root))
    for entry in app.table.entries {
      if case .screen(let name) = entry.target { shown.insert(name) }
    }
    var findings: [LintFinding] = []
    for name in shown.sorted() where app.catalog.has(name) {
      var params: Parameters = [:]
      for (param, spec) in app.catalog.factories[name]!.params { params[param] = sample(spec.type) }
      guard
        case .success(let screen) = app.catalog.make(
          name, params: params, url: nil, session: Session(flags: app.flags), table: app.table)
      else { continue }
      for (index, link) in screen.links.enumerated() {
        let url: String
        switch link.action {
        case .open(let target), .openForResult(let target, _): url = target
        case .finish: continue
        }
        let resolution = app.table.resolve(url)
        let why: String
        switch resolution.outcome {
        case .matched: continue
        case .unmatched: why = "no route matches"
        case .invalid(let reason), .failed(let reason), .refused(let reason): why = reason
        }
        let via =
          resolution.redirects.isEmpty
          ? ""
          : " (after redirects to \(resolution.redirects.map(JSON.quote).joined(separator: ", ")))"
        let filled = params.isEmpty ? "" : " with sample parameters"
        findings.append(
          LintFinding(
            kind: .link, screen: name, link: index,
            message: """
              screen '\(name)' links[\(index)] \(JSON.quote(link.label)) opens \
              \(JSON.quote(url))\(filled), which resolves to nothing\(via): \(why)
              """))
      }
    }
    return findings
  }
}
