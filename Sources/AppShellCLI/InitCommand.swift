import AppRuntime
import Foundation
import Links

/// `appshell init DIR [--name NAME] [--scheme SCHEME]`: writes a small working app.
enum InitCommand {
  /// The usage of `init`.
  static let usage = Usage(
    command: "init",
    forms: ["appshell init DIR [--name NAME] [--scheme SCHEME]"],
    summary: """
      Write a small app of your own (app.json, routes, screens, a flow
      and a link contract that 'appshell test' runs).
      """)

  static let help = """
    OVERVIEW: Write a small working app into DIR: app.json, routes.json, a few screens, a
    flow (a key script with its golden), a link contract that 'appshell test' runs, and
    links.surface, the app's link surface for CI to check ('appshell links dump --check').

    \(usage.section)

    ARGUMENTS:
      DIR                 The app's directory: created if missing; it must be empty.

    OPTIONS:
      --name NAME         The app's name (default: "My App").
      --scheme SCHEME     The URL scheme of its routes (default: "myapp").
      -h, --help          Show this help.

    In CI, 'appshell links dump --screens DIR --check DIR/links.surface' fails when the link
    surface changed; in a pull request, 'appshell links diff git:origin/main DIR' says what
    the change breaks for URLs already out there.

    """

  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "init")
    var directory: String?
    var name = "My App"
    var scheme = "myapp"
    while let argument = options.next() {
      switch argument {
      case "-h", "--help":
        io.write(Array(help.utf8))
        return 0
      case "--name":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        name = value
      case "--scheme":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        scheme = value
      default:
        if argument.hasPrefix("-") && !options.ended {
          return options.fail(io, Options.unknown(argument, help: help))
        }
        guard directory == nil else {
          return options.fail(io, "unexpected argument '\(argument)'")
        }
        directory = argument
      }
    }
    guard let directory else { return options.fail(io, "needs a directory: appshell init DIR") }
    guard !name.isEmpty, !name.contains(where: { $0.isNewline || $0 == "\"" || $0 == "\\" })
    else {
      return options.fail(io, "--name needs a non-empty name without quotes or line breaks")
    }
    if let problem = LinksDefinition.schemeProblem(scheme) {
      return options.fail(
        io,
        "--scheme needs a URL scheme (a letter, then letters, digits, '+', '-' or '.'; not http"
          + " or https): \(problem)")
    }
    let fileManager = FileManager.default
    var isDirectory: ObjCBool = false
    if fileManager.fileExists(atPath: directory, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        io.writeError("appshell init: \(directory): exists and is not a directory\n")
        return 2
      }
      let contents = (try? fileManager.contentsOfDirectory(atPath: directory)) ?? ["?"]
      guard contents.isEmpty else {
        io.writeError(
          "appshell init: \(directory): is not empty; init writes into a new or empty directory\n")
        return 2
      }
    }
    let files = StarterApp.files(name: name, scheme: scheme)
    do {
      try fileManager.createDirectory(
        atPath: directory + "/flows", withIntermediateDirectories: true)
      for (path, text) in files {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + path))
      }
    } catch {
      io.writeError("appshell init: \(directory): \(error.localizedDescription)\n")
      return 1
    }
    // The flow's golden is what it shows now; then the whole suite must pass.
    var problem = ""
    let quiet = CommandIO(
      read: { nil }, write: { problem += String(decoding: $0, as: UTF8.self) },
      writeError: { problem += $0 })
    let flows = directory + "/flows"
    guard AppShellCommand.run(["test", "--screens", directory, "--update", flows], io: quiet) == 0,
      AppShellCommand.run(["test", "--screens", directory, flows], io: quiet) == 0
    else {
      io.writeError("appshell init: the starter tests do not pass:\n\(problem)")
      return 1
    }
    let surface = directory + "/" + StarterApp.surface
    guard
      AppShellCommand.run(
        ["links", "dump", "--screens", directory, "--output", surface], io: quiet) == 0
    else {
      io.writeError("appshell init: cannot write \(surface):\n\(problem)")
      return 1
    }
    let quoted = KeyRecorder.shellQuoted(directory)
    let program = KeyRecorder.shellQuoted(AppHost.invocation)
    let screenCount = files.keys.filter {
      !$0.contains("/") && $0.hasSuffix(".json") && $0 != "app.json" && $0 != "routes.json"
    }.count
    io.write(
      Array(
        """
        Wrote the app \(name) (\(scheme)://) to \(directory):
          app.json, routes.json, \(screenCount) screens, \(StarterApp.flow).keys and its golden, \(StarterApp.contract),
          \(StarterApp.surface) (its link surface: every route's witness URLs and what they open)

        Run it:               \(program) --screens \(quoted)
        Replay its flow:      \(program) replay --screens \(quoted) \(KeyRecorder.shellQuoted(directory + "/" + StarterApp.flow + ".keys"))
        Check its routes:     \(program) routes --lint --screens \(quoted)
        Test it (as CI does): \(program) test --screens \(quoted)
        Re-record the golden: \(program) test --screens \(quoted) --update
        Check the links in CI: \(program) links dump --screens \(quoted) --check \(quoted)/\(StarterApp.surface)
        In a pull request:    \(program) links diff git:origin/main \(quoted) --format markdown
                              (once the app is committed to git: what the change breaks
                              for URLs already out there)

        The format of app.json is in docs/app.md; flows and link contracts in docs/testing.md;
        guarding links across releases in docs/surface.md.

        """.utf8))
    return 0
  }
}

