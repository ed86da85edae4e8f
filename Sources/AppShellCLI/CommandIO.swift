import AppRuntime
import Platform
import Render

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Where a command reads its input and writes its output: the process's standard streams, or
/// buffers in tests.
package struct CommandIO {
  /// Returns the next chunk of standard input, or nil at its end. Blocks until input arrives.
  package var read: () -> [UInt8]?
  /// Writes bytes to standard output (already buffered by the caller).
  package var write: ([UInt8]) -> Void
  /// Writes a message to standard error.
  package var writeError: (String) -> Void

  /// Makes an IO from three functions.
  package init(
    read: @escaping () -> [UInt8]?, write: @escaping ([UInt8]) -> Void,
    writeError: @escaping (String) -> Void
  ) {
    self.read = read
    self.write = write
    self.writeError = writeError
  }

  /// The process's standard input, output and error.
  package static var standard: CommandIO {
    CommandIO(
      read: {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
          let count = buffer.withUnsafeMutableBytes { Descriptors.read(0, into: $0) }
          if count > 0 { return Array(buffer[0..<count]) }
          if count < 0 && errno == EINTR { continue }
          return nil
        }
      },
      write: { bytes in _ = writeAll(1, bytes) },
      writeError: { text in _ = writeAll(2, Array(inertLines(AppHost.named(text)).utf8)) })
  }
}

/// Output collected in memory and handed to ``CommandIO/write`` in large pieces.
struct OutputBuffer {
  private var bytes: [UInt8] = []
  let io: CommandIO

  init(_ io: CommandIO) { self.io = io }

  mutating func append(_ text: String) {
    bytes.append(contentsOf: text.utf8)
    if bytes.count >= 1 << 16 { flush() }
  }

  /// Appends what `write` writes, in place.
  mutating func append(_ write: (inout [UInt8]) -> Void) {
    write(&bytes)
    if bytes.count >= 1 << 16 { flush() }
  }

  mutating func flush() {
    guard !bytes.isEmpty else { return }
    io.write(bytes)
    bytes.removeAll(keepingCapacity: true)
  }
}

/// `text` with every line made inert (line breaks kept): error messages quote table keys,
/// file names and script text, which must not reach a terminal as escape sequences.
func inertLines(_ text: String) -> String {
  text.split(separator: "\n", omittingEmptySubsequences: false).map { inert(String($0)) }
    .joined(separator: "\n")
}
