import JSON
import Routing

/// Display widths and inert text: what the renderer needs to put any string on a grid safely.
package enum TextWidth {
  /// The display width of one grapheme: 2 for East Asian wide and fullwidth characters and
  /// wide emoji, else 1. Decided by a table in Swift, not by the locale, so tests and
  /// terminals agree.
  package static func of(_ character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first else { return 1 }
    return isWide(scalar.value) ? 2 : 1
  }

  /// The display width of text as drawn, that is once made inert (`\x1b` is 4 columns).
  package static func of(_ text: String) -> Int {
    if isPrintableASCII(text) { return text.utf8.count }
    if isSimple(text) {
      var total = 0
      for scalar in text.unicodeScalars { total += isWide(scalar.value) ? 2 : 1 }
      return total
    }
    var total = 0
    for character in inert(text) { total += of(character) }
    return total
  }

  /// East Asian Wide (W) and Fullwidth (F) ranges, and emoji shown two columns wide.
  static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
    0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
    0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
    0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
    0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
    0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
    0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
    0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
    0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
    0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
    0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
    0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248, 0x1F250...0x1F251,
    0x1F260...0x1F265, 0x1F300...0x1F320, 0x1F32D...0x1F335, 0x1F337...0x1F37C,
    0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3, 0x1F3E0...0x1F3F0,
    0x1F3F4...0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440...0x1F440, 0x1F442...0x1F4FC,
    0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A...0x1F57A,
    0x1F595...0x1F596, 0x1F5A4...0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5,
    0x1F6CC...0x1F6CC, 0x1F6D0...0x1F6D2, 0x1F6D5...0x1F6D7, 0x1F6EB...0x1F6EC,
    0x1F6F4...0x1F6FC, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F93A, 0x1F93C...0x1F945,
    0x1F947...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]

  static func isWide(_ value: UInt32) -> Bool {
    if value < 0x1100 { return false }
    var low = 0
    var high = wideRanges.count - 1
    while low <= high {
      let middle = (low + high) / 2
      let range = wideRanges[middle]
      if value < range.lowerBound {
        high = middle - 1
      } else if value > range.upperBound {
        low = middle + 1
      } else {
        return true
      }
    }
    return false
  }
}

/// Makes text safe to draw: C0 and C1 control characters and DEL become `\xNN`, and bidi
/// controls and other invisible format characters become `\u{NNNN}`, so nothing in a URL,
/// a parameter or a screen can move the cursor or recolour the terminal.
package func inert(_ text: String) -> String {
  if isPrintableASCII(text) || isSimple(text) { return text }
  var needsWork = false
  for scalar in text.unicodeScalars where isUnsafe(scalar.value) {
    needsWork = true
    break
  }
  guard needsWork else { return text }
  var out = String.UnicodeScalarView()
  let hex = Array("0123456789abcdef".unicodeScalars)
  for scalar in text.unicodeScalars {
    let value = scalar.value
    guard isUnsafe(value) else {
      out.append(scalar)
      continue
    }
    if value < 0x100 {
      out.append(contentsOf: "\\x".unicodeScalars)
      out.append(hex[Int(value >> 4)])
      out.append(hex[Int(value & 0xF)])
    } else {
      out.append(contentsOf: "\\u{".unicodeScalars)
      out.append(contentsOf: String(value, radix: 16).unicodeScalars)
      out.append("}")
    }
  }
  return String(out)
}

/// Control characters, and the format characters that reorder or hide text.
@inline(__always) func isUnsafe(_ value: UInt32) -> Bool { isUnsafeForDisplay(value) }

/// Whether the text is only printable ASCII (space to `~`): one column per byte, nothing to
/// escape; the common case, checked on the bytes.
@inline(__always) func isPrintableASCII(_ text: String) -> Bool {
  if let answer = text.utf8.withContiguousStorageIfAvailable({ bytes in
    bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
  }) {
    return answer
  }
  return text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
}

/// Each printable ASCII character as a one-character string, made once.
let asciiStrings: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

/// Whether every scalar of the text is a grapheme on its own that is safe to draw: printable
/// ASCII, Latin and other letters before the combining marks, general punctuation, arrows,
/// symbols and box drawing, CJK and Hangul syllables, fullwidth forms. Such text is drawn one
/// scalar per cell (or two for a wide one) without grapheme breaking; anything else (combining
/// marks, joiners, variation selectors, controls) takes the general path.
@inline(__always) func isSimple(_ text: String) -> Bool {
  for scalar in text.unicodeScalars {
    switch scalar.value {
    case 0x20..<0x7F, 0xA0..<0x300, 0x2010..<0x2028, 0x2030..<0x2060, 0x2190..<0x2800,
      0x3000..<0x302A, 0x3030..<0x3099, 0x309B..<0xA000, 0xAC00...0xD7A3, 0xFF01...0xFF60:
      continue
    default:
      return false
    }
  }
  return true
}