/// The app `appshell init` writes.
enum StarterApp {
  /// The flow's path without its extension.
  static let flow = "flows/first-run"
  /// The link contract's path.
  static let contract = "flows/links.links.json"
  /// The committed link surface's path.
  static let surface = "links.surface"

  /// Path -> contents.
  static func files(name: String, scheme s: String) -> [String: String] {
    [
      "app.json": """
      {
        "name": "\(name)",
        "version": "1.0.0",
        "tabs": [
          { "title": "Home", "root": "\(s)://home" },
          { "title": "Account", "root": "\(s)://account" }
        ],
        "flags": { "signedIn": false, "saved": 0 },
        "guards": {
          "signed-in": { "requires": { "signedIn": true }, "open": "\(s)://login" }
        },
        "actions": {
          "sign-in": { "set": { "signedIn": true }, "status": "Signed in", "then": "dismiss" },
          "sign-out": { "set": { "signedIn": false }, "status": "Signed out" },
          "save": { "after": 0.5, "add": { "saved": 1 }, "status": "Saved item {{id}} ({{flags.saved}} saved)" }
        }
      }

      """,
      "routes.json": """
      {
        "routes": [
          { "pattern": "\(s)://home", "screen": "home" },
          { "pattern": "\(s)://items/<int:id>", "screen": "item", "parent": "\(s)://home" },
          { "pattern": "\(s)://items/<int:id>/save", "action": "save" },
          { "pattern": "\(s)://account", "screen": "account" },
          { "pattern": "\(s)://orders", "screen": "orders", "guard": "signed-in", "parent": "\(s)://account" },
          { "pattern": "\(s)://login", "screen": "login", "presentation": "present" },
          { "pattern": "\(s)://session/sign-in", "action": "sign-in", "external": false },
          { "pattern": "\(s)://session/sign-out", "action": "sign-out", "external": false }
        ]
      }

      """,
      "home.json": """
      {
        "name": "home",
        "title": "\(name)",
        "body": ["Welcome to \(name).", "Saved items: {{flags.saved}}"],
        "links": [
          { "label": "Item 1", "url": "\(s)://items/1" },
          { "label": "Item 2", "url": "\(s)://items/2" },
          { "label": "Your orders", "url": "\(s)://orders" }
        ]
      }

      """,
      "item.json": """
      {
        "name": "item",
        "title": "Item {{id}}",
        "params": { "id": { "type": "int", "required": true } },
        "body": ["Item number {{id}}.", "Saved items: {{flags.saved}}"],
        "links": [{ "label": "Save it", "url": "\(s)://items/{{id}}/save" }]
      }

      """,
      "account.json": """
      {
        "name": "account",
        "title": "Account",
        "body": ["Signed in: {{flags.signedIn}}"],
        "links": [
          { "label": "Your orders", "url": "\(s)://orders" },
          { "label": "Sign out", "url": "\(s)://session/sign-out" }
        ]
      }

      """,
      "orders.json": """
      {
        "name": "orders",
        "title": "Your orders",
        "body": ["No orders yet."]
      }

      """,
      "login.json": """
      {
        "name": "login",
        "title": "Sign in",
        "body": ["A demo account: no password needed.", "Esc cancels."],
        "links": [{ "label": "Sign in", "url": "\(s)://session/sign-in" }]
      }

      """,
      flow + ".keys": """
      # A first run: open an item, save it (that takes half a second), then open the orders,
      # which asks to sign in first. Test: appshell test --screens DIR
      \(s)://items/1<Enter><ExpectScreen item><Snap>
      <Down><Enter><WaitFor "Saved item 1"><Snap>
      \(s)://orders<Enter><ExpectScreen login><Snap>
      <Down><Enter><Expect "Your orders"><ExpectNot "Sign in">

      """,
      contract: """
      {
        "cases": [
          { "url": "\(s)://items/7", "expect": { "screen": "item", "title": "Item 7", "params": { "id": 7 }, "tab": "Home", "stack": ["home", "item"], "presentation": "push" } },
          { "url": "\(s)://items/7", "from": "cold", "expect": { "stack": ["home", "item"], "alert": null } },
          { "url": "\(s)://orders", "expect": { "screen": "login", "presentation": "present", "status": "Sign in to open \(s)://orders" } },
          { "url": "\(s)://session/sign-in", "from": "outside", "expect": { "refused": true, "alert": "Refused" } },
          { "url": "\(s)://nowhere", "expect": { "matched": false, "alert": "No route" } },
          { "url": "\(s)://items/3/save", "expect": { "action": "save", "status": "Saved item 3 (1 saved)" } },
          { "url": "\(s)://account", "from": "outside", "expect": { "opens": "app", "matched": true, "screen": "account", "tab": "Home" } }
        ]
      }

      """,
    ]
  }
}
