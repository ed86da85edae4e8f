#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// `read`, `write` and `close` under names no method shadows (a type with its own `close()` or
/// `read(...)` cannot call the C functions unqualified, and the C library's module name
/// differs between Linux and macOS).
package enum Descriptors {
  /// Reads up to `buffer.count` bytes; the count, 0 at the end, or -1 with `errno`.
  package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer)
    -> Int
  {
    systemRead(descriptor, buffer.baseAddress, buffer.count)
  }

  /// Writes up to `buffer.count` bytes; the count written, or -1 with `errno`.
  package static func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Int {
    systemWrite(descriptor, buffer.baseAddress, buffer.count)
  }

  /// Closes the descriptor.
  package static func close(_ descriptor: Int32) {
    _ = systemClose(descriptor)
  }

  /// Makes the descriptor non-blocking (`nonBlocking`) or blocking again.
  package static func setNonBlocking(_ descriptor: Int32, _ nonBlocking: Bool = true) {
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
  }

  /// Marks the descriptor close-on-exec.
  package static func setCloseOnExec(_ descriptor: Int32) {
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
  }
}

// The C functions, reached from file scope where the methods above do not hide them.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
