import Render

/// The screen as an SVG image (`replay --format svg`): the grid in a monospaced font on a
/// dark background, with its colours and reverse video.
package enum SVGPicture {
  /// The width of a cell, in pixels.
  static let cellWidth = 9
  /// The height of a cell, in pixels.
  static let cellHeight = 18

  /// The colours of the picture: background, plain text, and each role's text.
  static let background = "#1d1f21"
  static let plain = "#d0d3d4"

  /// The text colour of a role.
  static func color(_ role: Style.Role) -> String {
    switch role {
    case .plain, .link: return plain
    case .title: return "#5fd7d7"
    case .muted: return "#6c8cd5"
    case .selection: return "#e5c07b"
    case .alert: return "#ef6b6b"
    case .success: return "#8bd17c"
    }
  }

  /// The SVG document of `grid`: for each row, runs of cells of one style, each a background
  /// rectangle when reversed and a text element stretched to its columns.
  package static func render(_ grid: Grid) -> String {
    let width = grid.width * cellWidth
    let height = grid.height * cellHeight
    var out = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" font-family="ui-monospace, Menlo, Consolas, \
      'DejaVu Sans Mono', monospace" font-size="15">
      <rect width="100%" height="100%" fill="\(background)"/>

      """
    for row in 0..<grid.height {
      var column = 0
      while column < grid.width {
        let style = grid[row, column].style
        var end = column
        var text = ""
        while end < grid.width, grid[row, end].style == style {
          text += grid[row, end].text
          end += 1
        }
        let x = column * cellWidth
        let y = row * cellHeight
        let runWidth = (end - column) * cellWidth
        let foreground = style.reverse ? background : color(style.role)
        if style.reverse {
          out += """
            <rect x="\(x)" y="\(y)" width="\(runWidth)" height="\(cellHeight)" \
            fill="\(color(style.role))"/>

            """
        }
        var trimmed = text
        while trimmed.last == " " { trimmed.removeLast() }
        if !trimmed.isEmpty {
          let columns = TextWidth.of(trimmed)
          out += """
            <text x="\(x)" y="\(y + cellHeight - 5)" fill="\(foreground)"\
            \(style.bold ? " font-weight=\"bold\"" : "") xml:space="preserve" \
            textLength="\(columns * cellWidth)" lengthAdjust="spacingAndGlyphs">\
            \(escaped(trimmed))</text>

            """
        }
        column = end
      }
    }
    return out + "</svg>\n"
  }

  /// Text safe inside an XML element: `&`, `<`, `>` escaped, control characters shown inert.
  static func escaped(_ text: String) -> String {
    var out = ""
    for character in inert(text) {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      default: out.append(character)
      }
    }
    return out
  }
}
