#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Signal dispositions, set the same way on Linux and macOS (`sigaction`'s handler field is
/// `__sigaction_handler.sa_handler` in Glibc and `__sigaction_u.__sa_handler` in Darwin).
package enum Signals {
  /// Calls `handler` when signal `number` arrives. `once`: the default action comes back as the
  /// handler starts (`SA_RESETHAND`); `restartingCalls`: system calls the signal interrupts
  /// are restarted (`SA_RESTART`). The handler may make only async-signal-safe calls.
  package static func handle(
    _ number: Int32, once: Bool = false, restartingCalls: Bool = false,
    with handler: @convention(c) (Int32) -> Void
  ) {
    var action = sigaction()
    #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = handler
    #elseif canImport(Glibc)
      action.__sigaction_handler.sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    // Glibc's SA_RESETHAND (0x80000000) does not fit an Int32 literal, hence the bit pattern.
    action.sa_flags =
      (once ? Int32(bitPattern: UInt32(SA_RESETHAND)) : 0) | (restartingCalls ? SA_RESTART : 0)
    sigaction(number, &action, nil)
  }

  /// Puts back the default action of signal `number`.
  package static func setDefault(_ number: Int32) {
    _ = signal(number, SIG_DFL)
  }

  /// Ignores signal `number` (SIGPIPE, so a vanished reader is an error and not an ending).
  package static func ignore(_ number: Int32) {
    _ = signal(number, SIG_IGN)
  }
}
