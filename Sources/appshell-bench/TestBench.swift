import AppShellCLI
import Foundation
import Interface
import Replay

/// `appshell test` over generated flows, against plain `appshell replay` of the same flows in
/// the same run: keys per second of each (with `-j 1`), and how much faster `-j 2` is than
/// `-j 1`. Printed as one JSON line starting `{"bench":"appshell-test"`.
enum TestBench {
  /// The figures.
  struct Result {
    var flows: Int
    var keys: Int
    var replaySeconds: Double
    var oneJobSeconds: Double
    var twoJobSeconds: Double

    var replayKeysPerSecond: Double { Double(keys) / replaySeconds }
    var testKeysPerSecond: Double { Double(keys) / oneJobSeconds }
  }

  /// Writes `flows` flows of `keysPerFlow` keys each (typed URLs, links, tabs, back, the log
  /// pane; a `<Snap>` in the middle and an `<ExpectNot>` at the end) to a new directory.
  static func writeFlows(count flows: Int, keysPerFlow: Int, seed: UInt64) -> (String, Int) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("appshell-bench-flows-\(ProcessInfo.processInfo.processIdentifier)")
      .path
    try? FileManager.default.removeItem(atPath: directory)
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    var keys = 0
    for index in 0..<flows {
      let typed = ReplayBench.keys(count: keysPerFlow, seed: seed &+ UInt64(index))
      keys += typed.count
      var steps = typed.map(KeyScript.Step.key)
      steps.insert(.snapshot, at: steps.count / 2)
      let text =
        KeyScript(steps: steps).text + "\n<ExpectNot \"no such text on any screen\">\n"
      let name =
        directory
        + "/flow-\(String(index).leftPad(5).replacingOccurrences(of: " ", with: "0")).keys"
      try! Data(text.utf8).write(to: URL(fileURLWithPath: name))
    }
    return (directory, keys)
  }

  /// Runs the three and returns their best times of `rounds`.
  static func run(flows: Int, keysPerFlow: Int, seed: UInt64, rounds: Int) -> Result {
    let (directory, keys) = writeFlows(count: flows, keysPerFlow: keysPerFlow, seed: seed)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let files = (try! FileManager.default.contentsOfDirectory(atPath: directory)).sorted()
    var failures = 0
    let quiet = CommandIO(read: { nil }, write: { _ in }, writeError: { _ in failures += 1 })
    func seconds(_ body: () -> Void) -> Double {
      let start = now()
      body()
      return Double(now() - start) / 1e9
    }
    // Best of `rounds`, the three interleaved, so a busy moment of the machine hits each alike.
    var replay = Double.infinity
    var one = Double.infinity
    var two = Double.infinity
    for _ in 0..<rounds {
      one = min(
        one,
        seconds {
          if AppShellCommand.run(["test", "-j", "1", directory], io: quiet) != 0 { failures += 1 }
        })
      two = min(
        two,
        seconds {
          if AppShellCommand.run(["test", "-j", "2", directory], io: quiet) != 0 { failures += 1 }
        })
      replay = min(
        replay,
        seconds {
          for file in files {
            if AppShellCommand.run(["replay", directory + "/" + file], io: quiet) != 0 {
              failures += 1
            }
          }
        })
    }
    precondition(failures == 0, "appshell-bench: a generated flow failed")
    return Result(
      flows: flows, keys: keys, replaySeconds: replay, oneJobSeconds: one, twoJobSeconds: two)
  }

  /// Runs the benchmark and prints its lines.
  static func report(quick: Bool, seed: UInt64) {
    let result = run(flows: quick ? 40 : 1000, keysPerFlow: 60, seed: seed, rounds: quick ? 1 : 3)
    print(
      "appshell test: \(result.flows) flows, \(result.keys) keys: replay \(format(result.replayKeysPerSecond, 0)) keys/s, test -j 1 \(format(result.testKeysPerSecond, 0)) keys/s; -j 1 \(format(result.oneJobSeconds, 3)) s, -j 2 \(format(result.twoJobSeconds, 3)) s (\(format(result.oneJobSeconds / result.twoJobSeconds, 2))x)"
    )
    print(
      "{\"bench\":\"appshell-test\",\"flows\":\(result.flows),\"keys\":\(result.keys),\"cores\":\(ProcessInfo.processInfo.activeProcessorCount),\"replay_keys_per_second\":\(format(result.replayKeysPerSecond, 0)),\"test_keys_per_second\":\(format(result.testKeysPerSecond, 0)),\"test_vs_replay_keys_per_second\":\(format(result.testKeysPerSecond / result.replayKeysPerSecond, 3)),\"test_j1_seconds\":\(format(result.oneJobSeconds, 3)),\"test_j2_seconds\":\(format(result.twoJobSeconds, 3)),\"test_j2_speedup\":\(format(result.oneJobSeconds / result.twoJobSeconds, 3))}"
    )
  }
}
