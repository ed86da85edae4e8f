import Foundation

/// How a cell is drawn beyond its text: a role the terminal maps to colours, and emphasis.
package struct Style: Sendable, Hashable {
  /// What the text is, for colouring.
  package enum Role: UInt8, Sendable, Hashable, CaseIterable {
    /// Ordinary text.
    case plain
    /// Navigation-bar titles.
    case title
    /// Secondary text: separators, hints, the status line.
    case muted
    /// The selected link or tab.
    case selection
    /// Alerts and failures.
    case alert
    /// Links and other things to act on.
    case link
    /// Successful outcomes in the log.
    case success
  }

  /// The role.
  package var role: Role
  /// Bold text.
  package var bold: Bool
  /// Reverse video (selection), kept under `NO_COLOR`.
  package var reverse: Bool

  /// Makes a style.
  package init(_ role: Role = .plain, bold: Bool = false, reverse: Bool = false) {
    self.role = role
    self.bold = bold
    self.reverse = reverse
  }

  /// Ordinary text.
  package static let plain = Style()
}

/// One cell of the grid: one grapheme of width 1, the first column of a wide grapheme, or the
/// continuation (second column) of one.
///
/// A plain value with no references (the grapheme is a Unicode scalar, or a number standing for
/// a grapheme of several scalars), so a frame of thousands of cells is made, copied and
/// compared without reference counting.
package struct Cell: Sendable, Hashable {
  /// The grapheme's one scalar; 0 for a continuation; above ``Graphemes/firstCode`` for a
  /// grapheme of several scalars kept in ``Graphemes``.
  var code: UInt32
  /// 1, 2 (first column of a wide grapheme) or 0 (continuation).
  package var width: UInt8
  /// The style.
  package var style: Style

  /// Makes a cell from its grapheme (empty for a continuation cell).
  package init(text: String, width: UInt8, style: Style) {
    self.init(code: Graphemes.code(of: text), width: width, style: style)
  }

  @inline(__always)
  init(code: UInt32, width: UInt8, style: Style) {
    self.code = code
    self.width = width
    self.style = style
  }

  /// The grapheme; empty for a continuation cell.
  package var text: String { Graphemes.text(of: code) }

  /// A blank cell.
  package static let blank = Cell(code: 0x20, width: 1, style: .plain)
}

/// The graphemes of more than one scalar that cells have held (combining marks, emoji
/// sequences), numbered once for the life of the process.
enum Graphemes {
  /// Codes from here on stand for an entry of the table.
  static let firstCode: UInt32 = 0x0020_0000

  private static let table = Locked<(texts: [String], codes: [String: UInt32])>(([], [:]))

  /// The code of a grapheme.
  static func code(of text: String) -> UInt32 {
    let scalars = text.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if scalars.index(after: scalars.startIndex) == scalars.endIndex { return first.value }
    return table.withLock { table in
      if let code = table.codes[text] { return code }
      let code = firstCode + UInt32(table.texts.count)
      table.texts.append(text)
      table.codes[text] = code
      return code
    }
  }

  /// The grapheme of a code.
  static func text(of code: UInt32) -> String {
    if code == 0 { return "" }
    if code < 0x80 { return asciiStrings[Int(code)] }
    if code < firstCode { return String(UnicodeScalar(code).map(Character.init) ?? " ") }
    return table.withLock { $0.texts[Int(code - firstCode)] }
  }
}

/// A value behind a lock, for state shared between threads. An `NSLock`, which every
/// platform AppShell builds for has (`Synchronization.Mutex` needs macOS 15).
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  /// Runs `body` with the value while holding the lock.
  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

/// A rectangle of the grid, in cells.
package struct Rect: Sendable, Hashable {
  /// The top row.
  package var row: Int
  /// The left column.
  package var column: Int
  /// The width in columns.
  package var width: Int
  /// The height in rows.
  package var height: Int

  /// Makes a rectangle.
  package init(row: Int, column: Int, width: Int, height: Int) {
    self.row = row
    self.column = column
    self.width = max(0, width)
    self.height = max(0, height)
  }

  /// The rectangle shrunk by `by` cells on every side.
  package func inset(_ by: Int) -> Rect {
    Rect(row: row + by, column: column + by, width: width - 2 * by, height: height - 2 * by)
  }
}

