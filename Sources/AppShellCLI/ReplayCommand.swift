import AppRuntime
import Foundation
import Interface
import Platform
import Replay
import Routing
import Shell

/// `appshell replay [--size 80x24] [--routes FILE] [--screens DIR] [--state] [--open URL]
/// [--format text|ansi|svg|cast [--output DIR]] SCRIPT`: a key script played against an
/// in-memory terminal.
enum ReplayCommand {
  /// The usage of `replay`.
  static let usage = Usage(
    command: "replay",
    forms: [
      """
      appshell replay [--size COLSxROWS] [--routes FILE] [--screens DIR] [--state]
                      [--open URL] [--format text|ansi|svg|cast [--output DIR]]
                      [--expect GOLDEN [--update]] SCRIPT
      """
    ],
    summary: "Run a key script headless and print the screens or states.")

  static let help = """
    OVERVIEW: Run a key script against an in-memory terminal and print the screens.

    \(usage.section)

    ARGUMENTS:
      SCRIPT              The key script (see docs/shell.md); '-' reads standard input.

    OPTIONS:
      --size COLSxROWS    The terminal size (default: the script's '# size: COLSxROWS'
                          comment when it starts with one, else 80x24).
      --routes FILE       The route table (default: the screens directory's routes.json).
      --screens DIR       The screens directory (default: the app's own Screens/).
      --state             Print one state JSON line per snapshot instead of the screens.
      --open URL          Start cold with URL from outside, as 'appshell --open URL' does.
      --format FORMAT     text (default), ansi (with colours and styles; NO_COLOR keeps
                          only bold, dim and reverse), svg (one image per snapshot, written
                          to --output DIR as snapshot-N.svg) or cast (an asciicast v2
                          recording of every frame, for asciinema play).
      --output DIR        Where svg images go (and cast's replay.cast instead of stdout);
                          made when it does not exist.
      --expect GOLDEN     Compare the output with the file GOLDEN instead of printing it:
                          exit 0 when equal, else print a line diff and exit 1.
      --update            With --expect: write the output to GOLDEN (exit 0).
      -h, --help          Show this help.

    For each <Snap> and once at the end it prints '=== snapshot N ===' and the screen:
    exactly ROWS lines, trailing spaces cut. A failed <Expect>, <ExpectNot>, <ExpectScreen>
    or <WaitFor> ends the run: '=== failed at FILE:LINE:COL ===' and the screen then, the
    reason on stderr, exit 1. Exit 2 for a bad script, table or option.
    Record a script from a live session with 'appshell --record FILE'.

    """

  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "replay")
    var size: Size?
    var files = AppFileOptions()
    var statesOnly = false
    var expectPath: String?
    var update = false
    var scriptPath: String?
    var openURL: String?
    var format = ScreenFormat.text
    var outputDirectory: String?
    while let argument = options.next() {
      switch argument {
      case "-h", "--help":
        io.write(Array(help.utf8))
        return 0
      case "--size":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        guard let parsed = Size(parsing: value) else {
          return options.fail(io, Size.sizeProblem(value))
        }
        size = parsed
      case "--routes", "--screens":
        guard files.take(argument, from: &options) else { return options.fail(io) }
      case "--state":
        guard !options.hasValue else { return options.fail(io, "--state takes no value") }
        statesOnly = true
      case "--expect":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        expectPath = value
      case "--open":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        openURL = value
      case "--format":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        guard let parsed = ScreenFormat(rawValue: value) else {
          return options.fail(io, "--format is text, ansi, svg or cast, not '\(value)'")
        }
        format = parsed
      case "--output":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        outputDirectory = value
      case "--update":
        guard !options.hasValue else { return options.fail(io, "--update takes no value") }
        update = true
      default:
        if argument.hasPrefix("-") && argument != "-" && !options.ended {
          return options.fail(io, Options.unknown(argument, help: help))
        }
        guard scriptPath == nil else { return options.fail(io, "more than one SCRIPT") }
        scriptPath = argument
      }
    }
    guard let scriptPath else { return options.fail(io, "missing SCRIPT") }
    if update && expectPath == nil { return options.fail(io, "--update needs --expect GOLDEN") }
    if format == .svg && outputDirectory == nil {
      return options.fail(io, "--format svg needs --output DIR")
    }
    if outputDirectory != nil && format != .svg && format != .cast {
      return options.fail(io, "--output goes with --format svg or cast")
    }
    if expectPath != nil && (format == .svg || format == .cast || statesOnly && format != .text) {
      return options.fail(io, "--expect compares text or ansi screens, or states")
    }
    let text: String
    if scriptPath == "-" {
      // At most one byte over the largest script is read, so the size check in KeyScript
      // refuses an endless input instead of running out of memory.
      let limit = KeyScript.maxBytes + 1
      var bytes: [UInt8] = []
      while bytes.count < limit, let chunk = io.read() { bytes += chunk }
      text = String(decoding: bytes.prefix(limit), as: UTF8.self)
    } else {
      guard let read = FlowRun.readScript(scriptPath) else {
        io.writeError(
          "appshell replay: cannot read the key script \(scriptPath): \(FileProblem.reading(scriptPath) ?? "not a file")\n"
        )
        return 2
      }
      text = read
    }
    let script: KeyScript
    let app: ShellApp
    do {
      script = try KeyScript(parsing: text, file: scriptPath)
    } catch {
      // Exactly `FILE:LINE:COL: message`, so editors can jump to it.
      io.writeError("\(error)\n")
      return 2
    }
    do {
      app = try AppLoader.loadApp(screens: files.screens, routes: files.routes)
    } catch {
      io.writeError("appshell replay: \(error)\n")
      return 2
    }
    let terminal = size ?? FlowRun.size(ofScript: text) ?? Size(columns: 80, rows: 24)
    var replayer = FlowRun.replayer(app: app, files: files, size: terminal, open: openURL)
    replayer.keepsFrames = format == .cast
    let playback = replayer.play(script)
    let status: Int32 = playback.failure == nil ? 0 : 1
    if let failure = playback.failure { io.writeError(failure.line + "\n") }
    switch format {
    case .svg:
      return writeImages(playback, to: outputDirectory!, io: io) ?? status
    case .cast:
      let cast = CastRecording.render(replayer.frames, size: terminal, colors: ScreenFormat.colors)
      if let outputDirectory {
        try? FileManager.default.createDirectory(
          atPath: outputDirectory, withIntermediateDirectories: true)
        let path = outputDirectory + "/replay.cast"
        guard FileManager.default.createFile(atPath: path, contents: Data(cast.utf8)) else {
          io.writeError("appshell replay: \(path): cannot write the recording\n")
          return 2
        }
        io.write(Array("wrote \(path)\n".utf8))
      } else {
        var out = OutputBuffer(io)
        out.append(cast)
        out.flush()
      }
      return status
    case .text, .ansi:
      break
    }
    let output = FlowRun.output(playback, format: format, statesOnly: statesOnly)
    guard let expectPath, playback.failure == nil else {
      var out = OutputBuffer(io)
      out.append(output)
      out.flush()
      return status
    }
    return compare(
      output, snapshots: playback.snapshots.count, golden: expectPath, update: update, io: io)
  }

  /// `--format svg --output DIR`: one image per snapshot (`snapshot-N.svg`), and `failed.svg`
  /// for the screen of a failed expectation; nil when every file was written.
  private static func writeImages(
    _ playback: Replayer.Playback, to directory: String, io: CommandIO
  )
    -> Int32?
  {
    var images = playback.snapshots.enumerated().map {
      ("snapshot-\($0.offset + 1).svg", $0.element)
    }
    if let failure = playback.failure { images.append(("failed.svg", failure.snapshot)) }
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    var out = OutputBuffer(io)
    for (name, snapshot) in images {
      let path = directory + "/" + name
      guard
        FileManager.default.createFile(
          atPath: path, contents: Data(SVGPicture.render(snapshot.grid).utf8))
      else {
        io.writeError("appshell replay: \(path): cannot write the image\n")
        return 2
      }
      out.append("wrote \(path)\n")
    }
    out.flush()
    return nil
  }

  /// `--expect GOLDEN [--update]`: compares the output with the golden file (or rewrites it).
  private static func compare(
    _ output: String, snapshots: Int, golden: String, update: Bool, io: CommandIO
  ) -> Int32 {
    if update {
      guard FileManager.default.createFile(atPath: golden, contents: Data(output.utf8)) else {
        io.writeError("appshell replay: \(golden): cannot write the golden file\n")
        return 2
      }
      io.write(Array("updated \(golden) (\(snapshots) snapshots)\n".utf8))
      return 0
    }
    guard let data = FileManager.default.contents(atPath: golden) else {
      io.writeError(
        "appshell replay: \(golden): cannot read the golden file (write it with --update)\n")
      return 2
    }
    let expected = String(decoding: data, as: UTF8.self)
    guard
      let diff = LineDiff.describe(
        expected: expected, actual: output, expectedName: golden, actualName: "this replay")
    else {
      io.write(Array("ok: \(snapshots) snapshots match \(golden)\n".utf8))
      return 0
    }
    io.write(Array(diff.utf8))
    io.write(Array("differs from \(golden) (rewrite it with --update)\n".utf8))
    return 1
  }
}
