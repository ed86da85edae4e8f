import Render
import Routing
import Shell

/// `appshell routes [--routes FILE] [--screens DIR] [--lint] [--json]`: the route table as a
/// tree, or its lint findings.
enum RoutesCommand {
  static let help = """
    OVERVIEW: Show the route table as a tree by scheme and segment, or lint it.

    USAGE: appshell routes [--routes FILE] [--screens DIR] [--lint] [--json]

    OPTIONS:
      --routes FILE       The route table (default: the screens directory's routes.json).
      --screens DIR       The screens directory (default: the app's own Screens/).
      --lint              Instead of the tree, list the table's problems:
                            conflict   two routes no URL can tell apart
                            parent     a parent that is not a screen route, or a loop
                            guard      a guard the app lacks, or a guarded guard URL
                            shadowed   a route that can never win
                            target     a screen or action this build lacks
                            rename     a rename to a name the screen does not declare
                            link       a link on a screen that resolves to nothing
      --json              Print one JSON document: the routes, the tree and, with --lint,
                          the findings.
      -h, --help          Show this help.

    Each route shows its index in the table's "routes", its target, and its priority and
    flags when set (present, internal-only, minVersion, guard, parent, rename). A table the
    app would refuse (a conflict, a bad parent) is still shown, with a note on stderr.

    EXIT STATUS: 0, or 1 when --lint finds a problem; 2 when the table or the screens
    cannot be read, or for an unusable option.

    """

  static func run(_ arguments: [String], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "routes")
    var files = AppFileOptions()
    var lint = false
    var json = false
    while let argument = options.next() {
      switch argument {
      case "-h", "--help":
        io.write(Array(help.utf8))
        return 0
      case "--routes", "--screens":
        guard files.take(argument, from: &options) else { return options.fail(io) }
      case "--lint", "--json":
        guard !options.hasValue else { return options.fail(io, "\(argument) takes no value") }
        if argument == "--lint" { lint = true } else { json = true }
      default:
        if argument.hasPrefix("-") && !options.ended {
          return options.fail(io, "unknown option '\(argument)'")
        }
        return options.fail(io, "unexpected argument '\(argument)'")
      }
    }
    let directory = files.screens ?? AppLoader.shippedScreensDirectory()
    let inspection: RouteTableInspection
    var findings: [LintFinding]?
    do {
      inspection = try AppLoader.inspectTable(path: files.routes ?? directory + "/routes.json")
      if lint {
        let screens = try AppLoader.loadScreens(directory: directory)
        let definition = try AppLoader.loadDefinition(directory: directory)
        let app: ShellApp
        do {
          app = try definition.makeApp(
            table: inspection.table, screens: screens,
            registry: AppLoader.registry(for: directory), forLint: true,
            otherTable: files.routes != nil)
        } catch {
          throw LoadError("\(directory)/\(error)")
        }
        findings = try Self.findings(inspection, app: app)
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
    if !lint, let first = inspection.refusal {
      io.writeError(
        "appshell routes: note: the app refuses this table (\(first)); "
          + "'appshell routes --lint' lists every problem\n")
    }
    return findings?.isEmpty == false ? 1 : 0
  }

  /// Every lint finding of a table with the app, in report order; an app without a tab's
  /// root screen is an error.
  static func findings(_ inspection: RouteTableInspection, app: ShellApp)
    throws(LoadError) -> [LintFinding]
  {
    for tab in app.tabs where !app.catalog.has(tab.root) {
      throw LoadError("tab \(JSON.quote(tab.title)): no screen named '\(tab.root)'")
    }
    return (RouteLint.findings(inspection) + AppLint.findings(app))
      .sorted(by: LintFinding.reportOrder)
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
