import TestSupport
import Testing

@testable import Device
@testable import Interface

// Key decoding is a pure function from bytes to keys, tested by feeding the same input in
// chunks of different sizes.

/// Decodes bytes fed in one piece, then flushes.
private func decodeWhole(_ bytes: [UInt8]) -> [Key] {
  var decoder = KeyDecoder()
  return decoder.feed(bytes) + decoder.flush()
}

/// Decodes bytes fed in pieces cut at `cuts` (sorted offsets), then flushes.
private func decode(_ bytes: [UInt8], cuts: [Int]) -> [Key] {
  var decoder = KeyDecoder()
  var keys: [Key] = []
  var start = 0
  for cut in cuts + [bytes.count] where cut > start {
    keys += decoder.feed(bytes[start..<cut])
    start = cut
  }
  keys += decoder.flush()
  #expect(!decoder.hasPending)
  return keys
}

/// Decodes bytes fed in chunks of `size`, then flushes.
private func decode(_ bytes: [UInt8], chunk size: Int) -> [Key] {
  decode(bytes, cuts: Array(stride(from: size, to: bytes.count, by: size)))
}

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Every escape sequence the decoder knows, and its key.
private let escapeSequences: [(String, Key)] = [
  // Arrows, CSI and SS3 (application cursor keys).
  ("\u{1b}[A", .up), ("\u{1b}[B", .down), ("\u{1b}[C", .right), ("\u{1b}[D", .left),
  ("\u{1b}OA", .up), ("\u{1b}OB", .down), ("\u{1b}OC", .right), ("\u{1b}OD", .left),
  // Home and End: xterm CSI and SS3, vt220 and rxvt `~` forms.
  ("\u{1b}[H", .home), ("\u{1b}[F", .end), ("\u{1b}OH", .home), ("\u{1b}OF", .end),
  ("\u{1b}[1~", .home), ("\u{1b}[7~", .home), ("\u{1b}[4~", .end), ("\u{1b}[8~", .end),
  // Delete, PageUp, PageDown, Shift-Tab.
  ("\u{1b}[3~", .delete), ("\u{1b}[5~", .pageUp), ("\u{1b}[6~", .pageDown),
  ("\u{1b}[Z", .backTab),
  // F1-F4 as SS3 and CSI letters, F1-F12 as `~` codes.
  ("\u{1b}OP", .function(1)), ("\u{1b}OQ", .function(2)), ("\u{1b}OR", .function(3)),
  ("\u{1b}OS", .function(4)), ("\u{1b}[P", .function(1)), ("\u{1b}[Q", .function(2)),
  ("\u{1b}[R", .function(3)), ("\u{1b}[S", .function(4)),
  ("\u{1b}[11~", .function(1)), ("\u{1b}[12~", .function(2)), ("\u{1b}[13~", .function(3)),
  ("\u{1b}[14~", .function(4)), ("\u{1b}[15~", .function(5)), ("\u{1b}[17~", .function(6)),
  ("\u{1b}[18~", .function(7)), ("\u{1b}[19~", .function(8)), ("\u{1b}[20~", .function(9)),
  ("\u{1b}[21~", .function(10)), ("\u{1b}[23~", .function(11)), ("\u{1b}[24~", .function(12)),
  // Keypad Enter in application mode.
  ("\u{1b}OM", .enter),
]

/// Sequences with modifiers (Shift 2, Alt 3, Ctrl 5, ...), mapped to the base key.
private let modifiedSequences: [(String, Key)] = [
  ("\u{1b}[1;5A", .up), ("\u{1b}[1;2B", .down), ("\u{1b}[1;3C", .right),
  ("\u{1b}[1;5D", .left), ("\u{1b}[1;6A", .up), ("\u{1b}[1;5H", .home), ("\u{1b}[1;2F", .end),
  ("\u{1b}[3;5~", .delete), ("\u{1b}[5;3~", .pageUp), ("\u{1b}[6;2~", .pageDown),
  ("\u{1b}[1;2P", .function(1)), ("\u{1b}[1;5S", .function(4)), ("\u{1b}[15;2~", .function(5)),
  ("\u{1b}[24;5~", .function(12)),
]

