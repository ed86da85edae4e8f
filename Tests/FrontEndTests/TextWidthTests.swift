import Testing

@testable import Render

// East Asian wide and fullwidth characters count 2 display columns; widths come from a table
// in Swift, not from the locale.

@Suite struct TextWidthTests {
  @Test func everyPrintableASCIICharacterIsOneColumn() {
    for value in UInt8(0x20)...UInt8(0x7E) {
      let character = Character(Unicode.Scalar(value))
      #expect(TextWidth.of(character) == 1, "\(character)")
    }
    #expect(TextWidth.of("myapp://orders/2015032688?x=1") == 29)
  }

  @Test(arguments: [
    "中", "文", "张", "三", "龍", "\u{3400}", "\u{20000}", "\u{2A6D6}", "\u{30000}", "\u{F900}",
  ])
  func cjkIdeographsAreTwoColumns(character: Character) {
    #expect(TextWidth.of(character) == 2)
  }

  @Test(arguments: ["あ", "ア", "ー", "、", "。", "「", "\u{3000}", "㐀", "ㄅ", "㈠"])
  func kanaPunctuationAndIdeographicSpaceAreTwoColumns(character: Character) {
    #expect(TextWidth.of(character) == 2)
  }

  @Test(arguments: ["！", "Ａ", "ｚ", "０", "～", "\u{FF01}", "\u{FF60}", "￠", "￦"])
  func fullwidthFormsAreTwoColumns(character: Character) {
    #expect(TextWidth.of(character) == 2)
  }

  @Test(arguments: ["ｶ", "ﾟ", "\u{FF61}", "\u{FF9F}", "\u{FFE8}"])
  func halfwidthFormsAreOneColumn(character: Character) {
    #expect(TextWidth.of(character) == 1)
  }

  @Test(arguments: ["가", "힣", "한", "글", "\u{1100}", "\u{115F}", "\u{A960}"])
  func hangulSyllablesAndLeadingJamoAreTwoColumns(character: Character) {
    #expect(TextWidth.of(character) == 2)
  }

  @Test(arguments: ["é", "ß", "Ω", "Я", "א", "ع", "ก", "·", "—", "…", "‹", "│", "─", "▸", "✕"])
  func otherScriptsAndSymbolsAreOneColumn(character: Character) {
    #expect(TextWidth.of(character) == 1)
  }

  @Test(arguments: [
    ("e\u{301}", 1),  // e + combining acute
    ("a\u{308}\u{323}", 1),  // several marks
    ("中\u{301}", 2),  // wide base with a mark
    ("가\u{302}", 2),
    ("\u{1100}\u{1161}\u{11A8}", 2),  // a Hangul syllable spelt with conjoining jamo
    ("Ａ\u{20DD}", 2),  // enclosing mark on a fullwidth letter
    ("n\u{303}", 1),
  ])
  func aCombiningSequenceIsOneGraphemeOfItsBasesWidth(text: String, width: Int) {
    #expect(text.count == 1)
    let character = text.first!
    #expect(TextWidth.of(character) == width)
    #expect(TextWidth.of(text) == width)
  }

  @Test func stringWidthIsTheSumOfItsGraphemes() {
    #expect(TextWidth.of("") == 0)
    #expect(TextWidth.of("a中b") == 4)
    #expect(TextWidth.of("張三 Zhang") == 10)
    #expect(TextWidth.of("ＡＢＣabc") == 9)
    #expect(TextWidth.of("한국어") == 6)
    #expect(TextWidth.of("cafe\u{301} 中") == 7)
  }

  @Test(arguments: ["😀", "🚀", "🎉", "⌚", "⭐"])
  func wideEmojiAreTwoColumns(character: Character) {
    #expect(TextWidth.of(character) == 2)
  }

  @Test func widthsDoNotDependOnTheLocale() {
    // The table is pure Swift: the same answers whatever LANG says (checked by value, twice).
    let sample = "中Ａ가aé😀"
    let first = sample.map(TextWidth.of)
    #expect(first == [2, 2, 2, 1, 1, 2])
    #expect(sample.map(TextWidth.of) == first)
  }

  // `TextWidth.of(_: String)` says it measures the text "made inert first", which is what the
  // renderer draws; a control character is drawn as `\xNN`, four columns.
  @Test(arguments: ["\u{1b}", "a\u{7}b", "\u{202e}", "\u{9b}x"])
  func stringWidthIsTheWidthOfItsInertForm(text: String) {
    #expect(TextWidth.of(text) == TextWidth.of(inert(text)))
  }

  @Test func inertTextIsAsWideAsItsEscapes() {
    #expect(TextWidth.of(inert("\u{1b}")) == 4)
    #expect(TextWidth.of(inert("\u{202e}")) == 8)
    #expect(TextWidth.of(inert("a\u{0}b")) == 6)
  }
}
