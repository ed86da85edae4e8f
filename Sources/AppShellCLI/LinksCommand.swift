import AppRuntime
import JSON
import Links
import RouteExplain
import Routing
import Shell

/// `appshell links check [--screens DIR] [--explain] [URL...]`: who gets each URL from
/// outside (the app, Safari or nothing) and, for the app, which route it opens; `links dump`
/// and `links diff` guard the link surface across releases.
enum LinksCommand {
  /// The usage of `links`.
  static let usage = Usage(
    command: "links",
    forms: [
      "appshell links check [--screens DIR] [--explain] [URL...]",
      "appshell links dump [--screens DIR] [--json] [--output FILE] [--check FILE]",
      """
      appshell links diff OLD NEW [--fail-on breaking|warning|never]
                          [--format text|json|markdown|junit] [--urls FILE]
      """,
    ],
    summary: """
      Check who gets URLs from outside: the app, Safari or nothing;
      dump the link surface, or diff it against a release.
      """)

  static let help = """
    OVERVIEW: Check who gets URLs from outside the app: the app (its schemes, its associated
    domains and their AASA files), Safari or nothing; and which route the app opens.

    \(usage.section)

    ARGUMENTS:
      URL...              URLs to check. Without any, URLs are read from standard input, one
                          a line, and each is answered as soon as it is read.

    OPTIONS:
      --screens DIR       The app's directory: app.json (its "links"), routes.json and the
                          files links names (default: the shipped demo's Screens/).
      --explain           Explain each answer instead: every AASA entry and component tried
                          and why it did or did not match, then the routing explanation.
      --                  End of options; every later argument is a URL.
      --help              Show this help.

    OUTPUT: one JSON object per URL: "url", "opens" ("app", "safari" or "nothing"),
    "reason", "decidedBy" (the AASA member that decided, or null), and when the app opens it
    the members of 'appshell resolve --external' ("matched", "pattern", "route", "params",
    "refused", "redirects").

    EXIT STATUS: 0 when every URL opened the app and matched a route, 1 when any did not, 2
    when the app or the options are unusable.

    DUMP: the app's link surface: for every route expansion its target, parameters and
    fields, its witness URLs (concrete URLs it matches), and for every witness URL what it
    does from inside and from outside. Sorted lines, the same bytes whatever the order of
    routes that never tie; --json writes one JSON document. Commit it (Screens/links.surface)
    and check it in CI:
      --output FILE       Write the dump to FILE instead of standard output.
      --check FILE        Compare with FILE: exit 0 when equal; 1 with a unified diff (-
                          FILE's lines, + today's) and the command that rewrites FILE; 2
                          when the app or FILE cannot be used.

    DIFF: what NEW does to every URL OLD opened: every witness URL of OLD (and every URL of
    --urls FILE) is delivered and resolved in both, from inside, outside and cold. OLD and
    NEW are app directories, route table files, or git:REV / git:REV:PATH (that revision of
    the repository around the working directory, read without a checkout; PATH defaults to
    the other operand's directory). In a pull request:
      appshell links diff git:origin/main . --format markdown
    Findings: breaking (removed, retargeted, params-changed, refused, needs-upgrade),
    warning (guarded, arrival-changed), info (redirected, added).
      --fail-on LEVEL     Exit 1 when a finding is at or above LEVEL: breaking (default),
                          warning, or never.
      --format FORMAT     text (default), json, markdown (a table for a pull-request
                          comment) or junit (a testcase per OLD expansion and origin).
      --urls FILE         Also check these URLs: one a line; a line that starts with '#'
                          (or the rest of a line after ' #') is a comment.
    Exit 0 when no finding is at or above --fail-on, 1 when one is, 2 when OLD, NEW or a
    file cannot be used.

    """

  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(Array(arguments.dropFirst()), command: "links")
    guard let subcommand = arguments.first.map({ String(decoding: $0, as: UTF8.self) }) else {
      return options.fail(io, "missing subcommand: check, dump or diff")
    }
    if subcommand == "--help" || subcommand == "-h" {
      io.write(Array(help.utf8))
      return 0
    }
    if subcommand == "dump" {
      return LinksDumpCommand.run(Array(arguments.dropFirst()), io: io)
    }
    if subcommand == "diff" {
      return LinksDiffCommand.run(Array(arguments.dropFirst()), io: io)
    }
    guard subcommand == "check" else {
      return options.fail(io, "unknown subcommand '\(subcommand)' (check, dump or diff)")
    }
    var screensPath: String?
    var explain = false
    var urls: [[UInt8]] = []
    while let argument = options.next() {
      if options.ended || !argument.hasPrefix("--") {
        urls.append(options.bytes)
        continue
      }
      switch argument {
      case "--help":
        io.write(Array(help.utf8))
        return 0
      case "--explain":
        guard !options.hasValue else { return options.fail(io, "--explain takes no value") }
        explain = true
      case "--screens":
        guard let value = options.value(for: argument) else {
          return options.fail(io, "--screens needs a DIR")
        }
        screensPath = value
      default:
        return options.fail(io, Options.unknown(options.written, help: help))
      }
    }
    let app: ShellApp
    do {
      app = try AppLoader.loadApp(screens: screensPath, routes: nil)
    } catch {
      io.writeError("appshell links: \(error)\n")
      return 2
    }
    var out = OutputBuffer(io)
    var allOpened = true
    var first = true
    func answer(_ bytes: [UInt8]) {
      let url = String(decoding: bytes, as: UTF8.self)
      if explain {
        let (text, opened) = explanation(url: url, bytes: bytes, app: app)
        if !opened { allOpened = false }
        out.append((first ? "" : "\n") + text)
      } else {
        let (members, opened) = answerMembers(url: url, bytes: bytes, app: app)
        if !opened { allOpened = false }
        out.append(JSON.object(members).serialized + "\n")
      }
      first = false
    }
    LineReader.forEach(urls, io: io, flush: { out.flush() }, answer)
    out.flush()
    return allOpened ? 0 : 1
  }

  /// The members of one answer, and whether the app got the URL and a route matched.
  static func answerMembers(url: String, bytes: [UInt8], app: ShellApp) -> ([JSONMember], Bool) {
    let delivery = app.delivery(of: url)
    var members = [
      JSONMember("url", .string(url)), JSONMember("opens", .string(delivery.opens.rawValue)),
      JSONMember("reason", .string(delivery.reason)),
      JSONMember("decidedBy", delivery.decidedBy.map(JSON.string) ?? .null),
    ]
    guard delivery.opens == .app else { return (members, false) }
    let resolution = app.table.resolve(bytes: bytes, from: .external)
    members += ResolveCommand.members(url: url, resolution).dropFirst()
    return (members, resolution.isMatched)
  }

  /// The `--explain` block of one URL, and whether the app got it and a route matched.
  static func explanation(url: String, bytes: [UInt8], app: ShellApp) -> (String, Bool) {
    let delivery = app.links?.delivery(of: url, explain: true) ?? app.delivery(of: url)
    var text = "\(url)\n"
    text += "  opens: \(delivery.opens.rawValue): \(delivery.reason)\n"
    if !delivery.trace.isEmpty {
      text += "  AASA components tried:\n"
      for line in delivery.trace { text += "    \(line)\n" }
    }
    guard delivery.opens == .app else {
      text += "  not routed: the app does not get it\n"
      return (text, false)
    }
    let routing = app.table.explain(bytes: bytes, from: .external)
    text += ExplainText.block(routing)
    return (text, routing.resolution.isMatched)
  }
}
