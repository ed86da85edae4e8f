import AppShellCLI
import Foundation

/// `appshell links diff` of two tables of the benchmark's workload (NEW retargets one route in a
/// hundred), and `appshell links dump` of the shipped demo: each timed in process, best of a
/// few runs, with the number of witness URLs the diff checked.
enum SurfaceBench {
  struct Result {
    var routes: Int
    var changed: Int
    var diffSeconds: Double
    var urls: Int
    var breaking: Int
    var dumpMilliseconds: Double
  }

  /// One in-process run of `arguments`: nanoseconds and standard output.
  static func time(_ arguments: [String]) -> (Double, String) {
    var output: [UInt8] = []
    let io = CommandIO(read: { nil }, write: { output += $0 }, writeError: { _ in })
    let start = now()
    _ = AppShellCommand.run(arguments, io: io)
    return (Double(now() - start), String(decoding: output, as: UTF8.self))
  }

  static func run(routes: Int, seed: UInt64, rounds: Int) -> Result {
    let old = Workload(routes: routes, urls: 0, seed: seed).json
    var changed = 0
    var lines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for index in lines.indices where index % 100 == 1 && lines[index].contains("\"screen\":\"") {
      lines[index] = lines[index].replacingOccurrences(
        of: "\"screen\":\"", with: "\"screen\":\"changed-")
      changed += 1
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "appshell-bench-surface-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let oldPath = directory.appendingPathComponent("old.json").path
    let newPath = directory.appendingPathComponent("new.json").path
    _ = FileManager.default.createFile(atPath: oldPath, contents: Data(old.utf8))
    _ = FileManager.default.createFile(
      atPath: newPath, contents: Data(lines.joined(separator: "\n").utf8))
    var best = Double.infinity
    var summary = ""
    for _ in 0..<rounds {
      let (ns, output) = time(["links", "diff", oldPath, newPath, "--format", "json"])
      best = min(best, ns)
      summary =
        output.split(separator: "\n").last { $0.contains("\"summary\"") }.map(String.init) ?? ""
    }
    func number(_ key: String) -> Int {
      guard let range = summary.range(of: "\"\(key)\":") else { return -1 }
      return Int(summary[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }
    _ = time(["links", "dump"])
    var dump = Double.infinity
    for _ in 0..<5 { dump = min(dump, time(["links", "dump"]).0) }
    return Result(
      routes: routes, changed: changed, diffSeconds: best / 1e9, urls: number("urls"),
      breaking: number("breaking"), dumpMilliseconds: dump / 1e6)
  }
}
