import Foundation
import RouteCodegen
import Routing
import Shell
import TestSupport

/// A package in a temporary directory that compiles generated enums against `Routing` (its
/// sources and those of `JSON`, which it imports, linked in) and runs a check over them; kept between runs so that rebuilding is
/// incremental. The generated code is compiled with warnings as errors.
enum ScratchPackage {
  /// The directory: the system's temporary directory, one per checkout of the sources.
  static var root: String {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in sources.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return FileManager.default.temporaryDirectory.appendingPathComponent(
      "appshell-typed-check-\(String(hash, radix: 16))"
    ).path
  }

  /// The sources of a module of the package (`Routing`, `JSON`).
  static func sources(of module: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/" + module).path
  }

  /// Generates an enum per case (`R0`, `R1`, ...), builds the package and runs the check;
  /// returns its standard output (`FAIL`, `NIL`, `UNSAYABLE` and `COUNT` lines).
  static func run(_ cases: [TypedRoundTripTests.Case]) throws -> String {
    let fileManager = FileManager.default
    let root = root
    let generated = root + "/Sources/Generated"
    let check = root + "/Sources/TypedCheck"
    try? fileManager.removeItem(atPath: generated)
    for directory in [generated, check, root + "/home"] {
      try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    for module in ["Routing", "JSON"] {
      let link = root + "/Sources/" + module
      if (try? fileManager.destinationOfSymbolicLink(atPath: link)) != sources(of: module) {
        try? fileManager.removeItem(atPath: link)
        try fileManager.createSymbolicLink(atPath: link, withDestinationPath: sources(of: module))
      }
    }
    try write(manifest, to: root + "/Package.swift")
    var main = harness
    for (number, item) in cases.enumerated() {
      let table = try RouteTable(json: item.json)
      let declared = item.declared.mapValues {
        $0.mapValues { DeclaredParameter(type: $0.type, required: $0.required) }
      }
      let source = try SwiftEmitter(typeName: "R\(number)", isPublic: true, tableName: item.name)
        .source(for: table, declared: declared)
      try write(source, to: generated + "/R\(number).swift")
      main += "check(R\(number).self, \(number), \(SwiftNames.literal(item.json)), [\n"
      main += item.urls.map { "  " + SwiftNames.literal($0) + ",\n" }.joined() + "])\n"
    }
    // The demo's enum once more as `internal`, to compile that variant too.
    let demo = try RouteTable(json: cases[0].json)
    try write(
      try SwiftEmitter(typeName: "DemoRoute", tableName: "routes.json").source(for: demo),
      to: generated + "/DemoRoute.swift")
    main += "report()\n"
    try write(main, to: check + "/main.swift")

    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = root + "/home"
    environment["XDG_CACHE_HOME"] = root + "/home/.cache"
    let build = try run(
      ["swift", "build", "--package-path", root, "--product", "TypedCheck"],
      environment: environment)
    guard build.status == 0 else {
      throw ScratchError("swift build failed:\n" + build.output.suffix(4000))
    }
    let binPath = try runProcess(
      "/usr/bin/env",
      ["swift", "build", "--package-path", root, "--show-bin-path"], environment: environment)
    let binary = binPath.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/TypedCheck"
    let result = try run([binary], environment: environment)
    guard result.status == 0 else { throw ScratchError("TypedCheck failed:\n" + result.output) }
    return result.output
  }

  struct ScratchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  private static func write(_ text: String, to path: String) throws {
    if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Runs `ARGUMENTS` through `/usr/bin/env`; the status, and standard output then standard
  /// error.
  private static func run(_ arguments: [String], environment: [String: String]) throws
    -> (status: Int32, output: String)
  {
    let result = try runProcess("/usr/bin/env", arguments, environment: environment)
    return (result.status, result.stdout + result.stderr)
  }

  static let manifest = """
    // swift-tools-version: 6.1
    import PackageDescription

    let package = Package(
      name: "TypedCheck",
      platforms: [.macOS(.v13)],
      targets: [
        .target(name: "JSON"),
        .target(name: "Routing", dependencies: ["JSON"]),
        .target(
          name: "Generated", dependencies: ["Routing"],
          swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
        .executableTarget(name: "TypedCheck", dependencies: ["Routing", "Generated"]),
      ],
      swiftLanguageModes: [.v6]
    )

    """

  /// The check: for each URL, the typed value agrees with the resolution, and its URL resolves
  /// back to the same value.
  static let harness = #"""
    import Generated
    import Routing

    nonisolated(unsafe) var counts: [String: Int] = [:]

    func count(_ key: String) { counts[key, default: 0] += 1 }

    func check<R: TypedRoute>(_: R.Type, _ number: Int, _ text: String, _ urls: [String]) {
      count("tables")
      guard let table = try? RouteTable(json: text) else {
        print("FAIL \(number): the table is refused")
        return
      }
      for (index, url) in urls.enumerated() {
        count("urls")
        let place = "\(number) \(index) \(url.debugDescription)"
        let resolution = table.resolve(url)
        let typed = R(resolution)
        guard case .matched(let entry, let params) = resolution.outcome else {
          if typed != nil { print("FAIL \(place): a value for a URL that matched nothing") }
          continue
        }
        guard let typed else {
          print("NIL \(number) \(index)")
          continue
        }
        count("typed")
        guard typed.target == entry.target else {
          print("FAIL \(place): target \(typed.target), resolved \(entry.target)")
          continue
        }
        let captured = Set(entry.pattern.allCaptureNames.map { entry.rename[$0] ?? $0 })
        let disagreeing = typed.parameters.filter { key, value in
          !(params[key].map(value.isSame) ?? false)
        }.map(\.key) + params.keys.filter { captured.contains($0) && typed.parameters[$0] == nil }
        guard disagreeing.isEmpty else {
          print("FAIL \(place): \(disagreeing) typed \(typed.parameters), resolved \(params)")
          continue
        }
        guard let back = typed.url(in: table, scheme: "myapp") else {
          count("unsayable")
          count("unsayable-\(number)")
          print("UNSAYABLE \(place) \(typed)")
          continue
        }
        guard R(table.resolve(back)) == typed else {
          print("FAIL \(place): \(typed) -> \(back.debugDescription) -> \(table.resolve(back))")
          continue
        }
        count("back")
      }
    }

    func report() {
      for (key, value) in counts.sorted(by: { $0.key < $1.key }) { print("COUNT \(key) \(value)") }
    }


    """#
}
