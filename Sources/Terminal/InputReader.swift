import Platform

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// What the real terminal's input side reports.
package enum InputEvent: Sendable, Hashable {
  /// Bytes typed (to decode with ``KeyDecoder``).
  case bytes([UInt8])
  /// The terminal was resized (SIGWINCH).
  case resized
  /// A signal asks the app to end: SIGTERM, SIGINT or SIGQUIT.
  case terminate(Int32)
  /// SIGHUP: read the route table again.
  case reload
  /// Other descriptors the caller asked to watch are ready to read.
  case ready(Set<Int32>)
  /// Standard input was closed.
  case closed
}

/// The write end of the self-pipe that signal handlers write to; set once by ``InputReader``.
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// Reads standard input, signals and other descriptors together: a signal handler writes the
/// signal number to a pipe, and one `poll` waits for all, so a signal never interrupts drawing.
package final class InputReader {
  private var pipeRead: Int32 = -1
  private let signals: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT]
  private let readsStandardInput: Bool

  /// Installs the signal handlers; `readsStandardInput: false` (headless) leaves stdin alone.
  package init(readsStandardInput: Bool = true) {
    self.readsStandardInput = readsStandardInput
    var ends: [Int32] = [0, 0]
    if pipe(&ends) == 0 {
      pipeRead = ends[0]
      signalPipeWrite = ends[1]
      for end in ends {
        Descriptors.setNonBlocking(end)
        Descriptors.setCloseOnExec(end)
      }
    }
    // A parent (a test runner, say) may have blocked these; the app must hear them.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signal in signals { sigaddset(&unblock, signal) }
    sigprocmask(SIG_UNBLOCK, &unblock, nil)
    // A vanished reader of a pipe the app writes to must not kill it.
    Signals.ignore(SIGPIPE)
    for signal in signals {
      Signals.handle(signal, restartingCalls: true) { number in
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(signalPipeWrite, &byte, 1)
      }
    }
  }

  /// Restores the default signal handlers.
  package func close() {
    for signal in signals { Signals.setDefault(signal) }
  }

  /// Waits up to `timeout` milliseconds (-1: for ever) for input, a signal or one of
  /// `descriptors`, and returns what happened.
  package func wait(timeout: Int32, watching descriptors: [Int32] = []) -> [InputEvent] {
    var fds = [
      pollfd(fd: readsStandardInput ? 0 : -1, events: Int16(POLLIN), revents: 0),
      pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0),
    ]
    fds += descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let ready = poll(&fds, nfds_t(fds.count), timeout)
    guard ready > 0 else { return [] }
    var events: [InputEvent] = []
    if fds[1].revents & Int16(POLLIN) != 0 {
      var buffer = [UInt8](repeating: 0, count: 64)
      let count = read(pipeRead, &buffer, buffer.count)
      for number in buffer.prefix(max(0, count)) {
        switch Int32(number) {
        case SIGWINCH: events.append(.resized)
        case SIGHUP: events.append(.reload)
        case let signal: events.append(.terminate(signal))
        }
      }
    }
    let others = Set(
      fds.dropFirst(2).filter { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }.map(\.fd))
    if !others.isEmpty { events.append(.ready(others)) }
    if readsStandardInput && fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(0, &buffer, buffer.count)
      if count > 0 {
        events.append(.bytes(Array(buffer[0..<count])))
      } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
        events.append(.closed)
      }
    }
    return events
  }
}
