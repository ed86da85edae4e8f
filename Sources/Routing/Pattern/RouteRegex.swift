/// The regular expression of a `:name(REGEX)` placeholder, compiled once when its pattern is,
/// and compared by its text.
///
/// It is matched against a whole value in time linear in the value's length, whatever the
/// pattern: the REGEX compiles to an automaton (a Thompson NFA) and matching advances the set
/// of states the value read so far can be in, one Unicode scalar at a time, never backtracking.
/// The syntax is in docs/routing.md; anything else is refused when the pattern is compiled.
public struct RouteRegex: Sendable, Hashable, CustomStringConvertible {
  /// The REGEX as written, without the parentheses around it.
  public let source: String
  private let program: Program

  /// The largest count of a repetition (`{m}`, `{m,}`, `{m,n}`).
  public static let maxCount = RegexParser.maxCount
  /// The most states a REGEX may compile to, once its counts are expanded.
  public static let maxStates = 100_000

  /// Compiles `source`, or says why it is refused and where.
  init(_ source: String) throws(RegexRefusal) {
    var parser = RegexParser(source)
    let tree = try parser.parse()
    guard Program.size(tree) <= Self.maxStates else {
      throw RegexRefusal(
        message: "more than \(Self.maxStates) states once its counts are expanded", offset: 0)
    }
    self.source = source
    program = Program(tree, folds: parser.folds)
  }

  /// Whether the regular expression matches all of `text`.
  public func matches(_ text: String) -> Bool {
    var scalars = text.unicodeScalars.makeIterator()
    return program.run(&scalars)
  }

  /// Whether the regular expression matches all of the UTF-8 `bytes`.
  func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var scalars = UTF8Scalars(bytes: bytes.makeIterator())
    return program.run(&scalars)
  }

  /// The REGEX as written.
  public var description: String { source }

  /// How many states its automaton has: matching a value costs at most this many steps per
  /// scalar.
  var stateCount: Int { program.steps.count }

  /// Equal when the text is the same, byte for byte.
  public static func == (a: RouteRegex, b: RouteRegex) -> Bool {
    a.source.utf8.elementsEqual(b.source.utf8)
  }

  /// Hashes the text.
  public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

/// The scalars of UTF-8 bytes; a byte that does not decode reads as U+FFFD.
private struct UTF8Scalars: IteratorProtocol {
  var bytes: UnsafeBufferPointer<UInt8>.Iterator
  var codec = UTF8()

  mutating func next() -> Unicode.Scalar? {
    switch codec.decode(&bytes) {
    case .scalarValue(let scalar): return scalar
    case .emptyInput: return nil
    case .error: return "\u{FFFD}"
    }
  }
}

/// A REGEX's automaton: each step either reads one scalar (and goes on to the next step) or
/// moves without reading.
private struct Program: Sendable {
  enum Step: Sendable {
    case scalar(UInt32)
    case any
    case set(Int)
    case split(Int, Int)
    case jump(Int)
    case start
    case end
    case accept
  }

  var steps: [Step] = []
  var sets: [RegexSet] = []
  let folds: Bool

  init(_ tree: RegexNode, folds: Bool) {
    self.folds = folds
    steps.reserveCapacity(Self.size(tree) + 1)
    emit(tree)
    steps.append(.accept)
  }

  /// How many steps `node` compiles to, at most ``RouteRegex/maxStates`` + 1.
  static func size(_ node: RegexNode) -> Int {
    let cap = RouteRegex.maxStates + 1
    switch node {
    case .scalar, .any, .set, .start, .end: return 1
    case .sequence(let items): return min(items.reduce(0) { $0 + size($1) }, cap)
    case .alternation(let items): return min(items.reduce(0) { $0 + size($1) + 2 }, cap)
    case .repetition(let body, let low, let high):
      let copies = high.map { $0 } ?? (low + 1)
      return min(copies * (size(body) + 2), cap)
    }
  }

  private mutating func emit(_ node: RegexNode) {
    switch node {
    case .scalar(let scalar): steps.append(.scalar(scalar.value))
    case .any: steps.append(.any)
    case .set(let set):
      sets.append(set)
      steps.append(.set(sets.count - 1))
    case .start: steps.append(.start)
    case .end: steps.append(.end)
    case .sequence(let items): for item in items { emit(item) }
    case .alternation(let items):
      var jumps: [Int] = []
      for item in items.dropLast() {
        let split = steps.count
        steps.append(.accept)
        emit(item)
        jumps.append(steps.count)
        steps.append(.accept)
        steps[split] = .split(split + 1, steps.count)
      }
      emit(items[items.count - 1])
      for jump in jumps { steps[jump] = .jump(steps.count) }
    case .repetition(let body, let low, let high):
      for _ in 0..<low { emit(body) }
      if let high {
        // `x{2,4}` is `xx` then `x?x?`: the same whole values.
        for _ in low..<high { optional(body) }
      } else {
        let split = steps.count
        optional(body)
        steps.append(.jump(split))
        steps[split] = .split(split + 1, steps.count)
      }
    }
  }

