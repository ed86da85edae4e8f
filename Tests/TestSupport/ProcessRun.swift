import Foundation

/// What a finished child process did.
package struct ProcessResult {
  /// The exit status (128+N when killed by signal N).
  package var status: Int32
  /// Standard output.
  package var stdout: String
  /// Standard error.
  package var stderr: String
}

/// Runs the program at `path` to the end, in `directory` (nil: this process's), with `stdin`
/// (nil: /dev/null), and returns what it did.
package func runProcess(
  _ path: String, _ arguments: [String], environment: [String: String], stdin: [UInt8]? = nil,
  in directory: String? = nil
) throws -> ProcessResult {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  process.environment = environment
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  let out = Pipe()
  let err = Pipe()
  let input = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = stdin == nil ? FileHandle.nullDevice : input
  try process.run()
  if let stdin {
    input.fileHandleForWriting.write(Data(stdin))
    try input.fileHandleForWriting.close()
  }
  // Read both pipes to the end before waiting, so a large output cannot block the child.
  let errors = DispatchQueue(label: "stderr")
  nonisolated(unsafe) var errBytes = Data()
  let group = DispatchGroup()
  group.enter()
  errors.async {
    errBytes = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }
  let outBytes = out.fileHandleForReading.readDataToEndOfFile()
  group.wait()
  process.waitUntilExit()
  let status =
    process.terminationReason == .uncaughtSignal
    ? 128 + process.terminationStatus : process.terminationStatus
  return ProcessResult(
    status: status, stdout: String(decoding: outBytes, as: UTF8.self),
    stderr: String(decoding: errBytes, as: UTF8.self))
}
