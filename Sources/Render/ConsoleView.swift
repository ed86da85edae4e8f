import Interface
import Routing
import Shell

/// Draws the console: a pure function from its state to a grid of the console's size.
///
/// Layout, top to bottom: navigation bar, separator, the top screen (body, then links), the
/// event log when shown, the tab bar, the status line and the URL prompt. Modals are boxes
/// over everything but the status line and prompt; an alert is a box in the middle; the help
/// overlay lists every key binding.
public enum ConsoleView {
  /// Box-drawing characters.
  struct Box {
    let horizontal: Character
    let vertical: Character
    let corners: (Character, Character, Character, Character)

    static let unicode = Box(horizontal: "─", vertical: "│", corners: ("┌", "┐", "└", "┘"))
  }

  /// The last frame's scene (everything but the status line and the prompt), kept so that a
  /// key that only edits the prompt redraws only those two rows.
  public struct Cache: Sendable {
    fileprivate var revision: Int
    fileprivate var size: Size
    fileprivate var scene: Grid
  }

  /// The grid for a console.
  public static func render(_ console: Console) -> Grid {
    var cache: Cache?
    return render(console, cache: &cache)
  }

  /// The grid for a console, reusing `cache` when only the status line or the prompt can have
  /// changed since it was made; the result is the same as ``render(_:)``.
  public static func render(_ console: Console, cache: inout Cache?) -> Grid {
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
      clipped(console.statusLine, to: size.columns), row: size.rows - 2, column: 0,
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
    if console.showsLog && contentRect.height >= 2 {
      let logHeight = min(8, max(3, contentRect.height / 2), contentRect.height)
      let logRect = Rect(
        row: contentRect.row + contentRect.height - logHeight, column: 0,
        width: size.columns, height: logHeight)
      contentRect.height -= logHeight
      drawLog(&grid, console.model, in: logRect)
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
    if let alert = shell.alert { drawAlert(&grid, alert, size: size) }
    if console.showsHelp { drawHelp(&grid, size: size) }
    return grid
  }

  // MARK: - Pieces

  static func drawTooSmall(_ grid: inout Grid) {
    let lines = ["Terminal too small", "need \(Size.minimum)"]
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

  /// A presented navigation stack in a box with its own navigation bar.
  static func drawModal(
    _ grid: inout Grid, _ modal: Modal, selected: Int?, scroll: Int, in rect: Rect
  ) {
    guard rect.width >= 4, rect.height >= 3 else { return }
    drawBox(&grid, rect)
    let inner = rect.inset(1)
    drawNavigationBar(
      &grid, stack: modal.stack, row: inner.row, column: inner.column, width: inner.width,
      closeLabel: "✕ Close")
    var content = Rect(
      row: inner.row + 1, column: inner.column, width: inner.width, height: inner.height - 1)
    if content.height >= 4 {
      drawRule(&grid, row: content.row, column: inner.column, width: inner.width)
      content.row += 1
      content.height -= 1
    }
    drawScreen(&grid, modal.stack.last!, selected: selected, scroll: scroll, in: content)
  }

  /// A centred box: title, message (wrapped), buttons.
  static func drawAlert(_ grid: inout Grid, _ alert: Alert, size: Size) {
    let width = min(size.columns - 2, 56)
    let textWidth = width - 4
    let message = wrap(alert.message, width: textWidth)
    let buttons = alert.buttons.map { "[ \($0) ]" }.joined(separator: " ")
    let bodyRows = min(message.count, max(1, size.rows - 7))
    let height = min(size.rows - 2, bodyRows + 5)
    let rect = Rect(
      row: max(0, (size.rows - 2 - height) / 2), column: (size.columns - width) / 2,
      width: width, height: height)
    drawBox(&grid, rect, style: Style(.alert))
    let inner = rect.inset(1)
    let title = clipped(alert.title, to: inner.width)
    grid.write(
      title, row: inner.row, column: inner.column + (inner.width - TextWidth.of(title)) / 2,
      style: Style(.alert, bold: true))
    for (offset, line) in message.prefix(max(0, inner.height - 2)).enumerated() {
      grid.write(
        line, row: inner.row + 1 + offset, column: inner.column + 1,
        limit: inner.column + inner.width)
    }
    let buttonRow = inner.row + inner.height - 1
    if buttonRow > inner.row {
      let text = clipped(buttons, to: inner.width)
      grid.write(
        text, row: buttonRow, column: inner.column + (inner.width - TextWidth.of(text)) / 2,
        style: Style(.selection, bold: true))
    }
  }

  /// A push banner: a box across the top with the title, the body and how to open it.
  static func drawBanner(_ grid: inout Grid, _ banner: Banner, size: Size) {
    let width = min(size.columns, 60)
    let rect = Rect(
      row: 0, column: (size.columns - width) / 2, width: width, height: min(4, size.rows - 2))
    drawBox(&grid, rect, style: Style(.title))
    let inner = rect.inset(1)
    let hint = banner.url == nil ? " C-o dismiss " : " C-o open "
    grid.write(
      clipped(hint, to: max(0, rect.width - 4)), row: rect.row + rect.height - 1,
      column: rect.column + max(1, rect.width - 1 - TextWidth.of(hint)), style: Style(.muted))
    guard inner.height > 0, inner.width > 0 else { return }
    let title = banner.title.isEmpty ? "Notification" : banner.title
    grid.write(
      clipped(title, to: inner.width), row: inner.row, column: inner.column,
      style: Style(.title, bold: true))
    if inner.height > 1 {
      grid.write(
        clipped(banner.body, to: inner.width), row: inner.row + 1, column: inner.column,
        limit: inner.column + inner.width)
    }
  }

  /// The help overlay: every key binding, keys in one column and what they do in another.
  static func drawHelp(_ grid: inout Grid, size: Size) {
    let bindings = Console.bindings
    let keyWidth = (bindings.map { TextWidth.of($0.keys) }.max() ?? 0) + 2
    let actionWidth = bindings.map { TextWidth.of($0.action) }.max() ?? 0
    let width = min(size.columns - 2, keyWidth + actionWidth + 4)
    let height = min(size.rows - 2, bindings.count + 4)
    let rect = Rect(
      row: max(0, (size.rows - 2 - height) / 2), column: (size.columns - width) / 2,
      width: width, height: height)
    drawBox(&grid, rect, style: Style(.title))
    let inner = rect.inset(1)
    let right = inner.column + inner.width
    grid.write(
      "Keys (Esc or F1 closes)", row: inner.row, column: inner.column + 1,
      style: Style(.title, bold: true), limit: right)
    for (offset, binding) in bindings.prefix(max(0, inner.height - 2)).enumerated() {
      let row = inner.row + 2 + offset
      grid.write(
        binding.keys, row: row, column: inner.column + 1, style: Style(.link, bold: true),
        limit: right)
      grid.write(binding.action, row: row, column: inner.column + 1 + keyWidth, limit: right)
    }
  }

  /// The newest entries of the event log, two lines each: where the URL came from and the URL,
  /// then the route, the parameters and the outcome.
  /// The event log: two lines per URL opened, one per note of the app's own, newest last.
  static func drawLog(_ grid: inout Grid, _ model: AppModel, in rect: Rect) {
    guard rect.height > 0 else { return }
    drawRule(&grid, row: rect.row, column: rect.column, width: rect.width)
    grid.write(
      " Event log (F2 hides) ", row: rect.row, column: rect.column + 2,
      style: Style(.title, bold: true))
    var lines: [(String, Style)] = []
    let firstEntry = max(0, model.log.count - rect.height)
    var notes = model.notes.drop { $0.position < firstEntry }.suffix(rect.height)[...]
    func addNotes(upTo position: Int) {
      while let note = notes.first, note.position <= position {
        lines.append(("! " + note.text, Style(note.isProblem ? .alert : .success)))
        notes = notes.dropFirst()
      }
    }
    for (index, entry) in model.log.enumerated().dropFirst(firstEntry) {
      addNotes(upTo: index)
      let (head, detail, style) = describe(entry)
      lines.append((head, Style(.plain)))
      lines.append(("   " + detail, style))
    }
    addNotes(upTo: model.log.count)
    for (offset, line) in lines.suffix(rect.height - 1).enumerated() {
      grid.write(
        clipped(line.0, to: rect.width - 1), row: rect.row + 1 + offset,
        column: rect.column + 1, style: line.1)
    }
  }

  /// A log entry as two lines and the second line's style: `[source] URL`, then
  /// `⇒ redirects ~ pattern {params} → outcome`.
  public static func describe(_ entry: LogEntry) -> (String, String, Style) {
    let head = "[\(entry.source.rawValue)] \(entry.url)"
    var parts: [String] = []
    if !entry.redirects.isEmpty { parts.append("⇒ " + entry.redirects.joined(separator: " ⇒ ")) }
    if let pattern = entry.pattern { parts.append("~ \(pattern)") }
    if !entry.params.isEmpty {
      let params = entry.params.keys.sorted().map { "\($0)=\(entry.params[$0]!.displayText)" }
      parts.append("{" + params.joined(separator: " ") + "}")
    }
    let outcome: String
    var style = Style(.success)
    switch entry.outcome {
    case .pushed(let name): outcome = "pushed \(name)"
    case .presented(let name): outcome = "presented \(name)"
    case .alreadyShown(let name): outcome = "already showing \(name)"
    case .handled(let action, let status): outcome = "handled \(action): \(status)"
    case .started(let action): outcome = "started \(action)"
    case .notified(let name): outcome = "notified \(name)"
    case .guarded(let name): outcome = "guarded by \(name)"
    case .restored: outcome = "restored state"
    case .refused(let reason):
      outcome = "refused: \(reason)"
      style = Style(.alert)
    case .failed(let title, let message):
      outcome = "\(title): \(message)"
      style = Style(.alert)
    }
    parts.append("→ " + outcome)
    return (head, parts.joined(separator: " "), style)
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
