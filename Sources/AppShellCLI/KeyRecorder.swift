import Foundation
import Interface
import Platform
import Render
import Replay

/// `appshell --record FILE`: writes every key and resize of a live session to FILE as a key
/// script (see docs/shell.md) that `appshell replay` reproduces. Each step is written as it
/// happens, so a session that ends badly still leaves its script.
final class KeyRecorder {
  private var descriptor: Int32
  private var writer = KeyScriptWriter(breaksAfterEnter: true)
  /// Why recording stopped, once a write failed.
  private(set) var problem: String?
  let path: String

  /// Creates (or truncates) `path` and writes the header: how to replay it, with the
  /// options of this session that `replay` takes too, and a `note` line when there is one.
  init(path: String, replayOptions: [String], note: String? = nil) throws(LoadError) {
    self.path = path
    descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw LoadError("\(path): cannot write the recording: \(String(cString: strerror(errno)))")
    }
    let command = (["appshell", "replay"] + replayOptions + [path]).map(Self.shellQuoted)
      .joined(separator: " ")
    write("# Recorded by appshell --record; replay it with: \(command)\n")
    if let note { write("# \(inert(note))\n") }
  }

  deinit { close() }

  /// `word` as one shell word, inert and on one line (the header is a comment line).
  static func shellQuoted(_ word: String) -> String {
    let safe = word.unicodeScalars.allSatisfy {
      ($0.properties.isAlphabetic || ("0"..."9").contains($0)
        || "-_./:=@+,".unicodeScalars.contains($0))
        && $0.isASCII
    }
    if safe && !word.isEmpty { return word }
    return "'" + inert(word).replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Appends one step; a size beyond what `replay` accepts is recorded as the largest it does.
  func record(_ step: KeyScript.Step) {
    var step = step
    if case .resize(let size) = step {
      step = .resize(
        Size(
          columns: min(size.columns, Size.maximum.columns), rows: min(size.rows, Size.maximum.rows))
      )
    }
    write(writer.text(for: step))
  }

  /// Ends the script with a line break and closes the file.
  func close() {
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
