// swift-tools-version: 6.1
import PackageDescription

let package = Package(
  name: "AppShell",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "appshell", targets: ["appshell"]),
    .library(name: "Routing", targets: ["Routing"]),
  ],
  targets: [
    // Pure URL router: reading URLs, compiling patterns, matching, route tables.
    .target(name: "Routing"),
    // Pure app-shell model: navigation state, screens, the navigator and its event log.
    .target(name: "Shell", dependencies: ["Routing"]),
    // Pure interaction: keys, the URL prompt, completion, the console state of the front end.
    .target(name: "Interface", dependencies: ["Shell", "Routing"]),
    // Pure rendering: the console state to a grid of cells, with display widths.
    .target(name: "Render", dependencies: ["Interface", "Shell", "Routing"]),
    // Key scripts and the headless driver behind `appshell replay`.
    .target(name: "Replay", dependencies: ["Interface", "Render", "Shell", "Routing", "Terminal"]),
    // The system ncurses library (wide-character build); only Terminal imports it.
    .systemLibrary(
      name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
    // Terminal devices (ncurses, and one in memory), key decoding, input, signals, crash restore.
    .target(name: "Terminal", dependencies: ["CNcursesw", "Render", "Interface"]),
    // OpenSSL's libcrypto; only Signing imports it.
    .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    // OpenSSL's libssl, for https downloads; only AppShellCLI's HTTP client imports it.
    .systemLibrary(name: "CTLS", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
    // Ed25519 signatures of route tables and digests, through libcrypto (no hand-written crypto).
    .target(name: "Signing", dependencies: ["CCrypto"]),
    // Pure remote control: the socket wire protocol, push payloads, table versions.
    .target(name: "Remote", dependencies: ["Routing"]),
    // The command-line front: argument parsing and the subcommands, callable from tests.
    .target(
      name: "AppShellCLI",
      dependencies: [
        "Routing", "Shell", "Interface", "Render", "Replay", "Terminal", "Remote", "Signing",
        "CTLS",
      ]),
    // The `appshell` executable: a thin `main` over AppShellCLI.
    .executableTarget(name: "appshell", dependencies: ["AppShellCLI"]),
    // Benchmarks: `swift run -c release appshell-bench`.
    .executableTarget(
      name: "appshell-bench",
      dependencies: ["Routing", "Shell", "Interface", "Render", "Replay", "AppShellCLI"]),
    .testTarget(name: "RoutingTests", dependencies: ["Routing"]),
    .testTarget(name: "SigningTests", dependencies: ["Signing"]),
    .testTarget(name: "RemoteTests", dependencies: ["Remote", "Routing"]),
    .testTarget(name: "ShellTests", dependencies: ["Shell", "Routing"]),
    .testTarget(
      name: "AppShellCLITests", dependencies: ["AppShellCLI", "Routing", "Shell"],
      exclude: ["Goldens", "ExplainGoldens", "Fixtures"]),
    .testTarget(
      name: "FrontEndTests",
      dependencies: [
        "Interface", "Render", "Replay", "Terminal", "Shell", "Routing", "AppShellCLI",
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
  ]
  for (name, dependencies) in fuzzTargets {
    package.targets.append(
      .executableTarget(
        name: name, dependencies: dependencies, path: "Tests/Fuzz/\(name)",
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
  }
}
