import Demo
import Foundation
import JSON
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

// The built `appshell` binary run with `Process` (`appshell resolve`), and hostile input,
// through the binary and in process: each must give a clear error or a result, and return.
// Every run has runtime, cache and home directories of its own (``PrivateDirectories``).

/// The built `appshell`.
private func builtAppshell() throws -> URL {
  URL(
    fileURLWithPath: try #require(
      builtExecutable("appshell"), "the built appshell was not found; run `swift build` first"))
}

/// What the binary did.
private struct BinaryRun {
  var status: Int32
  var stdout: [UInt8]
  var stderr: String

  var lines: [String] {
    String(decoding: stdout, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}

/// Runs `appshell ARGUMENTS` in `directory` with `input` on standard input. Input and output
/// go through files, so large input and output cannot block on a full pipe.
private func runAppshell(_ arguments: [String], input: [UInt8] = [], in directory: URL) throws
  -> BinaryRun
{
  try runProgram(try builtAppshell(), arguments, input: input, in: directory)
}

/// Runs `executable ARGUMENTS` in `directory` with `input` on standard input, with private
/// directories.
private func runProgram(
  _ executable: URL, _ arguments: [String], input: [UInt8] = [], in directory: URL
) throws -> BinaryRun {
  let directories = try PrivateDirectories()
  defer { withExtendedLifetime(directories) {} }
  let files = URL(fileURLWithPath: directories.root)
  let inFile = files.appendingPathComponent("stdin")
  let outFile = files.appendingPathComponent("stdout")
  let errFile = files.appendingPathComponent("stderr")
  try Data(input).write(to: inFile)
  try Data().write(to: outFile)
  try Data().write(to: errFile)
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  process.currentDirectoryURL = directory
  process.environment = directories.environment
  let stdin = try FileHandle(forReadingFrom: inFile)
  let stdout = try FileHandle(forWritingTo: outFile)
  let stderr = try FileHandle(forWritingTo: errFile)
  defer {
    try? stdin.close()
    try? stdout.close()
    try? stderr.close()
  }
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  process.waitUntilExit()
  let out = try Data(contentsOf: outFile)
  let err = try Data(contentsOf: errFile)
  return BinaryRun(
    status: process.terminationStatus, stdout: [UInt8](out),
    stderr: String(decoding: err, as: UTF8.self))
}

/// Collects what a pipe delivers, on a thread of its own, and signals each delivery.
private final class PipeCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var bytes: [UInt8] = []
  private let delivered = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      while true {
        let data = handle.availableData
        lock.lock()
        bytes += data
        lock.unlock()
        delivered.signal()
        if data.isEmpty { return }
      }
    }
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Waits until `count` lines have arrived, or the deadline passes; returns what arrived.
  func waitForLines(_ count: Int, until deadline: DispatchTime) -> String {
    while text.filter({ $0 == "\n" }).count < count {
      if delivered.wait(timeout: deadline) == .timedOut { break }
    }
    return text
  }
}

