import Foundation
import Shell

/// A host executable that runs its own app with the whole command line (set once at start,
/// before any command runs): its Swift screens, actions and guards, and its app directory.
/// Both nil for `appshell` itself, which registers the shipped demo's Swift part by the app's
/// name instead.
package enum AppHost {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var storedRegistry: AppRegistry?
  nonisolated(unsafe) private static var storedDirectory: String?
  nonisolated(unsafe) private static var storedApps: [String: AppRegistry] = [:]

  /// The host's registry, used for every app directory, if a host set one.
  package static var registry: AppRegistry? {
    get { lock.withLock { storedRegistry } }
    set { lock.withLock { storedRegistry = newValue } }
  }

  /// The host's app directory: the default of `--screens`, if a host set one.
  package static var directory: String? {
    get { lock.withLock { storedDirectory } }
    set { lock.withLock { storedDirectory = newValue } }
  }

  /// Registers Swift screens, actions and guards for every app directory whose `app.json` has
  /// `name` (when no host registry applies to every directory).
  package static func register(_ registry: AppRegistry, forAppNamed name: String) {
    lock.withLock { storedApps[name] = registry }
  }

  /// What was registered for the app named `name`, if anything.
  package static func registry(forAppNamed name: String) -> AppRegistry? {
    lock.withLock { storedApps[name] }
  }
}
