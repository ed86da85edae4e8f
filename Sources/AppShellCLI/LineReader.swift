/// Splits a byte stream into lines: `\n` ends a line, a `\r` before it is removed, and a last
/// line without `\n` still counts.
struct LineReader {
  private var pending: [UInt8] = []

  mutating func feed(_ chunk: [UInt8], _ line: ([UInt8]) -> Void) {
    var start = 0
    for (offset, byte) in chunk.enumerated() where byte == 0x0A {
      var piece = pending + chunk[start..<offset]
      pending.removeAll(keepingCapacity: true)
      if piece.last == 0x0D { piece.removeLast() }
      line(piece)
      start = offset + 1
    }
    pending += chunk[start...]
  }

  mutating func finish(_ line: ([UInt8]) -> Void) {
    guard !pending.isEmpty else { return }
    var piece = pending
    if piece.last == 0x0D { piece.removeLast() }
    pending = []
    line(piece)
  }

  /// Calls `answer` with each operand, or, when there are none, with each line of standard
  /// input; `flush` runs after each chunk read, so what was read is answered before waiting
  /// for more.
  static func forEach(
    _ operands: [[UInt8]], io: CommandIO, flush: () -> Void, _ answer: ([UInt8]) -> Void
  ) {
    guard operands.isEmpty else {
      for operand in operands { answer(operand) }
      return
    }
    var reader = LineReader()
    while let chunk = io.read() {
      reader.feed(chunk, answer)
      flush()
    }
    reader.finish(answer)
  }
}
