import Foundation

/// A fresh temporary directory with a runtime, a cache and a home directory of its own, and the
/// environment that points an app at them: an `appshell` started with it never reads or writes
/// the user's socket directory (`XDG_RUNTIME_DIR`), table cache (`XDG_CACHE_HOME`) or anything
/// under `HOME`, so tests pass beside a running `appshell` and leave nothing behind. Removed,
/// with everything in it, when dropped.
package final class PrivateDirectories {
  /// The temporary directory holding `runtime/` (mode 0700, unless not made), `cache/` and
  /// `home/`; a test may keep its own files here too.
  package let root: String
  /// The directory itself, removed when this is dropped.
  private let directory: TemporaryDirectory

  /// Makes the directories; `makeRuntime: false` leaves `runtime/` for the app to make.
  package init(makeRuntime: Bool = true) throws {
    directory = try TemporaryDirectory("appshell-t")
    root = directory.path
    for directory in [cache, home] {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    }
    if makeRuntime {
      try FileManager.default.createDirectory(
        atPath: runtime, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
  }

  /// `XDG_RUNTIME_DIR`: the app's socket is `runtime/appshell/app.sock`.
  package var runtime: String { root + "/runtime" }
  /// `XDG_CACHE_HOME`: downloaded tables are cached under `cache/appshell/tables`.
  package var cache: String { root + "/cache" }
  /// `HOME`.
  package var home: String { root + "/home" }

  /// The three variables that keep an app to these directories.
  package var variables: [String: String] {
    ["XDG_RUNTIME_DIR": runtime, "XDG_CACHE_HOME": cache, "HOME": home]
  }

  /// This process's environment with ``variables`` in place, and `COLUMNS` and `LINES` cleared
  /// so that output does not depend on the terminal the tests run in.
  package var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment.merge(variables) { _, chosen in chosen }
    environment["COLUMNS"] = nil
    environment["LINES"] = nil
    return environment
  }
}

/// A UTF-8 locale every test machine has: `C.UTF-8` on Linux, `en_US.UTF-8` on macOS (which
/// has no `C.UTF-8`).
#if os(Linux)
  package let utf8Locale = "C.UTF-8"
#else
  package let utf8Locale = "en_US.UTF-8"
#endif
