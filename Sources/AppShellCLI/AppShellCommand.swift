import AppRuntime
import Routing
import Shell

/// The `appshell` command line: picks the subcommand and returns the exit status.
package enum AppShellCommand {
  /// AppShell's own version (`appshell --version`).
  package static let version = "1.0.0"

  /// The usage of the app itself: the terminal front end, or the same app headless.
  static let usage = Usage(
    command: "",
    forms: [
      """
      appshell [--routes FILE_OR_URL] [--routes-key FILE] [--screens DIR] [--open URL]
               [--record FILE] [--headless [--size COLSxROWS]]
      """,
      "appshell [--version] [--help]",
    ],
    summary: """
      Run the app in the terminal (--open URL: a cold start), or --headless for CI;
      each subcommand also takes --help.
      """)

  /// Every subcommand's usage, in the order the help lists them.
  static let commands: [Usage] = [
    ResolveCommand.usage, RoutesCommand.usage, LinksCommand.usage, ReplayCommand.usage,
    TestCommand.usage, RemoteCommand.openURLUsage, RemoteCommand.pushUsage,
    RemoteCommand.stateUsage, RemoteCommand.reloadUsage, SignTableCommand.usage,
    InitCommand.usage,
  ]

  static let help = """
    OVERVIEW: AppShell simulates an iOS app shell in a terminal so deep-link routing can be
    seen, tried and tested.

    \(Usage.section(usage.forms + commands.flatMap(\.forms)))

    With no subcommand it starts the terminal front end: type a URL at the prompt and press
    Enter; F1 lists every key. The running app listens on a socket for openurl, push, state
    and reload; Ctrl-R or SIGHUP reloads the route table, and a --routes file is watched.

    SUBCOMMANDS:
    \(commands.map(\.listEntry).joined(separator: "\n"))

    OPTIONS:
      --routes FILE_OR_URL
                          The route table: a file, or an http(s) URL served with a
                          signature (URL.sig); default: the screens directory's routes.json.
      --routes-key FILE   The Ed25519 public key (PEM) remote tables must be signed with
                          (default: the shipped Screens/routes-key.pem).
      --screens DIR       The app's directory: app.json, routes.json and screens
                          (default: the shipped demo's Screens/).
      --open URL          Start with this URL, as a deep link from outside (cold start).
      --record FILE       Write every key and resize of the session to FILE as a key
                          script that 'appshell replay' plays back, with <Open URL>,
                          <Push JSON> and <Wait Ns> for what came from outside and pauses.
      --headless          Run without a terminal (for CI): drive it with openurl, push,
                          state and reload; SIGTERM or Ctrl-C ends it.
      --size COLSxROWS    The headless screen size (default: 80x24).
      --version           Print the version.
      -h, --help          Show this help.

    See 'appshell SUBCOMMAND --help' for a subcommand's options.

    """

  /// Runs the command line `arguments` (without the program name) and returns the exit status.
  package static func run(_ arguments: [String], io: CommandIO = .standard) -> Int32 {
    run(rawArguments: arguments.map { Array($0.utf8) }, io: io)
  }

  /// Runs the process's own command line: `argument0` is how the executable was invoked, which
  /// the commands it prints for the user start with (``AppHost/invocation``).
  package static func run(rawArguments: [[UInt8]], invokedAs argument0: String) -> Int32 {
    if !argument0.isEmpty { AppHost.invocation = argument0 }
    return run(rawArguments: rawArguments)
  }

  /// Runs a command line given as raw bytes (so a URL argument that is not UTF-8 reaches the
  /// router as it is) and returns the exit status.
  package static func run(rawArguments: [[UInt8]], io: CommandIO = .standard) -> Int32 {
    guard let first = rawArguments.first.map({ String(decoding: $0, as: UTF8.self) }),
      !first.hasPrefix("--") || first == "--help" || first == "--version"
    else {
      return InteractiveCommand.run(rawArguments, io: io)
    }
    let rest = Array(rawArguments.dropFirst())
    switch first {
    case "resolve":
      return ResolveCommand.run(rest, io: io)
    case "replay":
      return ReplayCommand.run(rest, io: io)
    case "routes":
      return RoutesCommand.run(rest, io: io)
    case "links":
      return LinksCommand.run(rest, io: io)
    case "openurl", "push", "state", "reload":
      return RemoteCommand.run(first, rest, io: io)
    case "test":
      return TestCommand.run(rest, io: io)
    case "init":
      return InitCommand.run(rest, io: io)
    case "sign-table":
      return SignTableCommand.run(rest, io: io)
    case "-h", "--help":
      io.write(Array(help.utf8))
      return 0
    case "--version":
      io.write(Array("appshell \(version)\n".utf8))
      return 0
    default:
      let what = first.hasPrefix("-") ? "option" : "command"
      let hint = CloseName.hint(for: first, in: first.hasPrefix("-") ? [] : commands.map(\.command))
      io.writeError("appshell: unknown \(what) '\(first)'\(hint)\nSee 'appshell --help'.\n")
      return 2
    }
  }
}
