import Device
import Interface
import Render

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif
#if canImport(CNcursesw)
  import CNcursesw
#elseif canImport(CNcurses)
  import CNcurses
#endif

/// The real terminal, drawn with ncurses (the wide-character build on Linux, the system's
/// on macOS). Input is read by
/// ``InputReader`` as raw bytes and decoded by ``KeyDecoder``, not by ncurses.
///
/// Only this file imports the ncurses C module (`CNcursesw` on Linux, `CNcurses` on macOS). All calls happen on the main thread.
package final class NcursesTerminal: TerminalDevice {
  private var screen: OpaquePointer?
  private var isOpen = false
  private let colors: Bool
  /// Whether the terminal shows only ASCII (its locale's character set is not UTF-8, or
  /// `APPSHELL_ASCII` is set): box drawing and the few symbols the screens use are drawn with
  /// ASCII look-alikes of the same width.
  private let asciiOnly: Bool

  /// Why the terminal could not be opened.
  package struct OpenError: Error, Equatable, CustomStringConvertible {
    /// The message.
    package var description: String

    /// Standard input or output is not a terminal.
    package static let notATerminal = OpenError(
      description: "standard input and output must be a terminal")
  }

  /// Opens the terminal on standard input and output: locale, raw keys, no echo, colours
  /// (unless `NO_COLOR` is set or the terminal has none).
  package init() throws(OpenError) {
    guard isatty(0) == 1, isatty(1) == 1 else {
      throw OpenError.notATerminal
    }
    guard let term = getenv("TERM").map({ String(cString: $0) }), !term.isEmpty else {
      throw OpenError(
        description: "TERM is not set; set it to your terminal type (e.g. xterm-256color)")
    }
    guard term != "dumb" else {
      throw OpenError(
        description: "TERM=dumb cannot move the cursor, which the front end needs; set TERM to "
          + "your terminal type (e.g. xterm-256color), or run 'appshell replay SCRIPT'")
    }
    setlocale(LC_ALL, "")
    // newterm returns NULL for an unknown TERM (initscr would exit the process).
    guard let opened = newterm(nil, appshell_stdout(), appshell_stdin()) else {
      throw OpenError(
        description: "unknown terminal type '\(term)' (TERM); try TERM=xterm-256color")
    }
    screen = opened
    set_term(opened)
    isOpen = true
    raw()
    noecho()
    nonl()
    keypad(appshell_stdscr(), false)
    intrflush(appshell_stdscr(), false)
    let codeset = nl_langinfo(nl_item(CODESET)).map { String(cString: $0).uppercased() } ?? ""
    asciiOnly =
      getenv("APPSHELL_ASCII").map { !String(cString: $0).isEmpty } ?? false
      || !(codeset == "UTF-8" || codeset == "UTF8")
    let wantsColor = getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true
    colors = wantsColor && has_colors()
    if colors {
      start_color()
      use_default_colors()
      for role in Style.Role.allCases where role != .plain {
        init_pair(Int16(role.rawValue), Self.foreground(role), -1)
      }
    }
  }

  deinit { close() }

  private static func foreground(_ role: Style.Role) -> Int16 {
    switch role {
    case .plain: return -1
    case .title: return Int16(COLOR_CYAN)
    case .muted: return Int16(COLOR_BLUE)
    case .selection: return Int16(COLOR_YELLOW)
    case .alert: return Int16(COLOR_RED)
    case .link: return -1
    case .success: return Int16(COLOR_GREEN)
    }
  }

  /// Restores the terminal as it was (idempotent).
  package func close() {
    guard isOpen else { return }
    isOpen = false
    curs_set(1)
    endwin()
    if let screen { delscreen(screen) }
    screen = nil
  }

  /// The size ncurses knows.
  package func size() -> Size {
    Size(columns: Int(appshell_cols()), rows: Int(appshell_lines()))
  }

  /// Tells ncurses the terminal has a new size (after SIGWINCH) and returns it.
  package func updateSize() -> Size {
    var rows: Int32 = 0
    var columns: Int32 = 0
    appshell_window_size(1, &rows, &columns)
    if rows > 0 && columns > 0 { resizeterm(rows, columns) }
    return size()
  }

  /// Draws the grid row by row as UTF-8 runs of one style; ncurses sends only the changes.
  package func present(_ grid: Grid) {
    guard isOpen else { return }
    let window = appshell_stdscr()
    let rows = min(grid.height, Int(appshell_lines()))
    let columns = min(grid.width, Int(appshell_cols()))
    for row in 0..<rows {
      wmove(window, Int32(row), 0)
      var column = 0
      while column < columns {
        let style = grid[row, column].style
        var run = ""
        var runEnd = column
        while runEnd < columns, grid[row, runEnd].style == style {
          let cell = grid[row, runEnd]
          if cell.width == 2 && runEnd + 1 >= columns {
            run += " "
          } else if asciiOnly {
            run += Self.asciiLookalike(cell)
          } else {
            run += cell.text
          }
          runEnd += 1
        }
        wattrset(window, Int32(truncatingIfNeeded: attributes(style)))
        // At the bottom-right cell waddstr returns ERR (the cursor cannot advance) but the
        // cell is written; ncurses draws that corner itself without scrolling.
        waddstr(window, run)
        column = runEnd
      }
    }
    wattrset(window, Int32(truncatingIfNeeded: appshell_a_normal()))
    if let cursor = grid.cursor, cursor.row < rows, cursor.column < columns {
      wmove(window, Int32(cursor.row), Int32(cursor.column))
      curs_set(1)
    } else {
      curs_set(0)
    }
    wrefresh(window)
  }

  /// A cell's text for an ASCII-only terminal: lines and corners as `-`, `|` and `+`, the
  /// guillemets as `<` and `>`, the ellipsis as `~`; other non-ASCII text as `?` per column.
  static func asciiLookalike(_ cell: Cell) -> String {
    let text = cell.text
    if text.utf8.count == 1 || cell.width == 0 { return text }
    switch text {
    case "─", "━", "═": return "-"
    case "│", "┃", "║": return "|"
    case "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼": return "+"
    case "‹": return "<"
    case "›": return ">"
    case "…": return "~"
    case "¥": return "Y"
    default: return String(repeating: "?", count: Int(cell.width))
    }
  }

  private func attributes(_ style: Style) -> attr_t {
    var value = appshell_a_normal()
    if style.bold { value |= appshell_a_bold() }
    if style.reverse { value |= appshell_a_reverse() }
    if colors && style.role != .plain { value |= appshell_color_pair(Int16(style.role.rawValue)) }
    if !colors && style.role == .muted { value |= appshell_a_dim() }
    return value
  }
}
