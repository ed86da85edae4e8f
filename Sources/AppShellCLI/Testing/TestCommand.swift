import AppRuntime
import Foundation
import Interface
import Render
import Replay
import Routing
import Shell
import Surface

/// `appshell test [--screens DIR] [--junit FILE] [--update] [-j N] [PATH...]`: runs flows
/// (`*.keys`, against `NAME.golden` beside them) and link contracts (`*.links.json`).
enum TestCommand {
  /// The usage of `test`.
  static let usage = Usage(
    command: "test",
    forms: [
      """
      appshell test [--screens DIR] [--junit FILE] [--update] [-j N]
                    [--coverage] [--coverage-json FILE] [--min-coverage PCT] [PATH...]
      """
    ],
    summary: "Run flows and link contracts (as CI does); JUnit XML on request.")

  static let help = """
    OVERVIEW: Run an app's flows and link contracts, as CI does.

    \(usage.section)

    ARGUMENTS:
      PATH                A flow (NAME.keys, checked against NAME.golden beside it when
                          there is one), a link contract (NAME.links.json), or a directory
                          searched for both (default: the app directory's flows/).

    OPTIONS:
      --screens DIR       The app's directory (default: the shipped demo's Screens/).
      --junit FILE        Also write the results as JUnit XML to FILE.
      --update            Write each flow's golden (creating missing ones) instead of
                          comparing with it; 'ok PATH (wrote GOLDEN)' names each one
                          that was missing or changed.
      -j N                Run N tests at a time (default: the number of cores).
      --coverage          After the tests, say which route expansions, destinations and
                          link components (AASA components, schemes) they exercised and
                          list what they did not, before the last line.
      --coverage-json FILE
                          Also write the coverage as JSON to FILE (implies --coverage).
      --min-coverage PCT  Exit 1 when route coverage is below PCT percent, even when
                          every test passed (implies --coverage).
      -h, --help          Show this help.

    It prints 'ok   PATH' or 'FAIL PATH: REASON' (with details indented below) per test,
    in path order, then 'N passed, M failed'. A flow may start with a '# size: COLSxROWS'
    comment (default 80x24). A PATH that does not exist, or a file that cannot be read or
    parsed, is one failed test whose reason says where ('FILE: ...' or 'FILE:LINE:COL: ...').
    Exit 0 when every test passed, 1 when any failed, 2 when a file or an option was
    unusable or a directory held no flows or link contracts.

    """

  /// One test's result.
  struct Result: Sendable {
    /// The path as printed (with `#N URL` for a contract case).
    var name: String
    /// Why it failed; nil when it passed.
    var reason: String?
    /// What was expected and what was found, one line each.
    var details: [String] = []
    /// The app's event log at the end: the URLs the test opened (for coverage).
    var log: [LogEntry] = []
    /// The golden `--update` wrote, as printed, when it was missing or differed.
    var wrote: String?
  }

  /// The results of one file: its tests, or one failed test when it could not be used.
  struct FileResult: Sendable {
    /// The file's path as printed.
    var path: String
    /// Its tests.
    var tests: [Result]
    /// Whether the file could not be read or parsed.
    var unusable = false
  }

