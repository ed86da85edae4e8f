import Foundation
import Shell

/// The Swift screens, actions and guards of a host executable that runs its own app (set once
/// at start, before any command runs); nil for `appshell` itself.
package enum AppHost {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var stored: AppRegistry?

  /// The host's registry, if a host set one.
  package static var registry: AppRegistry? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
