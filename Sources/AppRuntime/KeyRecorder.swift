import Foundation
import Interface
import Platform
import Render
import Replay

/// `appshell --record FILE`: writes every key and resize of a live session to FILE as a key
/// script (see docs/shell.md) that `appshell replay` reproduces, with `<Open URL>` and
/// `<Push JSON>` for what arrived from outside and `<Wait Ns>` (to 0.1 s) before a step that
/// came a second or more after the one before. Each step is written as it happens, so a
/// session that ends badly still leaves its script.
package final class KeyRecorder {
  private var descriptor: Int32
  private var writer = KeyScriptWriter(breaksAfterEnter: true)
  /// Why recording stopped, once a write failed.
  private(set) var problem: String?
  let path: String
  /// The time now, on any clock that only goes forward.
  private let now: () -> Duration
  /// When the last step was recorded.
  private var last: Duration

  /// The shortest pause recorded as `<Wait>`.
  static let shortestWait: Duration = .seconds(1)
  /// The shortest pause recorded as `<Wait>` when delayed work ran during it: the replay must
  /// let that work run before the next step too.
  static let shortestWaitAfterWork: Duration = .milliseconds(100)
  /// Whether delayed work ran since the last step.
  private var workRan = false

  /// Creates (or truncates) `path` and writes the header: how to replay it, with the
  /// options of this session that `replay` takes too, after `program` (the executable as the
  /// user invoked it), and a `note` line when there is one.
  package init(
    path: String, replayOptions: [String], note: String? = nil,
    program: String = AppHost.invocation,
    now: @escaping () -> Duration = KeyRecorder.processTime
  ) throws(LoadError) {
    self.path = path
    self.now = now
    last = now()
    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw LoadError("\(path): cannot write the recording: \(String(cString: strerror(errno)))")
    }
    let command = ([program, "replay"] + replayOptions + [path]).map(Self.shellQuoted)
      .joined(separator: " ")
    write("# Recorded by appshell --record; replay it with: \(command)\n")
    if let note { write("# \(inert(note))\n") }
  }

  deinit { close() }

  /// `word` as one shell word, inert and on one line (the header is a comment line).
  package static func shellQuoted(_ word: String) -> String {
    let safe = word.unicodeScalars.allSatisfy {
      ($0.properties.isAlphabetic || ("0"..."9").contains($0)
        || "-_./:=@+,".unicodeScalars.contains($0))
        && $0.isASCII
    }
    if safe && !word.isEmpty { return word }
    return "'" + inert(word).replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// The time since the process started, on the monotonic clock.
  static func processTime() -> Duration {
    ContinuousClock.now - start
  }
  private static let start = ContinuousClock.now

  /// Notes that delayed work (an action's `after`, a timer) ran since the last step.
  func noteWorkRan() { workRan = true }

  /// Appends one step, after `<Wait Ns>` when a second or more passed since the last one (a
  /// tenth of a second or more when delayed work ran meanwhile, rounded up so it runs); a
  /// size beyond what `replay` accepts is recorded as the largest it does, and a `>`, CR or LF
  /// in an `<Open>` URL as its percent escape.
  func record(_ step: KeyScript.Step) {
    var step = step
    switch step {
    case .resize(let size):
      step = .resize(
        Size(
          columns: min(size.columns, Size.maximum.columns), rows: min(size.rows, Size.maximum.rows))
      )
    case .open(let url):
      guard !url.isEmpty else { return }
      step = .open(
        url.replacingOccurrences(of: ">", with: "%3E").replacingOccurrences(of: "\r", with: "%0D")
          .replacingOccurrences(of: "\n", with: "%0A"))
    default:
      break
    }
    let time = now()
    let pause = time - last
    last = time
    let afterWork = workRan
    workRan = false
    if pause >= (afterWork ? Self.shortestWaitAfterWork : Self.shortestWait) {
      let seconds = Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18
      let tenths = min(
        Int64(afterWork ? (seconds * 10).rounded(.up) : (seconds * 10).rounded()),
        Int64(KeyScript.Seconds.maximum * 10))
      let text = "\(tenths / 10)" + (tenths % 10 == 0 ? "" : ".\(tenths % 10)")
      write(
        writer.text(
          for: .wait(KeyScript.Seconds(text: text, duration: .milliseconds(tenths * 100)))))
    }
    write(writer.text(for: step))
  }

  /// Ends the script with a line break and closes the file.
  package func close() {
    guard descriptor >= 0 else { return }
    write("\n")
    Descriptors.close(descriptor)
    descriptor = -1
  }

  private func write(_ text: String) {
    guard descriptor >= 0, problem == nil else { return }
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Descriptors.write(descriptor, from: $0) }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        problem = "recording to \(path) stopped: \(String(cString: strerror(errno)))"
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }
}
