import Interface

/// Turns the bytes a terminal sends into keys: UTF-8 text, control keys and the escape
/// sequences of xterm-like terminals (and tmux). Pure and incremental: bytes may arrive in
/// any chunks; an incomplete sequence waits for more, and ``flush()`` (called when no more
/// bytes came within the escape delay) turns a lone ESC into the Esc key.
package struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []
  /// Inside an over-long escape sequence: bytes are dropped up to its final byte.
  private var discarding = false
  /// The longest escape sequence decoded; longer ones are dropped whole, however they arrive.
  static let maxSequence = 32

  /// Makes a decoder with nothing pending.
  package init() {}

  /// Whether bytes are waiting for more (the caller should wait only the escape delay).
  package var hasPending: Bool { !pending.isEmpty }

  /// Feeds bytes and returns the keys they complete.
  package mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
    var keys: [Key] = []
    for byte in bytes {
      if discarding {
        if (0x40...0x7E).contains(byte) { discarding = false }
        continue
      }
      pending.append(byte)
      if pending.count > Self.maxSequence, pending.first == 0x1B, pending.count > 1,
        pending[1] == 0x5B, !pending.dropFirst(2).contains(where: { (0x40...0x7E).contains($0) })
      {
        pending.removeAll()
        discarding = true
      }
    }
    while let (key, used) = decode(pending[...], final: false) {
      pending.removeFirst(used)
      if let key { keys.append(key) }
    }
    return keys
  }

  /// No more bytes came in time: decodes what is pending as it stands (a lone ESC is Esc).
  package mutating func flush() -> [Key] {
    var keys: [Key] = []
    while !pending.isEmpty {
      guard let (key, used) = decode(pending[...], final: true) else { break }
      pending.removeFirst(used)
      if let key { keys.append(key) }
    }
    return keys
  }

  /// Decodes one key from the front; nil when more bytes are needed. A nil key with a count
  /// skips bytes that mean nothing here.
  private func decode(_ bytes: ArraySlice<UInt8>, final: Bool) -> (Key?, Int)? {
    guard let first = bytes.first else { return nil }
    let start = bytes.startIndex
    switch first {
    case 0x1B:
      guard bytes.count > 1 else { return final ? (.escape, 1) : nil }
      let second = bytes[start + 1]
      if second == 0x5B || second == 0x4F {
        if let sequence = escapeSequence(bytes) { return sequence }
        return final ? (.escape, 1) : nil
      }
      // ESC then another key (an Alt prefix, or Esc typed before a key): Esc first.
      return (.escape, 1)
    case 0x0D, 0x0A: return (.enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x00: return (nil, 1)
    case 0x01...0x1A:
      return (.control(Character(UnicodeScalar(first + 0x60))), 1)
    case 0x1C...0x1F: return (nil, 1)
    case 0x20...0x7E: return (.character(Character(UnicodeScalar(first))), 1)
    default:
      return utf8Character(bytes, final: final)
    }
  }

  /// One UTF-8 character; an invalid or unfinished (at a flush) sequence is U+FFFD.
  private func utf8Character(_ bytes: ArraySlice<UInt8>, final: Bool) -> (Key?, Int)? {
    let first = bytes[bytes.startIndex]
    let length: Int
    switch first {
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return (.character("\u{FFFD}"), 1)
    }
    for offset in 1..<length {
      guard offset < bytes.count else { return final ? (.character("\u{FFFD}"), offset) : nil }
      let byte = bytes[bytes.startIndex + offset]
      if byte & 0xC0 != 0x80 { return (.character("\u{FFFD}"), offset) }
    }
    let slice = bytes[bytes.startIndex..<(bytes.startIndex + length)]
    // Valid when decoding changed nothing (an overlong form or a surrogate becomes U+FFFD).
    let text = String(decoding: slice, as: UTF8.self)
    guard text.utf8.elementsEqual(slice), let character = text.first else {
      return (.character("\u{FFFD}"), length)
    }
    // Control characters of the C1 range stay out of the prompt.
    if let scalar = character.unicodeScalars.first, scalar.value < 0xA0 { return (nil, length) }
    return (.character(character), length)
  }

  /// `ESC [ ... final` or `ESC O x`; nil while incomplete.
  private func escapeSequence(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
    let start = bytes.startIndex
    let introducer = bytes[start + 1]
    guard bytes.count > 2 else { return nil }
    if introducer == 0x4F {
      let final = bytes[start + 2]
      return (final == 0x4D ? .enter : Self.finalKeys[final], 3)
    }
    // CSI: parameter bytes 0x30-0x3F, intermediates 0x20-0x2F, final 0x40-0x7E.
    var index = start + 2
    while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
    guard index < bytes.endIndex else { return nil }
    let final = bytes[index]
    let length = index - start + 1
    if length > Self.maxSequence { return (nil, length) }
    guard (0x40...0x7E).contains(final) else { return (nil, length) }
    let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
    let firstNumber = Int(parameters.split(separator: ";").first ?? "") ?? 0
    let key: Key?
    switch final {
    case 0x5A: key = .backTab
    case 0x7E:
      switch firstNumber {
      case 1, 7: key = .home
      case 4, 8: key = .end
      case 3: key = .delete
      case 5: key = .pageUp
      case 6: key = .pageDown
      case 11...15: key = .function(firstNumber - 10)
      case 17...21: key = .function(firstNumber - 11)
      case 23, 24: key = .function(firstNumber - 12)
      default: key = nil
      }
    default: key = Self.finalKeys[final]
    }
    return (key, length)
  }

  /// Keys named by the final byte of `ESC [ ... x` and `ESC O x` alike.
  private static let finalKeys: [UInt8: Key] = [
    0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end,
    0x50: .function(1), 0x51: .function(2), 0x52: .function(3), 0x53: .function(4),
  ]
}