/// Plain bytes and their keys.
private let plainBytes: [([UInt8], [Key])] = [
  ([0x0D], [.enter]), ([0x0A], [.enter]), ([0x7F], [.backspace]), ([0x08], [.backspace]),
  ([0x09], [.tab]), ([0x20], [.character(" ")]), ([0x7E], [.character("~")]),
  ([0x3C], [.character("<")]),
]

/// Control letters other than those that are Tab, Enter or Backspace.
private let controlLetters: [(UInt8, Character)] = (UInt8(1)...UInt8(26)).compactMap { byte in
  [0x08, 0x09, 0x0A, 0x0D].contains(byte) ? nil : (byte, Character(Unicode.Scalar(byte + 0x60)))
}

/// A stream of self-delimiting pieces and the keys each gives, for the chunking tests.
private let streamPieces: [([UInt8], [Key])] = {
  var pieces: [([UInt8], [Key])] = []
  for (sequence, key) in escapeSequences + modifiedSequences {
    pieces.append((bytes(sequence), [key]))
    pieces.append((bytes("x"), [.character("x")]))
  }
  pieces += plainBytes
  for (byte, letter) in controlLetters { pieces.append(([byte], [.control(letter)])) }
  pieces += [
    (bytes("é"), [.character("é")]), (bytes("张三"), [.character("张"), .character("三")]),
    (bytes("😀"), [.character("😀")]), (bytes("\u{10FFFD}"), [.character("\u{10FFFD}")]),
    ([0xFF], [.character("\u{FFFD}")]), ([0x80], [.character("\u{FFFD}")]),
    ([0xC3, 0x41], [.character("\u{FFFD}"), .character("A")]),
    ([0xE5, 0xBC, 0x61], [.character("\u{FFFD}"), .character("a")]),
    ([0xF0, 0x9F, 0x98, 0x62], [.character("\u{FFFD}"), .character("b")]),
    ([0xC2, 0x9B], []), ([0x00], []),
    ([0x1B, 0x61], [.escape, .character("a")]),
    ([0x1B, 0x1B, 0x5B, 0x41], [.escape, .up]),
    (bytes("\u{1b}[200~paste\u{1b}[201~"), "paste".map { .character($0) }),
    (bytes("\u{1b}[99~"), []), (bytes("\u{1b}[2;5~"), []),
    (bytes("plain text, 中文"), "plain text, 中文".map { .character($0) }),
    // Last: a lone ESC, which only the final flush turns into Esc.
    ([0x1B], [.escape]),
  ]
  return pieces
}()

private let stream: [UInt8] = streamPieces.flatMap(\.0)
private let streamKeys: [Key] = streamPieces.flatMap(\.1)

@Suite struct KeyDecoderTests {
  // MARK: Escape sequences

  @Test(arguments: escapeSequences)
  func knownEscapeSequence(sequence: String, key: Key) {
    var decoder = KeyDecoder()
    #expect(decoder.feed(bytes(sequence)) == [key])
    #expect(!decoder.hasPending)
    #expect(decoder.flush() == [])
  }

  @Test(arguments: modifiedSequences)
  func modifiersMapToTheBaseKey(sequence: String, key: Key) {
    var decoder = KeyDecoder()
    #expect(decoder.feed(bytes(sequence)) == [key])
    #expect(!decoder.hasPending)
  }

  @Test(arguments: escapeSequences + modifiedSequences)
  func aSequenceWaitsWhileIncomplete(sequence: String, key: Key) {
    var decoder = KeyDecoder()
    let all = bytes(sequence)
    for byte in all.dropLast() {
      #expect(decoder.feed([byte]) == [], "\(sequence.debugDescription) gave a key early")
      #expect(decoder.hasPending)
    }
    #expect(decoder.feed([all.last!]) == [key])
  }

