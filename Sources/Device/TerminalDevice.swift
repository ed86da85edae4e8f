import Interface
import Render

/// Where frames are shown: the real terminal (`NcursesTerminal`, in the Terminal target) or
/// memory (``MemoryTerminal``, for `replay` and tests).
package protocol TerminalDevice: AnyObject {
  /// The current size.
  func size() -> Size
  /// Asks the terminal for its size again (after SIGWINCH) and returns it.
  func updateSize() -> Size
  /// Shows a frame: every cell of the grid, and the cursor.
  func present(_ grid: Grid)
}

/// A terminal in memory: it keeps the last frame presented, and its size is whatever it is
/// told (`<Resize>` in a key script).
package final class MemoryTerminal: TerminalDevice {
  /// The size it reports.
  package var currentSize: Size
  /// The last frame presented.
  package private(set) var frame: Grid?
  /// How many frames were presented.
  package private(set) var presented = 0

  /// Makes a memory terminal of a size.
  package init(size: Size) { currentSize = size }

  /// The size set on it.
  package func size() -> Size { currentSize }

  /// The size set on it (nothing to ask).
  package func updateSize() -> Size { currentSize }

  /// Keeps the frame.
  package func present(_ grid: Grid) {
    frame = grid
    presented += 1
  }
}
