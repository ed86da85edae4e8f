// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "AppShell",
  // Routing and the code generated from a table build for these and Linux; the rest of the
  // package is for Linux and macOS.
  platforms: [.iOS(.v15), .macOS(.v13), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
  products: [
    .executable(name: "appshell", targets: ["appshell"]),
    // The router, and the explanation of a match as data (`import RouteExplain`).
    .library(name: "Routing", targets: ["Routing", "RouteExplain"]),
    // A team's own app: Swift screens, actions and guards, the command line from its own
    // executable, and a headless session for its tests.
    .library(name: "AppShellKit", targets: ["AppShellKit"]),
    // Generates a `TypedRoute` enum from each `routes.json` (or `NAME.routes.json`) of a target.
    .plugin(name: "RoutesPlugin", targets: ["RoutesPlugin"]),
  ],
  targets: [
    // Pure JSON: the reader (with each value's position) and the writer every module uses.
    .target(name: "JSON"),
    // Pure URL router: reading URLs, compiling patterns, matching, route tables, the regex
    // engine. Its API speaks JSON (a table's document, parameters as JSON), so it re-exports it.
    .target(name: "Routing", dependencies: ["JSON"]),
    // Pure explanation of a match (`resolve --explain`): every route's verdict for a URL, why it
    // failed or lost, hop by hop along redirects; worked out route by route, apart from the trie.
    .target(name: "RouteExplain", dependencies: ["Routing", "JSON"]),
    // Pure code generation: a route table's destinations as a Swift `TypedRoute` enum.
    .target(name: "RouteCodegen", dependencies: ["Routing", "JSON"]),
    // The tool the plugin runs: a table file in, the Swift source out (only Routing under it).
    .executableTarget(name: "appshell-routegen", dependencies: ["Routing", "RouteCodegen"]),
    .plugin(name: "RoutesPlugin", capability: .buildTool(), dependencies: ["appshell-routegen"]),
    // Pure links as iOS delivers them: property lists, AASA files and the delivery decision.
    .target(name: "Links", dependencies: ["Routing", "JSON"]),
    // Pure lint of a route table on its own (conflicts, parents, routes that never win) and the
    // findings every lint check reports, for `routes --lint`.
    .target(name: "Lint", dependencies: ["Routing", "JSON"]),
    // Pure app-shell model: navigation state, screens, the navigator and its event log, the
    // lint checks that need the app.
    .target(name: "Shell", dependencies: ["Routing", "JSON", "Links", "RouteCodegen", "Lint"]),
    // Pure link surface: witness URLs of every route expansion, the committed dump, the diff
    // of two versions of an app (what a release breaks) and test coverage.
    .target(name: "Surface", dependencies: ["Routing", "JSON", "Links", "Shell"]),
    // Pure interaction: keys, the URL prompt, completion, the console state of the front end.
    .target(name: "Interface", dependencies: ["Shell", "Routing"]),
    // Pure rendering: the console state to a grid of cells, with display widths.
    .target(name: "Render", dependencies: ["Interface", "Shell", "Routing", "JSON"]),
    // Pure devices: the terminal device protocol, the in-memory terminal, key decoding.
    .target(name: "Device", dependencies: ["Interface", "Render"]),
    // Key scripts and the headless driver behind `appshell replay`.
    .target(
      name: "Replay",
      dependencies: [
        "Device", "Interface", "Render", "Shell", "Routing", "JSON", "Remote",
      ]),
    // The system calls that differ between Linux (Glibc) and macOS (Darwin): signals, sockets,
    // file watching, child processes, the executable's path and memory. The rest calls these.
    .target(name: "Platform"),
    // ncurses, imported only by Terminal: the wide-character library on Linux, the system's
    // on macOS (whose wide-character functions are in libncurses). Two modules, because a module
    // map's `link` cannot depend on the platform; they share one shim.
    .systemLibrary(
      name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
    .systemLibrary(name: "CNcurses", providers: [.brew(["ncurses"])]),
    // The ncurses terminal, input, signals and the crash guard that restores the terminal.
    .target(
      name: "Terminal",
      dependencies: [
        .target(name: "CNcursesw", condition: .when(platforms: [.linux])),
        .target(name: "CNcurses", condition: .when(platforms: [.macOS])),
        "Device", "Platform", "Render", "Interface",
      ]),
    // OpenSSL 3's libcrypto; only Signing imports it. On macOS, Homebrew's keg-only openssl@3:
    // PKG_CONFIG_PATH must name its lib/pkgconfig.
    .systemLibrary(
      name: "CCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
    // OpenSSL 3's libssl, for https downloads; only AppRuntime's HTTP client imports it.
    .systemLibrary(
      name: "CTLS", pkgConfig: "libssl", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
    // Ed25519 signatures of route tables and digests, through libcrypto (no hand-written crypto).
    .target(name: "Signing", dependencies: ["CCrypto"]),
    // Pure remote control: the socket wire protocol, push payloads, table versions.
    .target(name: "Remote", dependencies: ["Routing", "JSON"]),
    // The runtime every command drives: loading an app, the event loop, route-table sources
    // (files, downloads, the cache), the socket server and client, the key recorder.
    .target(
      name: "AppRuntime",
      dependencies: [
        "Routing", "JSON", "Shell", "Interface", "Render", "Replay", "Device", "Terminal",
        "Platform", "Remote", "Signing", "CTLS", "Links",
      ]),
    // The command-line front: argument parsing and the subcommands, callable from tests.
    .target(
      name: "AppShellCLI",
      dependencies: [
        "AppRuntime", "Routing", "JSON", "Shell", "Interface", "Render", "Replay", "Device",
        "Terminal", "Platform", "Remote", "Signing", "Links", "RouteCodegen", "Surface", "Lint",
        "RouteExplain",
      ]),
    // The library for a team's own app (public API; everything it wraps is `package`).
    .target(
      name: "AppShellKit",
      dependencies: [
        "AppRuntime", "AppShellCLI", "Shell", "Routing", "Interface", "Render", "Replay",
      ]),
    // The shipped demo's Swift screens and actions (`Screens/` is its data), registered through
    // AppShellKit's `AppSetup` for the app named in `Screens/app.json`.
    .target(name: "Demo", dependencies: ["AppShellKit", "Shell", "Routing"]),
    // The `appshell` executable: a thin `main` over AppShellCLI that registers the demo.
    .executableTarget(name: "appshell", dependencies: ["AppShellCLI", "Demo"]),
    // Benchmarks: `swift run -c release appshell-bench`.
    .executableTarget(
      name: "appshell-bench",
      dependencies: [
        "Routing", "JSON", "Shell", "Interface", "Render", "Replay", "AppRuntime", "AppShellCLI",
        "Platform", "Links", "Demo", "RouteCodegen", "Surface",
      ]),
    // Shared by the test targets: the in-process command runner, the golden check with its one
    // update switch, temporary and private directories, the seeded generator, fixture apps.
    .target(
      name: "TestSupport",
      dependencies: ["Replay", "AppShellCLI", "Demo", "Shell", "Routing", "JSON"],
      path: "Tests/TestSupport", exclude: ["Apps"]),
    .testTarget(
      name: "RoutingTests",
      dependencies: [
        "Routing", "JSON", "RouteExplain", "Lint", "RouteCodegen", "Shell", "Surface",
        "AppRuntime", "AppShellCLI", "TestSupport",
      ]),
    .testTarget(name: "SigningTests", dependencies: ["Signing", "Platform", "TestSupport"]),
    .testTarget(name: "RemoteTests", dependencies: ["Remote", "Routing", "JSON"]),
    .testTarget(
      name: "ShellTests",
      dependencies: ["Shell", "Routing", "JSON", "Links", "Demo", "TestSupport"]),
    .testTarget(name: "LinksTests", dependencies: ["Links", "Routing", "TestSupport"]),
    .testTarget(
      name: "AppShellCLITests",
      dependencies: [
        "AppRuntime", "AppShellCLI", "Platform", "Routing", "JSON", "Shell", "Links", "Demo",
        "TestSupport", "Surface", "Lint",
      ],
      exclude: ["Goldens", "ExplainGoldens", "Fixtures"]),
    .testTarget(
      name: "AppShellKitTests", dependencies: ["AppShellKit", "TestSupport"]),
    .testTarget(
      name: "FrontEndTests",
      dependencies: [
        "Interface", "Render", "Replay", "Device", "Shell", "Routing", "JSON", "AppRuntime",
        "AppShellCLI", "Demo", "TestSupport",
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// Fuzz targets (Tests/Fuzz, libFuzzer): only when APPSHELL_FUZZ is set, because they have no
// `main` of their own and link only with `--sanitize fuzzer`. Built and run by `Tests/Fuzz/run`.
if Context.environment["APPSHELL_FUZZ"] != nil {
  let fuzzTargets: [(String, [Target.Dependency])] = [
    ("fuzz-url", ["Routing"]),
    ("fuzz-pattern", ["Routing"]),
    ("fuzz-table", ["Routing", "JSON"]),
    ("fuzz-keyscript", ["Replay", "Interface"]),
    ("fuzz-wire", ["Remote", "Routing"]),
    ("fuzz-render", ["Render", "Interface", "Shell", "Routing", "AppRuntime", "Demo"]),
    ("fuzz-aasa", ["Links", "Routing", "JSON"]),
    ("fuzz-plist", ["Links"]),
    ("fuzz-entitlements", ["Links"]),
    ("fuzz-app", ["Shell", "Routing", "JSON"]),
    ("fuzz-contract", ["AppShellCLI"]),
  ]
  for (name, dependencies) in fuzzTargets {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: dependencies, path: "Tests/Fuzz/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
  }
}