  private mutating func optional(_ body: RegexNode) {
    let split = steps.count
    steps.append(.accept)
    emit(body)
    steps[split] = .split(split + 1, steps.count)
  }

  /// Whether the scalars, read to their end, take the start step to the accepting one.
  ///
  /// The states reachable after each scalar are kept in a list with a mark per step (the
  /// position it was last added at), so each scalar costs at most one visit per step.
  func run<Scalars: IteratorProtocol<Unicode.Scalar>>(_ scalars: inout Scalars) -> Bool {
    let count = steps.count
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * count) { buffer in
      buffer.initialize(repeating: -1)
      var position = 0
      var current = count
      var next = 2 * count
      var currentCount = 0
      var nextCount = 0
      let stack = 3 * count
      // Adds `first` and every step it reaches without reading to the list at `list`.
      func add(_ first: Int, to list: Int, _ listCount: inout Int, atEnd: Bool) {
        var top = 0
        func push(_ state: Int) {
          guard buffer[state] != position else { return }
          buffer[state] = position
          buffer[stack + top] = state
          top += 1
        }
        push(first)
        while top > 0 {
          top -= 1
          let state = buffer[stack + top]
          switch steps[state] {
          case .split(let a, let b):
            push(b)
            push(a)
          case .jump(let a): push(a)
          case .start: if position == 0 { push(state + 1) }
          case .end: if atEnd { push(state + 1) }
          default:
            buffer[list + listCount] = state
            listCount += 1
          }
        }
      }
      var upcoming = scalars.next()
      add(0, to: current, &currentCount, atEnd: upcoming == nil)
      while let scalar = upcoming {
        upcoming = scalars.next()
        position += 1
        nextCount = 0
        let lowered = folds ? RegexSet.lowercase(scalar) : scalar
        for index in 0..<currentCount {
          let state = buffer[current + index]
          let reads: Bool
          switch steps[state] {
          case .scalar(let value): reads = lowered.value == value
          case .any: reads = !RegexSet.isNewline(scalar)
          case .set(let set): reads = sets[set].contains(scalar, folds: folds)
          default: reads = false
          }
          if reads { add(state + 1, to: next, &nextCount, atEnd: upcoming == nil) }
        }
        swap(&current, &next)
        currentCount = nextCount
        if currentCount == 0 { return false }
      }
      return buffer[count - 1] == position
    }
  }
}

extension RegexSet {
  /// Whether the class holds `scalar`; with `folds`, also when it holds its simple lowercase or
  /// uppercase mapping.
  func contains(_ scalar: Unicode.Scalar, folds: Bool) -> Bool {
    var found = holds(scalar)
    if !found, folds {
      found = holds(Self.lowercase(scalar)) || holds(Self.uppercase(scalar))
    }
    return found != negated
  }

  private func holds(_ scalar: Unicode.Scalar) -> Bool {
    for range in ranges where range.contains(scalar.value) { return true }
    for escape in escapes where Self.isIn(escape.kind, scalar) != escape.negated { return true }
    return false
  }

  /// `\d`: decimal digits; `\w`: letters, decimal digits and `_`; `\s`: white space.
  private static func isIn(_ kind: UInt8, _ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII {
      let byte = UInt8(scalar.value)
      switch kind {
      case 0x64: return byte.isASCIIDigit
      case 0x77: return byte.isASCIIDigit || byte.isASCIILetter || byte == 0x5F
      default: return byte == 0x20 || (0x09...0x0D).contains(byte)
      }
    }
    let properties = scalar.properties
    switch kind {
    case 0x64: return properties.numericType == .decimal
    case 0x77: return properties.isAlphabetic || properties.numericType == .decimal
    default: return properties.isWhitespace
    }
  }

  /// What `.` does not match: `\n`, `\u{B}`, `\u{C}`, `\r`, U+0085, U+2028 and U+2029.
  static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
    default: return false
    }
  }

  /// The Unicode simple lowercase mapping of `scalar`.
  static func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII {
      return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
    return scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
  }

  /// The Unicode simple uppercase mapping of `scalar` (itself when the full mapping is longer).
  static func uppercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    if scalar.isASCII {
      return (0x61...0x7A).contains(scalar.value) ? Unicode.Scalar(scalar.value - 32)! : scalar
    }
    let mapping = scalar.properties.uppercaseMapping.unicodeScalars
    return mapping.count == 1 ? mapping.first! : scalar
  }
}
