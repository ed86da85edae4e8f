import Interface
import Render

/// Where frames are shown: a real terminal through ncurses, or memory (tests and `replay`).
public protocol TerminalDevice {
  /// The current size.
  func size() -> Size
  /// Shows a frame: every cell of the grid, and the cursor.
  mutating func present(_ grid: Grid)
}

/// A terminal in memory: keeps the last frame presented.
public struct MemoryTerminal: TerminalDevice, Sendable {
  /// The size reported.
  public var currentSize: Size
  /// The last frame presented.
  public private(set) var frame: Grid?

  /// Makes a memory terminal of a size.
  public init(size: Size) { currentSize = size }

  /// The size set on it.
  public func size() -> Size { currentSize }

  /// Keeps the frame.
  public mutating func present(_ grid: Grid) { frame = grid }
}
