import Routing
import Shell

/// The demo's action handlers written in Swift, by name.
enum DemoActions {
  /// All of them, by name (signing in and out are data actions of `Screens/app.json`).
  static let all: [String: ActionHandler] = [
    "like": like,
    "reset": reset,
    "lookup-order": lookupOrder,
  ]

  /// XYWdispatcher's `pkdetail/like?id=`: one more like for the pk match.
  static let like: ActionHandler = { session, request in
    let id: Int64
    switch request.params["id"] {
    case .int(let value)?: id = value
    case .string(let text)?:
      guard let value = Int64(text) else { fallthrough }
      id = value
    default:
      return .done(.status("like: no pk id"))
    }
    session.counters[DemoApp.likesKey(id), default: 0] += 1
    let likes = session.likes(of: id)
    return .done(.status("Liked pk \(id) (\(likes) \(likes == 1 ? "like" : "likes"))"))
  }

  /// Internal only: forgets the session (sign-in, notifications, likes).
  static let reset: ActionHandler = { session, _ in
    session = Session(flags: session.initialFlags)
    return .done(.status("Session reset"))
  }

  /// A simulated network look-up: after a moment, opens the order the code stands for.
  static let lookupOrder: ActionHandler = { _, request in
    let code = request.params["code"].flatMap(\.text) ?? ""
    let digits = code.filter(\.isNumber)
    guard !digits.isEmpty else {
      return .later(
        after: .milliseconds(1500), description: "Looking up order \(code)",
        result: .alert(Alert(title: "Not found", message: "No order for the code '\(code)'")))
    }
    return .later(
      after: .milliseconds(1500), description: "Looking up order \(code)",
      result: .open("myapp://orders/\(digits)"))
  }
}