  @Test func unknownSequencesAreSkippedWhole() {
    #expect(decodeWhole(bytes("\u{1b}[99~a")) == [.character("a")])
    #expect(decodeWhole(bytes("\u{1b}[2~b")) == [.character("b")])
    #expect(decodeWhole(bytes("\u{1b}OZc")) == [.character("c")])
    #expect(decodeWhole(bytes("\u{1b}[?1;2cd")) == [.character("d")])
    #expect(decodeWhole(bytes("\u{1b}[200~hi\u{1b}[201~")) == [.character("h"), .character("i")])
  }

  // MARK: Lone ESC

  @Test func aLoneEscIsEscOnlyAfterFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B]) == [])
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.hasPending)
    #expect(decoder.flush() == [])
  }

  @Test func escFollowedByALetterIsEscThenTheLetter() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B, 0x62]) == [.escape, .character("b")])
    #expect(!decoder.hasPending)
    var split = KeyDecoder()
    #expect(split.feed([0x1B]) == [])
    #expect(split.feed([0x62]) == [.escape, .character("b")])
  }

  @Test func escEscIsOneEscNowAndOneAtFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B, 0x1B]) == [.escape])
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.escape])
  }

  @Test func anUnfinishedIntroducerIsEscThenTheCharacterAtFlush() {
    var csi = KeyDecoder()
    #expect(csi.feed(bytes("\u{1b}[")) == [])
    #expect(csi.flush() == [.escape, .character("[")])
    var ss3 = KeyDecoder()
    #expect(ss3.feed(bytes("\u{1b}O")) == [])
    #expect(ss3.flush() == [.escape, .character("O")])
    var parameters = KeyDecoder()
    #expect(parameters.feed(bytes("\u{1b}[1;5")) == [])
    #expect(parameters.hasPending)
  }

  @Test func escThenControlKeys() {
    #expect(decodeWhole([0x1B, 0x0D]) == [.escape, .enter])
    #expect(decodeWhole([0x1B, 0x7F]) == [.escape, .backspace])
    #expect(decodeWhole([0x1B, 0x03]) == [.escape, .control("c")])
  }

  // MARK: Control keys

  @Test(arguments: controlLetters)
  func controlLetter(byte: UInt8, letter: Character) {
    #expect(decodeWhole([byte]) == [.control(letter)])
  }

  @Test func controlCIsCtrlC() {
    #expect(decodeWhole([0x03]) == [.control("c")])
  }

  @Test func enterFromCarriageReturnAndLineFeed() {
    #expect(decodeWhole([0x0D]) == [.enter])
    #expect(decodeWhole([0x0A]) == [.enter])
  }

  @Test func backspaceFromDelAndBS() {
    #expect(decodeWhole([0x7F]) == [.backspace])
    #expect(decodeWhole([0x08]) == [.backspace])
  }

  @Test func tabIsTab() {
    #expect(decodeWhole([0x09]) == [.tab])
  }

  @Test func nulAndOtherC0ControlsGiveNoKey() {
    for byte: UInt8 in [0x00, 0x1C, 0x1D, 0x1E, 0x1F] {
      #expect(decodeWhole([byte, 0x61]) == [.character("a")], "byte \(byte)")
    }
  }

  // MARK: UTF-8

  @Test(arguments: ["a", "é", "ß", "中", "张", "€", "😀", "🇯", "𠀀", "\u{10FFFD}"])
  func utf8CharacterArrivesWhole(text: String) {
    var decoder = KeyDecoder()
    let all = bytes(text)
    for byte in all.dropLast() {
      #expect(decoder.feed([byte]) == [])
      #expect(decoder.hasPending)
    }
    #expect(decoder.feed([all.last!]) == [.character(Character(text))])
    #expect(!decoder.hasPending)
  }

  @Test func fourByteCharactersInARow() {
    #expect(decodeWhole(bytes("😀🚀𠀀")) == [.character("😀"), .character("🚀"), .character("𠀀")])
  }

  @Test(
    arguments: [
      [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0x81], [0xF5, 0x80, 0x80, 0x80],
      [0xED, 0xA0, 0x80], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ] as [[UInt8]])
  func invalidUTF8IsReplacementCharacters(input: [UInt8]) {
    let keys = decodeWhole(input + [0x7A])
    #expect(keys.last == .character("z"))
    #expect(keys.count >= 2)
    #expect(keys.dropLast().allSatisfy { $0 == .character("\u{FFFD}") })
  }

  @Test func aBrokenSequenceReplacesOnlyItsOwnBytes() {
    #expect(decodeWhole([0xC3, 0x41]) == [.character("\u{FFFD}"), .character("A")])
    #expect(decodeWhole([0xE4, 0xB8, 0x1B, 0x5B, 0x41]) == [.character("\u{FFFD}"), .up])
  }

  @Test func anUnfinishedCharacterIsReplacedAtFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0xE4, 0xB8]) == [])
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.character("\u{FFFD}")])
    #expect(!decoder.hasPending)
  }

  @Test func c1ControlsEncodedInUTF8GiveNoKey() {
    #expect(decodeWhole([0xC2, 0x9B, 0x41]) == [.character("A")])
    #expect(decodeWhole([0xC2, 0x85]) == [])
  }

  // MARK: Chunking

  @Test func theTestStreamDecodesToItsKeys() {
    #expect(decodeWhole(stream) == streamKeys)
  }

  @Test func everyChunkSizeGivesTheSameKeys() {
    for size in 1...stream.count {
      let keys = decode(stream, chunk: size)
      #expect(keys == streamKeys, "chunks of \(size)")
      if keys != streamKeys { break }
    }
  }

  @Test func randomCutPointsGiveTheSameKeys() {
    var generator = SeededGenerator(seed: 0x6B65_7973)
    for trial in 0..<500 {
      let count = Int.random(in: 0...40, using: &generator)
      let cuts = (0..<count).map { _ in Int.random(in: 0...stream.count, using: &generator) }
        .sorted()
      let keys = decode(stream, cuts: cuts)
      #expect(keys == streamKeys, "trial \(trial), cuts \(cuts)")
      if keys != streamKeys { break }
    }
  }

  @Test func randomStreamsGiveTheSameKeysInAnyChunks() {
    var generator = SeededGenerator(seed: 0x7261_6E64)
    let alphabet: [[UInt8]] = streamPieces.map(\.0).dropLast() + [[0x1B], [0xE4], [0x9B]]
    for trial in 0..<300 {
      var input: [UInt8] = []
      for _ in 0..<Int.random(in: 1...30, using: &generator) {
        input += alphabet.randomElement(using: &generator)!
      }
      let expected = decodeWhole(input)
      for size in [1, 2, 3, 5, 7] {
        #expect(decode(input, chunk: size) == expected, "trial \(trial), chunks of \(size)")
      }
      let cuts = (0..<Int.random(in: 1...8, using: &generator)).map { _ in
        Int.random(in: 0...input.count, using: &generator)
      }.sorted()
      #expect(decode(input, cuts: cuts) == expected, "trial \(trial), cuts \(cuts)")
    }
  }

  // Regression: an unfinished CSI was given up when more than 32 bytes were pending, so a long
  // parameter list (a terminal's device-attributes report, say) decoded differently fed whole
  // (one key) than byte by byte (the rest typed as text). Now a sequence longer than 32 bytes
  // is dropped whole, however it arrives.
  @Test func aLongSequenceDecodesTheSameInAnyChunks() {
    let long = bytes("\u{1b}[" + String(repeating: "1;", count: 20) + "5Ax")
    let whole = decodeWhole(long)
    #expect(whole == [.character("x")])
    #expect(decode(long, chunk: 1) == whole)
    #expect(decode(long, chunk: 16) == whole)
  }
}
