// libFuzzer target: rendering a state built from fuzzed URLs (see Tests/Fuzz/run).
//
// The first two bytes choose the grid (4 to 83 columns, 3 to 26 rows); the rest, split on
// newlines, are URLs opened from the prompt, from outside and as push banners, with the last
// one left typed in the prompt. Invariants: the grid has exactly the console's size; every
// cell is printable (no control character, no bidi control) and as wide as its text; a wide
// cell is followed by its continuation; the cursor, when shown, is inside the grid.
import AppRuntime
import Demo
import Interface
import Render
import Shell

private let app = {
  DemoApp.register()
  return try! AppLoader.loadApp(screens: nil, routes: nil)
}()

private func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1 (ESC, CSI, OSC among them)
  case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: return true  // bidi
  case 0x2028, 0x2029: return true  // line and paragraph separators
  default: return false
  }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRender(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard bytes.count >= 2 else { return 0 }
  let grid = Size(columns: 4 + Int(bytes[0] % 80), rows: 3 + Int(bytes[1] % 24))
  var console = Console(app: app, size: grid)
  let urls = String(decoding: bytes[2...], as: UTF8.self).split(
    separator: "\n", omittingEmptySubsequences: false
  ).prefix(12)
  for (index, url) in urls.enumerated() {
    switch index % 3 {
    case 0: _ = console.send(.urlOpened(String(url), origin: .prompt))
    case 1: _ = console.send(.urlOpened(String(url), origin: .external))
    default:
      _ = console.send(.pushReceived(title: String(url), body: String(url), url: String(url)))
    }
  }
  for character in (urls.last ?? "").prefix(64) { _ = console.handle(.character(character)) }
  for key in [Key.function(2), .function(2), .function(1)] {
    _ = console.handle(key)
    check(ConsoleView.render(console), grid)
  }
  return 0
}

private func check(_ rendered: Grid, _ size: Size) {
  guard rendered.width == size.columns, rendered.height == size.rows,
    rendered.cells.count == size.columns * size.rows
  else { fatalError("grid \(rendered.width)x\(rendered.height) for \(size)") }
  var afterWide = false
  for (index, cell) in rendered.cells.enumerated() {
    if index % size.columns == 0 { afterWide = false }
    let text = cell.text
    if cell.width == 0 {
      guard afterWide, text.isEmpty else { fatalError("stray continuation at cell \(index)") }
      afterWide = false
      continue
    }
    guard !afterWide else { fatalError("wide cell without continuation before cell \(index)") }
    guard !text.unicodeScalars.contains(where: isUnsafe) else {
      fatalError("unprintable cell \(index): \(text.debugDescription)")
    }
    guard text.count == 1 else { fatalError("cell \(index) holds \(text.debugDescription)") }
    afterWide = cell.width == 2
    guard index % size.columns < size.columns - 1 || !afterWide else {
      fatalError("wide cell in the last column at \(index)")
    }
  }
  if let cursor = rendered.cursor {
    guard (0..<size.rows).contains(cursor.row), (0...size.columns).contains(cursor.column) else {
      fatalError("cursor \(cursor) outside \(size)")
    }
  }
}
