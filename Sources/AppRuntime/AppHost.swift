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
  nonisolated(unsafe) private static var storedProgram = "appshell"
  nonisolated(unsafe) private static var storedInvocation = "appshell"

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

  /// The executable's name, which messages call the program by (default `appshell`).
  package static var program: String {
    get { lock.withLock { storedProgram } }
    set { lock.withLock { storedProgram = newValue } }
  }

  /// The executable as it was invoked (its first argument), which commands printed for the
  /// user to run (`appshell init`'s, `--record`'s header) start with: the path it was started
  /// by when it was started by one (`swift run` gives `.build/TRIPLE/debug/appshell`), else the
  /// name the shell found on `PATH` (default `appshell`).
  package static var invocation: String {
    get { lock.withLock { storedInvocation } }
    set { lock.withLock { storedInvocation = newValue } }
  }

  /// A message with the program called by its own name: `appshell` as a word (`appshell:`,
  /// `appshell test`, `'appshell --help'`) becomes ``program``.
  package static func named(_ message: String) -> String {
    let program = program
    guard program != "appshell" else { return message }
    var result = ""
    var rest = message[...]
    while let found = rest.range(of: "appshell") {
      let before =
        found.lowerBound == rest.startIndex ? nil : rest[rest.index(before: found.lowerBound)]
      let after = found.upperBound == rest.endIndex ? nil : rest[found.upperBound]
      let word =
        [nil, " ", "'", "`", "\n"].contains(before) && [" ", ":", "'", "`", nil].contains(after)
      result += rest[..<found.lowerBound] + (word ? program : "appshell")
      rest = rest[found.upperBound...]
    }
    return result + rest
  }
}
