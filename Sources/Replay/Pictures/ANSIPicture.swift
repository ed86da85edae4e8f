import Render

/// The screen as terminal text with SGR escape sequences for its styles (`replay --format
/// ansi`): one line per row, each ending in `ESC[0m`.
package enum ANSIPicture {
  /// The SGR parameters of a style; with `colors` off (`NO_COLOR`) only bold, dim (for muted
  /// text) and reverse, as the terminal front end draws without colours.
  package static func parameters(_ style: Style, colors: Bool) -> [Int] {
    var codes: [Int] = []
    if style.bold { codes.append(1) }
    if !colors && style.role == .muted { codes.append(2) }
    if style.reverse { codes.append(7) }
    if colors, let color = color(style.role) { codes.append(color) }
    return codes
  }

  /// The foreground colour of a role (SGR 30-37), as the terminal front end pairs them.
  static func color(_ role: Style.Role) -> Int? {
    switch role {
    case .plain, .link: return nil
    case .title: return 36
    case .muted: return 34
    case .selection: return 33
    case .alert: return 31
    case .success: return 32
    }
  }

  /// The rows of `grid`: trailing blanks cut (as `Grid.text` cuts them), a style change written as `ESC[0;...m`,
  /// and `ESC[0m` at the end of each.
  package static func lines(_ grid: Grid, colors: Bool) -> [String] {
    (0..<grid.height).map { row in
      var end = grid.width
      // Trailing blanks are cut whatever their style, so without its escapes a line is the
      // row as the text format prints it.
      while end > 0, grid[row, end - 1].text == " " { end -= 1 }
      var line = ""
      var current = Style.plain
      for column in 0..<end {
        let cell = grid[row, column]
        if cell.width == 0 { continue }
        if parameters(cell.style, colors: colors) != parameters(current, colors: colors) {
          line +=
            "\u{1B}["
            + ([0] + parameters(cell.style, colors: colors)).map(String.init)
            .joined(separator: ";") + "m"
          current = cell.style
        }
        line += inert(cell.text)
      }
      return line + "\u{1B}[0m"
    }
  }
}
