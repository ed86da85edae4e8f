import AppShellCLI
import Demo
import Testing

/// `appshell ARGUMENTS` run in process through `AppShellCommand`, with the shipped demo's
/// Swift part registered, standard input given as chunks and everything it writes kept.
package final class CapturedRun {
  /// The exit status.
  package private(set) var status: Int32 = -1
  /// The bytes written to standard output.
  package private(set) var output: [UInt8] = []
  /// What was written to standard error.
  package private(set) var stderr = ""
  /// Standard output as it stood each time the command asked for more input.
  package private(set) var outputAtRead: [String] = []
  private var input: [[UInt8]]

  private init(input: [[UInt8]]) { self.input = input }

  /// Standard output as text.
  package var stdout: String { String(decoding: output, as: UTF8.self) }

  /// Standard output cut into lines; records an issue when the last line has no newline.
  package var lines: [String] {
    guard !output.isEmpty else { return [] }
    var pieces = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(pieces.last == "", "output must end with a newline")
    pieces.removeLast()
    return pieces
  }

  /// Runs `appshell ARGUMENTS` with `stdin`'s chunks as standard input (none: it is empty).
  package static func run(_ arguments: [String], stdin: [[UInt8]] = []) -> CapturedRun {
    run(stdin: stdin) { AppShellCommand.run(arguments, io: $0) }
  }

  /// Runs `appshell` with arguments given as bytes, as the process receives them.
  package static func run(rawArguments: [[UInt8]], stdin: [[UInt8]] = []) -> CapturedRun {
    run(stdin: stdin) { AppShellCommand.run(rawArguments: rawArguments, io: $0) }
  }

  private static func run(stdin: [[UInt8]], _ command: (CommandIO) -> Int32) -> CapturedRun {
    DemoApp.register()
    let run = CapturedRun(input: stdin)
    let io = CommandIO(
      read: {
        run.outputAtRead.append(run.stdout)
        return run.input.isEmpty ? nil : run.input.removeFirst()
      },
      write: { run.output += $0 },
      writeError: { run.stderr += $0 })
    run.status = command(io)
    return run
  }
}
