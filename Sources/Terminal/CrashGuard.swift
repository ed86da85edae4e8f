import Platform

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The terminal settings of standard input and output from before the app changed them, for
/// the crash handler (ncurses puts standard output's terminal in raw mode; when input is
/// another terminal, both are put back).
nonisolated(unsafe) private var savedInput = termios()
nonisolated(unsafe) private var savedOutput = termios()
nonisolated(unsafe) private var hasSavedInput = false
nonisolated(unsafe) private var hasSavedOutput = false

/// Restores the terminal even when the app crashes: the settings are saved before ncurses
/// changes them, and a handler for fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT,
/// SIGFPE) puts them back, leaves the alternate screen, shows the cursor, then lets the signal
/// end the process as it would have.
package enum CrashGuard {
  static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

  /// Saves the terminal's settings and installs the handlers; call before ncurses starts.
  package static func install() {
    hasSavedInput = tcgetattr(0, &savedInput) == 0
    hasSavedOutput = tcgetattr(1, &savedOutput) == 0
    guard hasSavedInput || hasSavedOutput else { return }
    for signal in fatalSignals {
      Signals.handle(signal, once: true) { number in
        // Only async-signal-safe calls here. Input first: when both are one terminal, the
        // output's settings (saved the same) are the last word.
        if hasSavedInput { tcsetattr(0, TCSANOW, &savedInput) }
        if hasSavedOutput { tcsetattr(1, TCSANOW, &savedOutput) }
        let reset: StaticString = "\u{1b}[0m\u{1b}[?25h\u{1b}[?1049l\r\n"
        _ = write(1, reset.utf8Start, reset.utf8CodeUnitCount)
        raise(number)
      }
    }
  }

  /// Removes the handlers once the terminal has been restored normally.
  package static func uninstall() {
    for signal in fatalSignals { Signals.setDefault(signal) }
    hasSavedInput = false
    hasSavedOutput = false
  }
}