  /// What runs a file: the app, and whether goldens are written.
  struct Setup: Sendable {
    var app: ShellApp
    var screens: String?
    var update: Bool
  }

  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "test")
    var screens: String?
    var junit: String?
    var update = false
    var jobs = ProcessInfo.processInfo.activeProcessorCount
    var coverage = false
    var coverageJSON: String?
    var minCoverage: Double?
    var paths: [String] = []
    while let argument = options.next() {
      if options.ended {
        paths.append(argument)
        continue
      }
      switch argument {
      case "-h", "--help":
        io.write(Array(help.utf8))
        return 0
      case "--screens":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        screens = value
      case "--junit":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        junit = value
      case "--coverage":
        guard !options.hasValue else { return options.fail(io, "--coverage takes no value") }
        coverage = true
      case "--coverage-json":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        coverageJSON = value
        coverage = true
      case "--min-coverage":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        guard let percent = Double(value.hasSuffix("%") ? String(value.dropLast()) : value),
          percent >= 0, percent <= 100
        else {
          return options.fail(io, "--min-coverage needs a percentage from 0 to 100, not '\(value)'")
        }
        minCoverage = percent
        coverage = true
      case "--update":
        guard !options.hasValue else { return options.fail(io, "--update takes no value") }
        update = true
      case "-j":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        guard let count = Int(value), count >= 1 else {
          return options.fail(
            io, "-j needs a number of tests at a time (1 or more), not '\(value)'")
        }
        jobs = count
      default:
        if argument.hasPrefix("-j"), let count = Int(argument.dropFirst(2)), count >= 1 {
          jobs = count
        } else if argument.hasPrefix("-") {
          return options.fail(io, Options.unknown(argument, help: help))
        } else {
          paths.append(argument)
        }
      }
    }
    let app: ShellApp
    do {
      app = try AppLoader.loadApp(screens: screens, routes: nil)
    } catch {
      io.writeError("appshell test: \(error)\n")
      return 2
    }
    if paths.isEmpty {
      let flows = (screens ?? AppLoader.shippedScreensDirectory()) + "/flows"
      guard FileManager.default.fileExists(atPath: flows) else {
        io.writeError(
          "appshell test: no flows or link contracts in \(flows): no such directory (name a PATH)\n"
        )
        return 2
      }
      paths = [flows]
    }
    let (files, empty) = collect(paths)
    let setup = Setup(app: app, screens: screens, update: update)
    var out = OutputBuffer(io)
    var passed = 0
    var failed = 0
    var results: [FileResult] = []
    func report(_ result: FileResult) {
      for test in result.tests {
        if let reason = test.reason {
          failed += 1
          out.append("FAIL \(test.name): \(inert(reason))\n")
          for line in test.details { out.append("    \(inert(line))\n") }
        } else {
          passed += 1
          out.append("ok   \(test.name)\(test.wrote.map { " (wrote \($0))" } ?? "")\n")
        }
      }
      out.flush()
      results.append(result)
    }
    ParallelRunner.run(files, jobs: jobs, work: { runFile($0, setup: setup) }, each: report)
    var figures = Coverage(app)
    var belowMinimum = false
    if coverage {
      for test in results.flatMap(\.tests) { figures.record(test.log) }
      for line in figures.lines { out.append(inert(line) + "\n") }
      if let minCoverage,
        Double(figures.routes.coveredCount * 100) < minCoverage
          * Double(max(1, figures.routes.all.count))
      {
        belowMinimum = true
        let shown =
          minCoverage.rounded() == minCoverage ? String(Int(minCoverage)) : String(minCoverage)
        out.append(
          "coverage: routes \(figures.routes.percent)% is below --min-coverage \(shown)%\n")
      }
      if let coverageJSON {
        let text = figures.json.serialized + "\n"
        guard FileManager.default.createFile(atPath: coverageJSON, contents: Data(text.utf8)) else {
          out.flush()
          io.writeError("appshell test: \(coverageJSON): cannot write the coverage report\n")
          return 2
        }
      }
    }
    out.append("\(passed) passed, \(failed) failed\n")
    out.flush()
    if let junit {
      let xml = JUnitReport.xml(
        results, properties: coverage ? JUnitReport.properties(figures) : [])
      guard FileManager.default.createFile(atPath: junit, contents: Data(xml.utf8)) else {
        io.writeError("appshell test: \(junit): cannot write the JUnit report\n")
        return 2
      }
    }
    // A CI run that finds nothing to test must not pass.
    for directory in empty {
      io.writeError("appshell test: no flows or link contracts in \(directory)\n")
    }
    if results.contains(where: \.unusable) || !empty.isEmpty { return 2 }
    return failed == 0 && !belowMinimum ? 0 : 1
  }

  /// A file to run: its path as printed and its path on disk.
  struct File: Sendable {
    var shown: String
    var path: String
  }

  /// The flows and contracts under the paths, sorted by the path as printed (byte order); a
  /// path that does not exist, or a file that is neither, stays in to fail. `empty` holds the
  /// directories with neither below them.
  static func collect(_ paths: [String]) -> (files: [File], empty: [String]) {
    var files: [File] = []
    var empty: [String] = []
    let fileManager = FileManager.default
    for path in paths {
      var isDirectory: ObjCBool = false
      guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
      else {
        files.append(File(shown: path, path: path))
        continue
      }
      let base = path.hasSuffix("/") ? path : path + "/"
      let below = (fileManager.subpaths(atPath: path) ?? []).filter {
        $0.hasSuffix(".keys") || $0.hasSuffix(".links.json")
      }
      if below.isEmpty { empty.append(path) }
      for name in below {
        files.append(File(shown: base + name, path: base + name))
      }
    }
    return (files.sorted { $0.shown.utf8.lexicographicallyPrecedes($1.shown.utf8) }, empty)
  }

  /// Runs the tests of one file.
  static func runFile(_ file: File, setup: Setup) -> FileResult {
    func unusable(_ reason: String) -> FileResult {
      FileResult(
        path: file.shown, tests: [Result(name: file.shown, reason: reason)], unusable: true)
    }
    guard FileManager.default.fileExists(atPath: file.path) else {
      // A relative PATH that is missing is most often one meant from elsewhere.
      let relative =
        file.shown.hasPrefix("/")
        ? ""
        : " (a PATH is taken from the current directory, "
          + "\(FileManager.default.currentDirectoryPath); with no PATH, the app's own flows/ run)"
      return unusable("\(file.shown): no such file or directory\(relative)")
    }
    if file.path.hasSuffix(".links.json") {
      guard let data = FileManager.default.contents(atPath: file.path) else {
        return unusable("\(file.shown): cannot read the link contract")
      }
      let contract: LinkContract
      do {
        contract = try LinkContract(text: String(decoding: data, as: UTF8.self), file: file.shown)
      } catch {
        return unusable(error.description)
      }
      let tests = contract.cases.map { item in
        let (problems, log) = LinkContract.runLogged(item, app: setup.app)
        return Result(
          name: "\(file.shown)#\(item.number) \(item.url)",
          reason: problems.isEmpty
            ? nil : "\(problems.count) expectation\(problems.count == 1 ? "" : "s") failed",
          details: problems, log: log)
      }
      return FileResult(path: file.shown, tests: tests)
    }
    guard file.path.hasSuffix(".keys") else {
      return unusable("\(file.shown): not a flow (.keys) or a link contract (.links.json)")
    }
    return runFlow(file, setup: setup)
  }

  /// Runs one flow and compares it with its golden (or writes the golden); a flow that
  /// cannot be read or parsed is unusable.
  static func runFlow(_ file: File, setup: Setup) -> FileResult {
    let name = file.shown
    guard let text = FlowRun.readScript(file.path) else {
      return FileResult(
        path: name, tests: [Result(name: name, reason: "\(name): cannot read the flow")],
        unusable: true)
    }
    let script: KeyScript
    do {
      script = try KeyScript(parsing: text, file: name)
    } catch {
      return FileResult(
        path: name, tests: [Result(name: name, reason: error.description)], unusable: true)
    }
    return FileResult(path: name, tests: [runFlow(script, text: text, file: file, setup: setup)])
  }

  /// Runs a parsed flow.
  private static func runFlow(_ script: KeyScript, text: String, file: File, setup: Setup)
    -> Result
  {
    let name = file.shown
    let size = FlowRun.size(ofScript: text) ?? Size(columns: 80, rows: 24)
    var replayer = FlowRun.replayer(
      app: setup.app, files: AppFileOptions(routes: nil, screens: setup.screens), size: size,
      open: nil)
    let playback = replayer.play(script)
    let log = replayer.console.model.log
    if let failure = playback.failure {
      return Result(
        name: name, reason: failure.line,
        details: ["the screen then:"]
          + failure.snapshot.grid.text.split(
            separator: "\n", omittingEmptySubsequences: false
          ).dropLast().map { "| " + $0 }, log: log)
    }
    let golden = String(file.path.dropLast(".keys".count)) + ".golden"
    let output = FlowRun.output(playback, format: .text, statesOnly: false)
    let shownGolden = String(name.dropLast(".keys".count)) + ".golden"
    let data = FileManager.default.contents(atPath: golden)
    if setup.update {
      guard data != Data(output.utf8) else { return Result(name: name, log: log) }
      guard FileManager.default.createFile(atPath: golden, contents: Data(output.utf8)) else {
        return Result(name: name, reason: "\(golden): cannot write the golden", log: log)
      }
      return Result(name: name, log: log, wrote: shownGolden)
    }
    guard let data else { return Result(name: name, log: log) }
    guard
      let diff = LineDiff.describe(
        expected: String(decoding: data, as: UTF8.self), actual: output,
        expectedName: shownGolden, actualName: "this run")
    else { return Result(name: name) }
    return Result(
      name: name, reason: "differs from \(shownGolden) (rewrite it with --update)",
      details: diff.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(
        String.init), log: log)
  }
}
