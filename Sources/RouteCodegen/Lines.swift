/// Lines of generated Swift, laid out as `swift-format` lays them out (lines of at most 100
/// characters; long lists filled greedily after a break at the opening parenthesis).
struct Lines {
  static let width = 100
  private(set) var lines: [String] = []

  /// The text, each line ending in a newline.
  var text: String { lines.map { $0 + "\n" }.joined() }

  mutating func add(_ line: String) { lines.append(line) }

  private static func pad(_ indent: Int) -> String { String(repeating: " ", count: indent) }

  private static func fits(_ line: String) -> Bool { line.count <= width }

  /// `head(item, item)close`, or broken after `open` with the items filled greedily on lines
  /// indented two more.
  mutating func wrapped(indent: Int, head: String, items: [String], open: String, close: String) {
    guard !items.isEmpty else {
      add(Self.pad(indent) + head)
      return
    }
    let one = Self.pad(indent) + head + open + items.joined(separator: ", ") + close
    if Self.fits(one) {
      add(one)
      return
    }
    add(Self.pad(indent) + head + open)
    fill(indent: indent + 2, items: items, close: close)
  }

  private mutating func fill(indent: Int, items: [String], close: String) {
    var line = ""
    for (index, item) in items.enumerated() {
      let piece = item + (index == items.count - 1 ? close : ",")
      let candidate = line.isEmpty ? Self.pad(indent) + piece : line + " " + piece
      if line.isEmpty || Self.fits(candidate) {
        line = candidate
      } else {
        add(line)
        line = Self.pad(indent) + piece
      }
    }
    add(line)
  }

  /// `guard let name = call(arguments) else { return nil }`, broken as `swift-format` does
  /// when it is too long.
  mutating func wrappedGuard(indent: Int, name: String, call: String, arguments: [String]) {
    let expression = call + arguments.joined(separator: ", ") + ")"
    let one = Self.pad(indent) + "guard let \(name) = \(expression) else { return nil }"
    if Self.fits(one) {
      add(one)
      return
    }
    add(Self.pad(indent) + "guard")
    let binding = Self.pad(indent + 2) + "let \(name) = \(expression)"
    if Self.fits(binding) {
      add(binding)
    } else {
      add(Self.pad(indent + 2) + "let \(name) = \(call)")
      fill(indent: indent + 4, items: arguments, close: ")")
    }
    add(Self.pad(indent) + "else { return nil }")
  }

  /// `target = value`; a value `.kind(inner)` too long for the line breaks after `(`.
  mutating func wrappedAssignment(indent: Int, target: String, value: String) {
    let one = Self.pad(indent) + target + " = " + value
    if Self.fits(one) {
      add(one)
      return
    }
    guard let open = value.firstIndex(of: "(") else {
      add(one)
      return
    }
    add(Self.pad(indent) + target + " = " + value[...open])
    add(Self.pad(indent + 2) + value[value.index(after: open)...])
  }

  /// `condition { target = value }`, or as a block when too long.
  mutating func wrappedIf(indent: Int, condition: String, target: String, value: String) {
    let one = Self.pad(indent) + condition + " { " + target + " = " + value + " }"
    if Self.fits(one) {
      add(one)
      return
    }
    add(Self.pad(indent) + condition + " {")
    wrappedAssignment(indent: indent + 2, target: target, value: value)
    add(Self.pad(indent) + "}")
  }
}
