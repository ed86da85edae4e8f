/// A key the user pressed, decoded from the terminal or read from a key script.
package enum Key: Sendable, Hashable {
  /// A printable character (typed text).
  case character(Character)
  /// Enter / Return.
  case enter
  /// Escape.
  case escape
  /// Tab.
  case tab
  /// Shift-Tab.
  case backTab
  /// Arrow up.
  case up
  /// Arrow down.
  case down
  /// Arrow left.
  case left
  /// Arrow right.
  case right
  /// Home.
  case home
  /// End.
  case end
  /// Backspace.
  case backspace
  /// Delete (forward).
  case delete
  /// Page up.
  case pageUp
  /// Page down.
  case pageDown
  /// A function key, 1 to 12.
  case function(Int)
  /// Control with a letter `a` to `z` (lowercase).
  case control(Character)

  /// The key's name in a key script, e.g. `<Enter>`, `<C-a>`, `<lt>`; a character as itself.
  package var scriptName: String {
    switch self {
    case .character("<"): return "<lt>"
    case .character(let character): return String(character)
    case .enter: return "<Enter>"
    case .escape: return "<Esc>"
    case .tab: return "<Tab>"
    case .backTab: return "<S-Tab>"
    case .up: return "<Up>"
    case .down: return "<Down>"
    case .left: return "<Left>"
    case .right: return "<Right>"
    case .home: return "<Home>"
    case .end: return "<End>"
    case .backspace: return "<BS>"
    case .delete: return "<Del>"
    case .pageUp: return "<PageUp>"
    case .pageDown: return "<PageDown>"
    case .function(let number): return "<F\(number)>"
    case .control(let letter): return "<C-\(letter)>"
    }
  }

  /// Special keys by their key-script name (without `<>`).
  package static let named: [String: Key] = {
    var table: [String: Key] = [
      "Enter": .enter, "Esc": .escape, "Tab": .tab, "S-Tab": .backTab, "Up": .up,
      "Down": .down, "Left": .left, "Right": .right, "Home": .home, "End": .end,
      "BS": .backspace, "Del": .delete, "PageUp": .pageUp, "PageDown": .pageDown,
      "lt": .character("<"),
    ]
    for number in 1...12 { table["F\(number)"] = .function(number) }
    for scalar in UnicodeScalar("a").value...UnicodeScalar("z").value {
      let letter = Character(UnicodeScalar(scalar)!)
      table["C-\(letter)"] = .control(letter)
    }
    return table
  }()
}

/// A terminal size in columns and rows.
package struct Size: Sendable, Hashable, CustomStringConvertible {
  /// Columns.
  package var columns: Int
  /// Rows.
  package var rows: Int

  /// Makes a size.
  package init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// The smallest size the app draws in; below it a "terminal too small" notice is shown.
  package static let minimum = Size(columns: 20, rows: 6)

  /// The largest size accepted (a million cells).
  package static let maximum = Size(columns: 1000, rows: 1000)

  /// What `--size` says about `text`, a size it does not accept: the form and the bounds.
  package static func sizeProblem(_ text: String) -> String {
    "--size needs COLSxROWS such as 80x24, from 1x1 to \(maximum), not '\(text)'"
  }

  /// `80x24`.
  package var description: String { "\(columns)x\(rows)" }

  /// Reads `COLSxROWS` such as `80x24`; nil when malformed or not positive.
  package init?(parsing text: String) {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
      parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
      columns > 0, rows > 0, columns <= Self.maximum.columns, rows <= Self.maximum.rows
    else { return nil }
    self.init(columns: columns, rows: rows)
  }
}
