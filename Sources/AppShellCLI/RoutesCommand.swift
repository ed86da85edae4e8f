import AppRuntime
import JSON
import Links
import Lint
import Render
import Routing
import Shell

/// `appshell routes [--routes FILE] [--screens DIR] [--lint] [--json]`: the route table as a
/// tree, or its lint findings.
enum RoutesCommand {
  /// The usage of `routes`.
  static let usage = Usage(
    command: "routes",
    forms: [
      "appshell routes [--routes FILE] [--screens DIR] [--lint] [--json]",
      """
      appshell routes [--routes FILE] [--screens DIR] --export aasa [--app-id ID]
                      [--host HOST]
      """,
      """
      appshell routes [--routes FILE] [--screens DIR] --emit swift
                      [--type-name NAME] [--access public|internal] [--output FILE]
      """,
    ],
    summary: "Show the route table as a tree, or lint it (--lint).")

  static let help = """
    OVERVIEW: Show the route table as a tree by scheme and segment, or lint it.

    \(usage.section)

    OPTIONS:
      --routes FILE       The route table (default: the screens directory's routes.json).
      --screens DIR       The screens directory (default: the app's own Screens/).
      --lint              Instead of the tree, list the table's problems:
                            conflict   two routes no URL can tell apart
                            parent     a parent that is not a screen route, or a loop
                            guard      a guard the app lacks, or a guarded guard URL
                            tab        a tab title the app does not have
                            shadowed   a route that can never win
                            target     a screen or action this build lacks
                            rename     a rename to a name the screen does not declare
                            link       a link on a screen that resolves to nothing
                          and, for an app with "links" in app.json:
                            unreachable         an https route its AASA never admits
                            unrouted            an AASA component no route handles
                            scheme              a route's custom scheme the app does
                                                not register
                            shadowed-component  an AASA component that can never decide
                            paths-ignored       an AASA entry with paths and components
      --json              Print one JSON document: the routes, the tree and, with --lint,
                          the findings.
      --export aasa       Print the apple-app-site-association file for the table's https
                          routes on the app's associated domains: internal-only routes as
                          exclude components first (docs/links.md). It admits every URL
                          the routes match; it may admit more, since AASA patterns cannot
                          check a typed segment (<int:id> becomes ?*) and * spans /.
      --emit swift        Print the table's destinations as a Swift enum conforming to
                          Routing's TypedRoute (docs/typed-routes.md): one case per
                          screen, action and notification, parameters typed.
      --type-name NAME    The enum's name (default: AppRoute).
      --access LEVEL      public or internal (default).
      --output FILE       Write the Swift source to FILE instead of standard output.
      --app-id ID         The app ID of the file (default: app.json's links.appID).
      --host HOST         Only the routes of this host; needed when the routes are on
                          more than one host (each host serves its own file).
      -h, --help          Show this help.

    Each route shows its index in the table's "routes", its target, and its priority and
    flags when set (present, internal-only, minVersion, guard, parent, rename). A table the
    app would refuse (a conflict, a bad parent) is still shown, with a note on stderr.

    EXIT STATUS: 0, or 1 when --lint finds a problem; 2 when the table or the screens
    cannot be read, or for an unusable option.

    """

  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "routes")
    var files = AppFileOptions()
    var lint = false
    var json = false
    var export: String?
    var appID: String?
    var host: String?
    var emit: RoutesEmit?
    var emitOptions = RoutesEmit()
    while let argument = options.next() {
      switch argument {
      case "-h", "--help":
        io.write(Array(help.utf8))
        return 0
      case "--routes", "--screens":
        guard files.take(argument, from: &options) else { return options.fail(io) }
      case "--emit":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        guard value == "swift" else {
          return options.fail(io, "--emit knows one language: swift, not '\(value)'")
        }
        emit = emitOptions
      case "--type-name", "--access", "--output":
        if let problem = emitOptions.take(argument, from: &options) {
          return options.fail(io, problem.isEmpty ? nil : problem)
        }
      case "--export", "--app-id", "--host":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        switch argument {
        case "--export":
          guard value == "aasa" else {
            return options.fail(io, "--export knows one format: aasa, not '\(value)'")
          }
          export = value
        case "--app-id": appID = value
        default: host = value
        }
      case "--lint", "--json":
        guard !options.hasValue else { return options.fail(io, "\(argument) takes no value") }
        if argument == "--lint" { lint = true } else { json = true }
      default:
        if argument.hasPrefix("-") && !options.ended {
          return options.fail(io, Options.unknown(argument, help: help))
        }
        return options.fail(io, "unexpected argument '\(argument)'")
      }
    }
    let directory = files.screens ?? AppLoader.shippedScreensDirectory()
    if emit != nil {
      guard !lint, !json, export == nil, appID == nil, host == nil else {
        return options.fail(io, "--emit swift goes without --lint, --json and --export")
      }
      return emitOptions.run(
        directory: directory, routes: files.routes, screensGiven: files.screens != nil, io: io)
    }
    if emitOptions.output != nil || emitOptions.typeName != "AppRoute" || emitOptions.isPublic {
      return options.fail(io, "--type-name, --access and --output go with --emit swift")
    }
    if export != nil {
      guard !lint, !json else { return options.fail(io, "--export goes without --lint and --json") }
      return exportAASA(
        directory: directory, routes: files.routes, appID: appID, host: host, io: io)
    }
    if appID != nil || host != nil {
      return options.fail(io, "--app-id and --host go with --export aasa")
    }
    // A table named alone is not checked against the shipped demo's screens.
    let tableAlone = lint && files.routes != nil && files.screens == nil
    let inspection: RouteTableInspection
    var findings: [LintFinding]?
    do {
      inspection = try AppLoader.inspectTable(path: files.routes ?? directory + "/routes.json")
      if tableAlone {
        findings = RouteLint.findings(inspection).sorted(by: LintFinding.reportOrder)
      } else if lint {
        let screens = try AppLoader.loadScreens(
          directory: directory, excluding: AppLoader.linkFiles(directory: directory))
        let definition = try AppLoader.loadDefinition(directory: directory)
        let app: ShellApp
        do {
          app = try definition.makeApp(
            table: inspection.table, screens: screens,
            registry: AppLoader.registry(for: definition), forLint: true,
            otherTable: files.routes != nil)
        } catch {
          throw LoadError("\(directory)/\(error)")
        }
        findings = try Self.findings(
          inspection, app: app, screens: screens, ownTable: files.routes == nil)
      }
    } catch {
      io.writeError("appshell routes: \(error)\n")
      return 2
    }
    var out = OutputBuffer(io)
    if json {
      out.append(RouteTree(inspection.table).json(findings: findings).serialized + "\n")
    } else if let findings {
      for finding in findings { out.append(inert(finding.text) + "\n") }
      out.append(summary(findings, routes: inspection.table.entries.count) + "\n")
    } else {
      out.append(RouteTree(inspection.table).text)
    }
    out.flush()
    if tableAlone {
      io.writeError(
        "appshell routes: note: the table alone was linted; --screens DIR also checks it with "
          + "an app's screens, tabs and links\n")
    }
    if !lint, let first = inspection.refusal {
      io.writeError(
        "appshell routes: note: the app refuses this table (\(first)); "
          + "'appshell routes --lint' lists every problem\n")
    }
    return findings?.isEmpty == false ? 1 : 0
  }

  /// Every lint finding of a table with the app, in report order; an app without a tab's
  /// root screen is an error.
  static func findings(
    _ inspection: RouteTableInspection, app: ShellApp, screens: [ScreenDefinition] = [],
    ownTable: Bool = false
  ) throws(LoadError) -> [LintFinding] {
    for tab in app.tabs where !app.catalog.has(tab.root) {
      throw LoadError("tab \(JSON.quote(tab.title)): no screen named '\(tab.root)'")
    }
    let destinations = LinkTarget.problems(screens, table: inspection.table).map {
      LintFinding(kind: .link, screen: $0.screen, link: $0.link, message: $0.message)
    }
    return
      (RouteLint.findings(inspection) + AppLint.findings(app, ownTable: ownTable)
      + LinksLint.findings(app)
      + destinations + DeclaredParamsLint.findings(inspection.table, screens: screens))
      .sorted(by: LintFinding.reportOrder)
  }

  /// `--export aasa`: the AASA document for the table's `https` routes on the app's
  /// associated domains (every `https` host of the table when the app has no links).
  static func exportAASA(
    directory: String, routes: String?, appID given: String?, host: String?, io: CommandIO
  ) -> Int32 {
    let table: RouteTable
    let links: LinkPolicy?
    do {
      table = try AppLoader.inspectTable(path: routes ?? directory + "/routes.json").table
      links = try AppLoader.loadDefinition(directory: directory).linkPolicy
    } catch {
      io.writeError("appshell routes: \(error)\n")
      return 2
    }
    guard let appID = given ?? links?.appID else {
      io.writeError(
        "appshell routes: --export aasa needs --app-id ID (the app has no links.appID)\n")
      return 2
    }
    let domains =
      links?.domains
      ?? table.entries.compactMap { $0.pattern.scheme == "https" ? $0.pattern.domain : nil }
    // Each host serves its own file: a file for several would admit one host's paths on another.
    var hosts: [String] = []
    for entry in table.entries {
      guard entry.pattern.scheme == "https", let domain = entry.pattern.domain,
        AASAExport.covers(domains.map { $0.lowercased() }, domain), !hosts.contains(domain)
      else { continue }
      hosts.append(domain)
    }
    if host == nil, hosts.count > 1 {
      io.writeError(
        "appshell routes: the table's https routes are on \(hosts.count) hosts (\(hosts.joined(separator: ", "))), and each serves its own file: pick one with --host HOST\n"
      )
      return 2
    }
    let document = AASAExport.document(table, appID: appID, domains: domains, host: host)
    io.write(Array(AASAExport.text(document).utf8))
    return 0
  }

  /// The last line of a lint report: `3 problems: 1 conflict, 2 link`, or that there are none.
  static func summary(_ findings: [LintFinding], routes: Int) -> String {
    guard !findings.isEmpty else {
      return "no problems in \(routes) \(routes == 1 ? "route" : "routes")"
    }
    let counts = LintKind.allCases.compactMap { kind -> String? in
      let count = findings.filter { $0.kind == kind }.count
      return count == 0 ? nil : "\(count) \(kind.rawValue)"
    }
    let noun = findings.count == 1 ? "problem" : "problems"
    return "\(findings.count) \(noun): \(counts.joined(separator: ", "))"
  }
}
