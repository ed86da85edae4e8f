import Interface
import Routing
import Shell

// What the console view draws over the screen: modals, alerts, push banners, the help overlay
// and the event-log pane.

extension ConsoleView {
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

  /// The newest entries of the event log, newest last: two lines per URL opened (its
  /// `headline` and `detail`, worded by `Shell`), one per note of the app's own.
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
      lines.append((entry.headline, Style(.plain)))
      lines.append(("   " + entry.detail, Style(entry.outcome.isProblem ? .alert : .success)))
    }
    addNotes(upTo: model.log.count)
    // Long entries wrap, their continuation lines indented.
    let wrapped = lines.flatMap { line, style in
      let indent = line.hasPrefix("   ") ? "     " : "  "
      let parts = wrap(line, width: rect.width - 1)
      guard parts.count > 1 else { return [(parts.first ?? "", style)] }
      let rest = wrap(
        parts.dropFirst().joined(separator: " "), width: max(1, rect.width - 1 - indent.count))
      return [(parts[0], style)] + rest.map { (indent + $0, style) }
    }
    for (offset, line) in wrapped.suffix(rect.height - 1).enumerated() {
      grid.write(
        clipped(line.0, to: rect.width - 1), row: rect.row + 1 + offset,
        column: rect.column + 1, style: line.1)
    }
  }
}