@Suite(.timeLimit(.minutes(1))) struct EndToEndTests {
  @Test func answersALineWhileStandardInputStaysOpen() throws {
    let directories = try PrivateDirectories()
    defer { withExtendedLifetime(directories) {} }
    let process = Process()
    process.executableURL = try builtAppshell()
    process.arguments = ["resolve"]
    process.currentDirectoryURL = FileManager.default.temporaryDirectory
    process.environment = directories.environment
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let collector = PipeCollector(output.fileHandleForReading)
    try process.run()
    input.fileHandleForWriting.write(Data("myapp://home\nmyapp:".utf8))
    let first = collector.waitForLines(1, until: .now() + 30)
    #expect(
      first.hasPrefix(#"{"url":"myapp://home","matched":true"#),
      "no answer to the first line while standard input is open: \(first.debugDescription)")
    input.fileHandleForWriting.write(Data("//me\n".utf8))
    let second = collector.waitForLines(2, until: .now() + 30)
    #expect(second.split(separator: "\n").count == 2, "\(second.debugDescription)")
    try input.fileHandleForWriting.close()
    let all = collector.waitForLines(2, until: .now() + 30)
    if process.isRunning && all.split(separator: "\n").count < 2 { process.terminate() }
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(
      all.split(separator: "\n").last?.hasPrefix(#"{"url":"myapp://me","matched":true"#) == true)
  }

  @Test func resolvesTheOrderDetailSeedFromAnotherDirectory() throws {
    let scratch = try TemporaryDirectory("appshell-e2e")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    let url = "navigateApp://action?navigationKey=orderdetail&orderid=2015032688"
    let result = try runAppshell(["resolve"], input: Array((url + "\n").utf8), in: directory)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.lines.count == 1)
    let answer = try JSON.parse(try #require(result.lines.first))
    #expect(answer.keys == ["url", "matched", "pattern", "route", "params"])
    #expect(answer["url"] == .string(url))
    #expect(answer["matched"] == .bool(true))
    #expect(
      answer["pattern"]
        == .string("navigateApp://action?navigationKey=orderdetail&orderid=:orderid"))
    #expect(answer["route"]?["screen"] == .string("order-detail"))
    #expect(answer["params"]?["orderid"] == .string("2015032688"))
    #expect(answer["params"]?["navigationKey"] == .string("orderdetail"))
  }

  @Test func resolvesArgumentsFromTheRootDirectory() throws {
    let result = try runAppshell(
      ["resolve", "navigateApp://action?navigationKey=orderdetail&orderid=2015032688"],
      in: URL(fileURLWithPath: "/"))
    #expect(result.status == 0)
    let answer = try JSON.parse(try #require(result.lines.first))
    #expect(answer["route"]?["screen"] == .string("order-detail"))
  }

  @Test func exitStatuses() throws {
    let scratch = try TemporaryDirectory("appshell-e2e")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    let matched = try runAppshell(
      ["resolve", "myapp://home", "navigator://user/zhangsan"], in: directory)
    #expect(matched.status == 0)
    #expect(matched.lines.count == 2)
    let unmatched = try runAppshell(["resolve", "myapp://home", "tests://nothing"], in: directory)
    #expect(unmatched.status == 1)
    #expect(unmatched.lines.last == #"{"url":"tests://nothing","matched":false}"#)
    let refused = try runAppshell(["resolve", "--external", "myapp://debug/reset"], in: directory)
    #expect(refused.status == 1)
    let unknown = try runAppshell(["resolve", "--bogus", "myapp://home"], in: directory)
    #expect(unknown.status == 2)
    #expect(unknown.stdout.isEmpty)
    #expect(!unknown.stderr.isEmpty)
    let missing = try runAppshell(["resolve", "myapp://home", "--routes"], in: directory)
    #expect(missing.status == 2)
    #expect(missing.stdout.isEmpty)
    let noFile = try runAppshell(
      ["resolve", "--routes", "routes.json", "myapp://home"], in: directory)
    #expect(noFile.status == 2)
    #expect(noFile.stdout.isEmpty)
    #expect(!noFile.stderr.isEmpty)
  }

  @Test func anArgumentThatIsNotUTF8IsAnInvalidURL() throws {
    // Bytes that do not decode as UTF-8 make the URL invalid; `url` shows them as U+FFFD.
    // `Process` takes arguments as Strings, so a shell passes the raw byte.
    let executable = try builtAppshell()
    let script = #"exec "$0" resolve "$(printf 'myapp://user/\377')""#
    let result = try runProgram(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script, executable.path],
      in: FileManager.default.temporaryDirectory)
    #expect(result.status == 1)
    #expect(
      result.lines == [
        #"{"url":"myapp://user/\#u{FFFD}","matched":false,"error":"invalid UTF-8 in path segment 2"}"#
      ])
    let streamed = try runAppshell(
      ["resolve"], input: Array("myapp://user/".utf8) + [0xFF, 0x0A],
      in: FileManager.default.temporaryDirectory)
    #expect(streamed.status == 1)
    #expect(streamed.lines == result.lines)
  }

  @Test func readsARelativeRoutesFileFromTheWorkingDirectory() throws {
    let scratch = try TemporaryDirectory("appshell-e2e")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    try Data(#"{"routes": [{"pattern": "x://here", "screen": "here"}]}"#.utf8).write(
      to: directory.appendingPathComponent("mine.json"))
    let result = try runAppshell(["resolve", "--routes", "mine.json", "x://here"], in: directory)
    #expect(result.status == 0)
    #expect(try JSON.parse(try #require(result.lines.first))["pattern"] == .string("x://here"))
  }

  @Test func hostileURLsGiveAnAnswerEach() throws {
    let scratch = try TemporaryDirectory("appshell-e2e")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    // The longest URL and the most segments read (README "Limits"), then just over them.
    let long = String(repeating: "a", count: RouteURL.maxBytes - "myapp://user/".utf8.count)
    let segments = (0..<(RouteURL.maxSegments - 1)).map { "s\($0)" }
    var input: [UInt8] = []
    let lines: [[UInt8]] = [
      Array("myapp://user/\(long)".utf8),
      Array("JLRoutesThree://files/\(segments.joined(separator: "/"))".utf8),
      Array("myapp://user/abc%".utf8),
      Array("myapp://home?x=%".utf8),
      Array("myapp://user/a".utf8) + [0] + Array("b".utf8),
      Array("myapp://user/".utf8) + [0xC3, 0x28],
      Array(("myapp:/" + String(repeating: "../", count: 500) + "home").utf8),
      Array(("myapp://" + String(repeating: "/", count: 10_000) + "home").utf8),
      Array(("myapp://user/" + String(repeating: "%", count: 100)).utf8),
      [0, 0, 0],
      Array("myapp://user/\(long)a".utf8),
      Array("JLRoutesThree://files/\(segments.joined(separator: "/"))/s/t".utf8),
      Array(("myapp:/" + String(repeating: "../", count: 10_000) + "home").utf8),
    ]
    for line in lines { input += line + [0x0A] }
    let result = try runAppshell(["resolve"], input: input, in: directory)
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty)
    let answers = try result.lines.map { try JSON.parse($0) }
    try #require(answers.count == lines.count)

    #expect(answers[0]["params"]?["username"] == .string(long))
    #expect(answers[0]["url"] == .string("myapp://user/\(long)"))
    #expect(answers[1]["route"]?["screen"] == .string("file-browser"))
    #expect(answers[1]["params"]?["*"] == .array(segments.map(JSON.string)))
    #expect(answers[2]["error"] == .string("invalid percent escape in path segment 2"))
    #expect(answers[3]["error"] == .string("invalid percent escape in query item 1"))
    #expect(answers[4]["url"] == .string("myapp://user/a\u{0}b"))
    #expect(answers[4]["params"]?["username"] == .string("a\u{0}b"))
    #expect(answers[5]["url"] == .string("myapp://user/\u{FFFD}("))
    #expect(answers[5]["error"] == .string("invalid UTF-8 in path segment 2"))
    #expect(answers[6]["route"]?["screen"] == .string("home"))
    #expect(answers[7]["route"]?["screen"] == .string("home"))
    #expect(answers[8]["matched"] == .bool(false))
    #expect(answers[8]["error"] == .string("invalid percent escape in path segment 2"))
    #expect(answers[10]["error"] == .string("URL too long: 65537 bytes (at most 65536)"))
    #expect(answers[11]["error"] == .string("too many path segments (at most 512)"))
    #expect(answers[12]["error"] == .string("too many path segments (at most 512)"))
    #expect(
      answers[9]
        == .object([JSONMember("url", .string("\0\0\0")), JSONMember("matched", .bool(false))]))
  }

  @Test(arguments: [
    "/a" + String(repeating: "(", count: 10_000),
    String(repeating: "(/a", count: 10_000),
    "/a" + String(repeating: ")", count: 10_000),
    String(repeating: "(/a)", count: 10_000),
    (0..<40).map { "(/g\($0)/:n\($0))" }.joined(),
    "/a/" + String(repeating: "<", count: 10_000),
    "/a/<" + String(repeating: "int:", count: 10_000) + "x>",
    "/" + String(repeating: ":", count: 10_000),
    "/" + String(repeating: "%", count: 10_000),
    "/x?" + (0..<10_000).map { "k\($0)=\($0)" }.joined(separator: "&") + "&k0=1",
    (0..<10_000).map { "/:n\($0)" }.joined() + "/:n0",
  ])
  func hostilePatternsGiveAClearErrorOrATable(pattern: String) {
    let entry = JSON.object([
      JSONMember("pattern", .string(pattern)), JSONMember("screen", .string("s")),
    ])
    do {
      let table = try RouteTable(json: #"{"routes": ["# + entry.serialized + "]}")
      #expect(table.entries.count == 1)
    } catch {
      #expect(
        error.description.hasPrefix("routes[0].pattern: "), "\(error.description.prefix(200))")
      #expect(error.description.contains("column "))
    }
  }

  @Test func aDeeplyNestedTableIsRefused() {
    let text = #"{"routes": "# + String(repeating: "[", count: 100_000)
    #expect(throws: RouteTableError.self) { try RouteTable(json: text) }
    let entries =
      #"{"routes": [{"pattern": "/a", "screen": "s", "rename": "#
      + String(repeating: #"{"a": "#, count: 100_000)
    #expect(throws: RouteTableError.self) { try RouteTable(json: entries) }
  }

  /// `count` routes `myapp://gen/N/<int:id>`, optionally followed by one more route.
  private func generatedTable(count: Int, ringOfParents: Bool, then last: String? = nil)
    -> String
  {
    var entries = (0..<count).map {
      #"{"pattern": "myapp://gen/\#($0)/<int:id>", "screen": "gen-\#($0)""#
    }
    if ringOfParents {
      entries = entries.enumerated().map {
        $0.element + #", "parent": "myapp://gen/\#(($0.offset + 1) % count)/1"}"#
      }
    } else {
      entries = entries.map { $0 + "}" }
    }
    if let last { entries.append(last) }
    return #"{"routes": ["# + entries.joined(separator: ",\n") + "]}"
  }

  @Test func aLargeTableWithAConflictAtTheEndIsRefused() throws {
    let text = generatedTable(
      count: 9_999, ringOfParents: false,
      then: #"{"pattern": "MYAPP://gen/1234/<int:other>", "action": "clash"}"#)
    #expect(throws: RouteTableError("routes[9999] conflicts with routes[1234]")) {
      try RouteTable(json: text)
    }
    let scratch = try TemporaryDirectory("appshell-e2e")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    let file = directory.appendingPathComponent("big.json")
    try Data(text.utf8).write(to: file)
    let run = CapturedRun.run(
      ["resolve", "--routes", file.path], stdin: [Array("myapp://gen/1/1\n".utf8)])
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.stderr.contains("routes[9999] conflicts with routes[1234]"))
  }

  @Test func aLargeTableLoadsAndResolves() throws {
    // Every route's parent is the next route: a ring of 10,000 parents, which is a loop.
    let ring = generatedTable(count: 10_000, ringOfParents: true)
    let error = #expect(throws: RouteTableError.self) { try RouteTable(json: ring) }
    #expect(error?.description.contains(".parent: ") == true)
    let table = try RouteTable(json: generatedTable(count: 10_000, ringOfParents: false))
    let resolution = table.resolve("myapp://gen/9999/5")
    guard case .matched(let entry, let params) = resolution.outcome else {
      Issue.record("expected a match, got \(resolution.outcome)")
      return
    }
    #expect(entry.index == 9_999)
    #expect(params == ["id": .int(5)])
  }
}
