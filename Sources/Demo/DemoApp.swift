import AppShellKit
import Routing
import Shell

/// The shipped demo's Swift part: the screens and actions that `Screens/app.json` names but
/// does not define. The `appshell` executable registers it for the app named ``name``, so any
/// directory whose `app.json` has that name (a copy of `Screens/` too) gets it.
package enum DemoApp {
  /// The demo's name in its `app.json`.
  package static let name = "AppShell"

  /// The demo's version, as its `app.json` has it (the About screen shows it).
  package static let version = "1.0.0"

  /// The demo's Swift screens and actions.
  package static var setup: AppSetup {
    var setup = AppSetup()
    setup.register { registry in
      DemoScreens.register(into: &registry)
      for (name, handler) in DemoActions.all.sorted(by: { $0.key < $1.key }) {
        registry.action(name, handler)
      }
    }
    return setup
  }

  /// Registers ``setup`` for the app named ``name``, as the `appshell` executable does at start
  /// (tests that run commands in process call this first).
  package static func register() {
    setup.register(forAppNamed: name)
  }

  /// The session counter that holds the likes of the pk match `id`.
  static func likesKey(_ id: Int64) -> String { "likes/\(id)" }
}

extension Session {
  /// The demo's likes of the pk match `id` (XYWdispatcher's `pkdetail/like`).
  package func likes(of id: Int64) -> Int { counters[DemoApp.likesKey(id)] ?? 0 }
}