/// What the renderer produces and a terminal device shows: rows of cells, and where the
/// cursor goes.
package struct Grid: Sendable, Hashable {
  /// Columns.
  package let width: Int
  /// Rows.
  package let height: Int
  /// The cells, row by row.
  package private(set) var cells: [Cell]
  /// Where the terminal cursor should be shown, or nil to hide it.
  package var cursor: (row: Int, column: Int)? {
    get { cursorRow.map { ($0, cursorColumn) } }
    set {
      cursorRow = newValue?.row
      cursorColumn = newValue?.column ?? 0
    }
  }
  private var cursorRow: Int?
  private var cursorColumn = 0

  /// A blank grid.
  package init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(unsafeUninitializedCapacity: self.width * self.height) { buffer, count in
      buffer.initialize(repeating: .blank)
      count = buffer.count
    }
  }

  /// The cell at a position (which must be inside the grid).
  package subscript(row: Int, column: Int) -> Cell {
    cells[row * width + column]
  }

  /// Writes text from a position, made inert first, cut at `limit` columns (default: the
  /// grid's edge); a wide grapheme that does not fit whole is not drawn. Returns the column
  /// after the last one written.
  @discardableResult
  package mutating func write(
    _ text: String, row: Int, column: Int, style: Style = .plain, limit: Int? = nil
  ) -> Int {
    guard row >= 0, row < height else { return column }
    let end = min(limit ?? width, width)
    var position = column
    let rowStart = row * width
    let gridWidth = width
    let wroteASCII: Bool? = text.utf8.withContiguousStorageIfAvailable { bytes in
      guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
      // Printable ASCII: one cell per byte, nothing to escape.
      let count = max(0, min(bytes.count, end - position))
      cells.withUnsafeMutableBufferPointer { cells in
        for offset in 0..<count where position + offset >= 0 {
          let index = rowStart + position + offset
          if cells[index].width != 1 { Self.clearWide(cells, gridWidth, row, position + offset) }
          cells[index] = Cell(code: UInt32(bytes[offset]), width: 1, style: style)
        }
      }
      position += count
      return true
    }
    if wroteASCII == true { return position }
    if isSimple(text) {
      for scalar in text.unicodeScalars {
        let scalarWidth = TextWidth.isWide(scalar.value) ? 2 : 1
        if position + scalarWidth > end { break }
        if position >= 0 {
          put(code: scalar.value, width: scalarWidth, row: row, column: position, style: style)
        }
        position += scalarWidth
      }
      return position
    }
    for character in inert(text) {
      let characterWidth = TextWidth.of(character)
      if position + characterWidth > end { break }
      if position >= 0 {
        put(character, width: characterWidth, row: row, column: position, style: style)
      }
      position += characterWidth
    }
    return position
  }

  /// Fills a rectangle with a character (made inert; width-1 characters only).
  package mutating func fill(_ rect: Rect, with character: Character = " ", style: Style = .plain) {
    let cell: Cell
    let scalars = character.unicodeScalars
    if let scalar = scalars.first, scalars.count == 1, !isUnsafe(scalar.value),
      !TextWidth.isWide(scalar.value)
    {
      cell = Cell(code: scalar.value, width: 1, style: style)
    } else {
      let safe = inert(String(character)).first ?? " "
      guard TextWidth.of(safe) == 1 else { return }
      cell = Cell(text: String(safe), width: 1, style: style)
    }
    let (rows, columns) = clip(rect)
    let gridWidth = width
    guard !columns.isEmpty else { return }
    cells.withUnsafeMutableBufferPointer { cells in
      for row in rows {
        // Only a wide grapheme across the edges needs its other half blanked.
        Self.clearWide(cells, gridWidth, row, columns.lowerBound)
        Self.clearWide(cells, gridWidth, row, columns.upperBound - 1)
        let start = row * gridWidth
        UnsafeMutableBufferPointer(
          rebasing: cells[(start + columns.lowerBound)..<(start + columns.upperBound)]
        ).update(repeating: cell)
      }
    }
  }

  /// Changes the style of the cells in a rectangle, keeping their text.
  package mutating func restyle(_ rect: Rect, _ style: Style) {
    let (rows, columns) = clip(rect)
    for row in rows {
      for column in columns { cells[row * width + column].style = style }
    }
  }

  /// The rows and columns of a rectangle that lie inside the grid.
  private func clip(_ rect: Rect) -> (Range<Int>, Range<Int>) {
    let rows = max(0, rect.row)..<max(max(0, rect.row), min(height, rect.row + rect.height))
    let columns =
      max(0, rect.column)..<max(max(0, rect.column), min(width, rect.column + rect.width))
    return (rows, columns)
  }

  /// Puts one single-scalar grapheme by its code.
  private mutating func put(
    code: UInt32, width characterWidth: Int, row: Int, column: Int, style: Style
  ) {
    clearWide(row: row, column: column)
    if characterWidth == 2 {
      guard column + 1 < width else { return }
      clearWide(row: row, column: column + 1)
      cells[row * width + column] = Cell(code: code, width: 2, style: style)
      cells[row * width + column + 1] = Cell(code: 0, width: 0, style: style)
    } else {
      cells[row * width + column] = Cell(code: code, width: 1, style: style)
    }
  }

  /// Puts one grapheme; overwriting half of a wide grapheme blanks its other half.
  private mutating func put(
    _ character: Character, width characterWidth: Int, row: Int, column: Int, style: Style
  ) {
    clearWide(row: row, column: column)
    if characterWidth == 2 {
      guard column + 1 < width else { return }
      clearWide(row: row, column: column + 1)
      cells[row * width + column] = Cell(text: String(character), width: 2, style: style)
      cells[row * width + column + 1] = Cell(code: 0, width: 0, style: style)
    } else {
      cells[row * width + column] = Cell(text: String(character), width: 1, style: style)
    }
  }

  /// Blanks the wide grapheme that covers a cell, if any.
  private mutating func clearWide(row: Int, column: Int) {
    let gridWidth = width
    cells.withUnsafeMutableBufferPointer { Self.clearWide($0, gridWidth, row, column) }
  }

  /// Blanks the wide grapheme that covers a cell of `cells`, if any.
  @inline(__always)
  private static func clearWide(
    _ cells: UnsafeMutableBufferPointer<Cell>, _ width: Int, _ row: Int, _ column: Int
  ) {
    let index = row * width + column
    switch cells[index].width {
    case 0 where column > 0:
      cells[index - 1] = Cell(code: 0x20, width: 1, style: cells[index - 1].style)
      cells[index] = Cell(code: 0x20, width: 1, style: cells[index].style)
    case 2 where column + 1 < width:
      cells[index + 1] = Cell(code: 0x20, width: 1, style: cells[index + 1].style)
    default:
      break
    }
  }

  /// One row as text, trailing spaces cut.
  package func text(ofRow row: Int) -> String {
    var line = ""
    for column in 0..<width { line += cells[row * width + column].text }
    while line.last == " " { line.removeLast() }
    return line
  }

  /// All rows as text, each followed by a newline (the `replay` snapshot format).
  package var text: String {
    (0..<height).map { text(ofRow: $0) + "\n" }.joined()
  }

  /// Equality of cells and cursor.
  package static func == (lhs: Grid, rhs: Grid) -> Bool {
    lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
      && lhs.cursorRow == rhs.cursorRow && lhs.cursorColumn == rhs.cursorColumn
  }

  /// Hashes the cells.
  package func hash(into hasher: inout Hasher) {
    hasher.combine(width)
    hasher.combine(height)
    hasher.combine(cells)
  }
}
