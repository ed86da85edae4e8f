import Interface
import Routing
import Shell

/// Draws the console: a pure function from its state to a grid of the console's size.
///
/// Layout, top to bottom: navigation bar, separator, the top screen (body, then links), the
/// event log when shown, the tab bar, the status line and the URL prompt. Modals are boxes
/// over everything but the status line and prompt; an alert is a box in the middle; the help
/// overlay lists every key binding.
package enum ConsoleView {
  /// Box-drawing characters.
  struct Box {
    let horizontal: Character
    let vertical: Character
    let corners: (Character, Character, Character, Character)

    static let unicode = Box(horizontal: "─", vertical: "│", corners: ("┌", "┐", "└", "┘"))
  }

  /// The last frame's scene (everything but the status line and the prompt), kept so that a
  /// key that only edits the prompt redraws only those two rows.
  package struct Cache: Sendable {
    fileprivate var revision: Int
    fileprivate var size: Size
    fileprivate var scene: Grid
  }

  /// The grid for a console.
  package static func render(_ console: Console) -> Grid {
    var cache: Cache?
    return render(console, cache: &cache)
  }

  /// The grid for a console, reusing `cache` when only the status line or the prompt can have
  /// changed since it was made; the result is the same as ``render(_:)``.
  package static func render(_ console: Console, cache: inout Cache?) -> Grid {
    let size = console.size
    guard size.columns >= Size.minimum.columns, size.rows >= Size.minimum.rows else {
      var grid = Grid(width: size.columns, height: size.rows)
      drawTooSmall(&grid)
      cache = nil
      return grid
    }
    var grid: Grid
    if let cache, cache.revision == console.sceneRevision, cache.size == size {
      grid = cache.scene
    } else {
      grid = scene(console)
      cache = Cache(revision: console.sceneRevision, size: size, scene: grid)
    }
    grid.write(
      statusText(
        console.statusLine, width: size.columns,
        inLog: console.model.notes.last?.text == console.statusLine),
      row: size.rows - 2, column: 0,
      style: Style(.muted))
    drawPrompt(&grid, console.prompt, row: size.rows - 1, width: size.columns)
    return grid
  }

  /// Everything but the status line and the prompt.
  private static func scene(_ console: Console) -> Grid {
    let size = console.size
    var grid = Grid(width: size.columns, height: size.rows)
    let shell = console.model.shell
    let rows = size.rows
    let roomy = rows >= 12
    let statusRow = rows - 2
    let tabRow = rows - 3
    let top = roomy ? 2 : 1
    let contentBottom = roomy ? tabRow - 1 : tabRow  // exclusive
    // Navigation bar and the tab's stack.
    let stack = shell.tabs[shell.selectedTab].stack
    drawNavigationBar(&grid, stack: stack, row: 0, column: 0, width: size.columns)
    if roomy { drawRule(&grid, row: 1, column: 0, width: size.columns) }
    var contentRect = Rect(
      row: top, column: 0, width: size.columns, height: contentBottom - top)
    var logRect: Rect?
    if console.showsLog && contentRect.height >= 2 {
      let logHeight = min(8, max(3, contentRect.height / 2), contentRect.height)
      logRect = Rect(
        row: contentRect.row + contentRect.height - logHeight, column: 0,
        width: size.columns, height: logHeight)
      contentRect.height -= logHeight
    }
    let onTabs = shell.modals.isEmpty
    drawScreen(
      &grid, stack.last!, selected: onTabs ? console.selectedLink : nil,
      scroll: onTabs ? console.scroll : 0, in: contentRect)
    if roomy { drawRule(&grid, row: tabRow - 1, column: 0, width: size.columns) }
    drawTabBar(&grid, shell, row: tabRow, width: size.columns)
    // Modals over everything but the status line and prompt.
    for (index, modal) in shell.modals.enumerated() {
      let inset = min(index, 3)
      let rect = Rect(
        row: 1 + inset, column: 1 + inset, width: size.columns - 2 - 2 * inset,
        height: statusRow - 1 - inset)
      let isTop = index == shell.modals.count - 1
      drawModal(
        &grid, modal, selected: isTop ? console.selectedLink : nil,
        scroll: isTop ? console.scroll : 0, in: rect)
    }
    if let banner = console.model.banner { drawBanner(&grid, banner, size: size) }
    if let alert = shell.alert {
      // Above the log when there is room, so both can be read.
      let above = logRect.map { $0.row + 2 } ?? size.rows
      drawAlert(
        &grid, alert, size: above >= 9 ? Size(columns: size.columns, rows: above) : size)
    }
    // The log over modals and alerts, so it can always be read.
    if let logRect {
      grid.fill(logRect, with: " ", style: Style(.plain))
      drawLog(&grid, console.model, in: logRect)
    }
    if console.showsHelp { drawHelp(&grid, size: size) }
    return grid
  }

  // MARK: - Pieces

  /// The notice below the minimum size: the longest wording whose words fit the grid.
  static func drawTooSmall(_ grid: inout Grid) {
    let wordings = [
      ["Terminal too small", "need \(Size.minimum)"], ["Too small", "need \(Size.minimum)"],
      ["Too small"], ["Small"], ["!"],
    ]
    let width = grid.width
    let height = grid.height
    let fitting = wordings.first { wording in
      wording.flatMap { $0.split(separator: " ") }.allSatisfy { TextWidth.of(String($0)) <= width }
        && wording.flatMap { wrap($0, width: width) }.count <= height
    }
    let lines = fitting.map { $0.flatMap { wrap($0, width: width) } } ?? []
    let first = max(0, (grid.height - lines.count) / 2)
    for (offset, line) in lines.enumerated() where first + offset < grid.height {
      let column = max(0, (grid.width - TextWidth.of(line)) / 2)
      grid.write(line, row: first + offset, column: column, style: Style(.alert, bold: true))
    }
  }

  static func drawRule(_ grid: inout Grid, row: Int, column: Int, width: Int) {
    grid.fill(
      Rect(row: row, column: column, width: width, height: 1), with: Box.unicode.horizontal,
      style: Style(.muted))
  }

  /// `‹ Back`  Title  — the back label names the previous screen.
  static func drawNavigationBar(
    _ grid: inout Grid, stack: [Screen], row: Int, column: Int, width: Int,
    closeLabel: String? = nil
  ) {
    guard width > 0 else { return }
    var left = ""
    if stack.count > 1 {
      left = "‹ " + clipped(stack[stack.count - 2].title, to: max(1, width / 4))
    } else if let closeLabel {
      left = closeLabel
    }
    let leftWidth = left.isEmpty ? 0 : TextWidth.of(left) + 1
    let title = clipped(stack.last!.title, to: max(1, width - 2 * leftWidth))
    let titleWidth = TextWidth.of(title)
    if !left.isEmpty {
      grid.write(left, row: row, column: column, style: Style(.link), limit: column + width)
    }
    let centered = column + max(leftWidth, (width - titleWidth) / 2)
    grid.write(
      title, row: row, column: centered, style: Style(.title, bold: true), limit: column + width)
  }

  /// The body, a blank line, then the links; scrolled so the selected link shows.
  static func drawScreen(
    _ grid: inout Grid, _ screen: Screen, selected: Int?, scroll: Int = 0, in rect: Rect
  ) {
    guard rect.height > 0, rect.width > 2 else { return }
    // Lines: the body, then a blank line and one line per link (`▸ ` marks the selected one).
    let body = screen.body
    let links = screen.links
    let lineCount = body.count + (links.isEmpty ? 0 : 1 + links.count)
    var first = min(scroll, max(0, lineCount - 1))
    if let selected, links.indices.contains(selected) {
      let line = body.count + 1 + selected
      if line >= first + rect.height { first = line - rect.height + 1 }
      if line < first { first = line }
    }
    let room = rect.width - 2
    for line in first..<min(lineCount, first + rect.height) {
      let row = rect.row + line - first
      let column = rect.column + 1
      let limit = rect.column + rect.width - 1
      if line < body.count {
        grid.write(clipped(body[line], to: room), row: row, column: column, limit: limit)
        continue
      }
      let index = line - body.count - 1
      guard index >= 0 else { continue }  // the blank line before the links
      let isSelected = index == selected
      let style = isSelected ? Style(.selection, bold: true, reverse: true) : Style(.link)
      let marker = isSelected ? "▸ " : "  "
      var end: Int
      if room > 2 {
        // The marker is two columns; the label is cut to what is left.
        end = grid.write(marker, row: row, column: column, style: style, limit: limit)
        end = grid.write(
          clipped(links[index].label, to: room - 2), row: row, column: end, style: style,
          limit: limit)
      } else {
        end = grid.write(
          clipped(marker + links[index].label, to: room), row: row, column: column,
          style: style, limit: limit)
      }
      if style.reverse {
        grid.restyle(Rect(row: row, column: end, width: 1, height: 1), style)
      }
    }
  }

  /// `[ Home ]   Orders   Me` centred, the selected tab marked.
  /// In a narrow terminal the padding goes first, then titles are cut, so every tab shows.
  static func drawTabBar(_ grid: inout Grid, _ shell: ShellState, row: Int, width: Int) {
    func layout(pad: String, gap: Int, titleWidth: Int) -> ([(String, Bool)], Int) {
      var pieces: [(String, Bool)] = []
      for (index, tab) in shell.tabs.enumerated() {
        let selected = index == shell.selectedTab
        let title = clipped(tab.title, to: titleWidth)
        pieces.append((selected ? "[\(pad)\(title)\(pad)]" : " \(pad)\(title)\(pad) ", selected))
      }
      let total = pieces.reduce(0) { $0 + TextWidth.of($1.0) } + gap * (pieces.count - 1)
      return (pieces, total)
    }
    var (pieces, total) = layout(pad: " ", gap: 2, titleWidth: width)
    var gap = 2
    if total > width {
      gap = 0
      (pieces, total) = layout(pad: "", gap: 0, titleWidth: width)
    }
    if total > width {
      let share = max(1, width / max(1, shell.tabs.count) - 2)
      (pieces, total) = layout(pad: "", gap: 0, titleWidth: share)
    }
    var column = max(0, (width - total) / 2)
    for (index, piece) in pieces.enumerated() {
      if index > 0 { column += gap }
      column = grid.write(
        piece.0, row: row, column: column,
        style: piece.1 ? Style(.selection, bold: true) : Style(.muted))
    }
  }

  static func drawBox(_ grid: inout Grid, _ rect: Rect, style: Style = Style(.muted)) {
    guard rect.width >= 2, rect.height >= 2 else { return }
    let box = Box.unicode
    grid.fill(rect)
    let right = rect.column + rect.width - 1
    let bottom = rect.row + rect.height - 1
    grid.fill(
      Rect(row: rect.row, column: rect.column, width: rect.width, height: 1), with: box.horizontal,
      style: style)
    grid.fill(
      Rect(row: bottom, column: rect.column, width: rect.width, height: 1), with: box.horizontal,
      style: style)
    grid.fill(
      Rect(row: rect.row, column: rect.column, width: 1, height: rect.height), with: box.vertical,
      style: style)
    grid.fill(
      Rect(row: rect.row, column: right, width: 1, height: rect.height), with: box.vertical,
      style: style)
    grid.write(String(box.corners.0), row: rect.row, column: rect.column, style: style)
    grid.write(String(box.corners.1), row: rect.row, column: right, style: style)
    grid.write(String(box.corners.2), row: bottom, column: rect.column, style: style)
    grid.write(String(box.corners.3), row: bottom, column: right, style: style)
  }

  /// `URL› text` with the cursor; long text scrolls to keep the cursor visible.
  static func drawPrompt(_ grid: inout Grid, _ prompt: Prompt, row: Int, width: Int) {
    let label = "URL› "
    let start = grid.write(label, row: row, column: 0, style: Style(.title, bold: true))
    let room = max(1, width - start - 1)
    if prompt.characters.isEmpty {
      grid.cursor = (row, min(width - 1, start))
      return
    }
    let text = prompt.text
    if isPrintableASCII(text) {
      // One column per character: show the window that keeps the cursor in view.
      let first = max(0, prompt.cursor - (room - 1))
      let shown = String(decoding: text.utf8.dropFirst(first).prefix(width - start), as: UTF8.self)
      grid.write(shown, row: row, column: start)
      grid.cursor = (row, min(width - 1, start + prompt.cursor - first))
      return
    }
    let characters = prompt.characters.map { inert(String($0)) }
    let widths = characters.map(TextWidth.of)
    // First character shown: enough that the cursor fits.
    var first = 0
    var used = widths[0..<prompt.cursor].reduce(0, +)
    while used >= room, first < prompt.cursor {
      used -= widths[first]
      first += 1
    }
    var column = start
    for index in first..<characters.count {
      if column + widths[index] > width { break }
      column = grid.write(characters[index], row: row, column: column)
    }
    grid.cursor = (row, min(width - 1, start + used))
  }

  // MARK: - Text helpers

  /// The status line's text: whole when it fits, else cut; a note the log holds (a refused
  /// reload, say) is cut with a pointer to the log, which shows it whole.
  static func statusText(_ text: String, width: Int, inLog: Bool) -> String {
    let hint = " (F2: all)"
    guard inLog, TextWidth.of(inert(text)) > width, width > hint.count * 2 else {
      return clipped(text, to: width)
    }
    return clipped(text, to: width - hint.count) + hint
  }

  /// Text cut to a display width, with `…` when cut.
  static func clipped(_ text: String, to width: Int) -> String {
    if isPrintableASCII(text) {
      let count = text.utf8.count
      guard count > width else { return text }
      guard width > 1 else { return width == 1 ? "…" : "" }
      return String(decoding: text.utf8.prefix(width - 1), as: UTF8.self) + "…"
    }
    let safe = inert(text)
    guard TextWidth.of(safe) > width else { return safe }
    guard width > 1 else { return width == 1 ? "…" : "" }
    var out = ""
    var used = 0
    for character in safe {
      let characterWidth = TextWidth.of(character)
      if used + characterWidth > width - 1 { break }
      out.append(character)
      used += characterWidth
    }
    return out + "…"
  }

  /// Text wrapped into lines of a display width, at spaces where possible.
  static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    var line = ""
    var used = 0
    var lastSpace: (index: String.Index, used: Int)?
    for character in inert(text) {
      let characterWidth = TextWidth.of(character)
      if used + characterWidth > width {
        if let space = lastSpace {
          let rest = String(line[line.index(after: space.index)...])
          lines.append(String(line[..<space.index]))
          line = rest
          used = TextWidth.of(rest)
        } else {
          lines.append(line)
          line = ""
          used = 0
        }
        lastSpace = nil
      }
      if character == " " { lastSpace = (line.endIndex, used) }
      line.append(character)
      used += characterWidth
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }
}
