// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "AppShell",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "appshell", targets: ["appshell"]),
    .library(name: "Routing", targets: ["Routing"]),
    // A team's own app: Swift screens, actions and guards, the command line from its own
    // executable, and a headless session for its tests.
    .library(name: "AppShellKit", targets: ["AppShellKit"]),
  ],
  targets: [
    // Pure URL router: reading URLs, compiling patterns, matching, route tables.
    .target(name: "Routing"),
    // Pure links as iOS delivers them: property lists, AASA files and the delivery decision.
    .target(name: "Links", dependencies: ["Routing"]),
    // Pure app-shell model: navigation state, screens, the navigator and its event log.
    .target(name: "Shell", dependencies: ["Routing", "Links"]),
    // Pure interaction: keys, the URL prompt, completion, the console state of the front end.
    .target(name: "Interface", dependencies: ["Shell", "Routing"]),
    // Pure rendering: the console state to a grid of cells, with display widths.
    .target(name: "Render", dependencies: ["Interface", "Shell", "Routing"]),
    // Pure devices: the terminal device protocol, the in-memory terminal, key decoding.
    .target(name: "Device", dependencies: ["Interface", "Render"]),
    // Key scripts and the headless driver behind `appshell replay`.
    .target(
      name: "Replay", dependencies: ["Device", "Interface", "Render", "Shell", "Routing", "Remote"]),
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
    // OpenSSL 3's libssl, for https downloads; only AppShellCLI's HTTP client imports it.
    .systemLibrary(
      name: "CTLS", pkgConfig: "libssl", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
    // Ed25519 signatures of route tables and digests, through libcrypto (no hand-written crypto).
    .target(name: "Signing", dependencies: ["CCrypto"]),
    // Pure remote control: the socket wire protocol, push payloads, table versions.
    .target(name: "Remote", dependencies: ["Routing"]),
    // The command-line front: argument parsing and the subcommands, callable from tests.
    .target(
      name: "AppShellCLI",
      dependencies: [
        "Routing", "Shell", "Interface", "Render", "Replay", "Device", "Terminal", "Platform",
        "Remote", "Signing", "CTLS", "Links",
      ]),
    // The library for a team's own app (public API; everything it wraps is `package`).
    .target(
      name: "AppShellKit",
      dependencies: ["AppShellCLI", "Shell", "Routing", "Interface", "Render", "Replay"]),
    // The `appshell` executable: a thin `main` over AppShellCLI.
    .executableTarget(name: "appshell", dependencies: ["AppShellCLI"]),
    // Benchmarks: `swift run -c release appshell-bench`.
    .executableTarget(
      name: "appshell-bench",
      dependencies: [
        "Routing", "Shell", "Interface", "Render", "Replay", "AppShellCLI", "Platform", "Links",
      ]),
    .testTarget(name: "RoutingTests", dependencies: ["Routing", "Shell"]),
    .testTarget(name: "SigningTests", dependencies: ["Signing", "Platform"]),
    .testTarget(name: "RemoteTests", dependencies: ["Remote", "Routing"]),
    .testTarget(name: "ShellTests", dependencies: ["Shell", "Routing", "Links"]),
    .testTarget(name: "LinksTests", dependencies: ["Links", "Routing"]),
    .testTarget(
      name: "AppShellCLITests",
      dependencies: ["AppShellCLI", "Platform", "Routing", "Shell", "Links"],
      exclude: ["Goldens", "ExplainGoldens", "Fixtures"]),
    .testTarget(
      name: "AppShellKitTests", dependencies: ["AppShellKit"]),
    .testTarget(
      name: "FrontEndTests",
      dependencies: [
        "Interface", "Render", "Replay", "Device", "Shell", "Routing", "AppShellCLI",
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
    ("fuzz-table", ["Routing"]),
    ("fuzz-keyscript", ["Replay", "Interface"]),
    ("fuzz-wire", ["Remote", "Routing"]),
    ("fuzz-render", ["Render", "Interface", "Shell", "Routing", "AppShellCLI"]),
    ("fuzz-aasa", ["Links", "Routing"]),
    ("fuzz-plist", ["Links"]),
    ("fuzz-entitlements", ["Links"]),
    ("fuzz-app", ["Shell", "Routing"]),
    ("fuzz-contract", ["AppShellCLI"]),
  ]
  for (name, dependencies) in fuzzTargets {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: dependencies, path: "Tests/Fuzz/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
  }
}
