import Foundation
import Testing

@testable import Interface
@testable import Render
@testable import Replay

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// What a test shows besides text: ANSI lines, SVG images and asciicast recordings, made from
/// grids by pure functions.
@Suite struct PictureTests {
  /// A 12x3 grid: a bold title, a reversed selection and muted text.
  static var grid: Grid {
    var grid = Grid(width: 12, height: 3)
    _ = grid.write("Title", row: 0, column: 0, style: Style(.title, bold: true))
    _ = grid.write("> a&b", row: 1, column: 1, style: Style(.selection, reverse: true))
    _ = grid.write("muted", row: 2, column: 0, style: Style(.muted))
    _ = grid.write("!", row: 2, column: 7, style: Style(.alert))
    return grid
  }

  @Test func ansiLinesCarryEachStyleAndEndInAReset() {
    let lines = ANSIPicture.lines(Self.grid, colors: true)
    #expect(
      lines == [
        "\u{1B}[0;1;36mTitle\u{1B}[0m",
        " \u{1B}[0;7;33m> a&b\u{1B}[0m",
        "\u{1B}[0;34mmuted\u{1B}[0m  \u{1B}[0;31m!\u{1B}[0m",
      ])
    // Without colours only bold, dim and reverse are left.
    let plain = ANSIPicture.lines(Self.grid, colors: false)
    #expect(
      plain == [
        "\u{1B}[0;1mTitle\u{1B}[0m",
        " \u{1B}[0;7m> a&b\u{1B}[0m",
        "\u{1B}[0;2mmuted\u{1B}[0m  !\u{1B}[0m",
      ])
  }

  @Test func ansiKeepsTextInert() {
    var grid = Grid(width: 6, height: 1)
    _ = grid.write("a\u{1B}b", row: 0, column: 0, style: .plain)
    #expect(!ANSIPicture.lines(grid, colors: true)[0].dropLast(4).contains("\u{1B}"))
  }

  @Test func svgDrawsTheGridWithItsColoursAndReverseVideo() throws {
    let svg = SVGPicture.render(Self.grid)
    #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"108\" height=\"54\""))
    #expect(svg.hasSuffix("</svg>\n"))
    // The selection: a yellow rectangle under dark text, `&` escaped.
    #expect(svg.contains(##"<rect x="9" y="18" width="45" height="18" fill="#e5c07b"/>"##))
    #expect(
      svg.contains(
        ##"fill="#1d1f21" xml:space="preserve" textLength="45" lengthAdjust="spacingAndGlyphs">&gt; a&amp;b</text>"##
      ))
    #expect(svg.contains(##"fill="#5fd7d7" font-weight="bold""##))
    #expect(!svg.contains("> a&b"))
    // Well-formed XML, even with markup and controls in the text.
    var hostile = Grid(width: 12, height: 1)
    _ = hostile.write("<a>&\u{1B}\"'", row: 0, column: 0, style: Style(.alert, reverse: true))
    for picture in [svg, SVGPicture.render(hostile)] {
      let document = try XMLDocument(xmlString: picture)
      #expect(document.rootElement()?.name == "svg")
    }
  }

  /// Checks text against the asciicast v2 format, independently of the writer: a header line
  /// that is a JSON object with `version` 2 and positive integer `width` and `height` (and, if
  /// present, a numeric `timestamp`, `duration` and `idle_time_limit`, a string `title`, an
  /// object `env`); then one JSON array per line `[time, code, data]` with a non-negative
  /// number `time`, times never decreasing, `code` "o" (output) or "i" (input), and a string
  /// `data`. Returns the problems found.
  static func asciicastProblems(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.last == "" else { return ["the file does not end with a newline"] }
    lines.removeLast()
    guard let first = lines.first,
      let header = try? JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
    else { return ["the first line is not a JSON object"] }
    var problems: [String] = []
    // (Foundation reads `true` as the number 1 too: booleans are told apart in the text.)
    if (header["version"] as? NSNumber)?.doubleValue != 2 {
      problems.append("version is not 2")
    }
    for key in ["width", "height"] {
      guard let number = header[key] as? NSNumber, !first.contains("\"\(key)\":true"),
        number.doubleValue == Double(number.intValue), number.intValue > 0
      else {
        problems.append("\(key) is not a positive integer")
        continue
      }
    }
    for key in ["timestamp", "duration", "idle_time_limit"] where header[key] != nil {
      if !(header[key] is NSNumber) { problems.append("\(key) is not a number") }
    }
    if header["title"] != nil && !(header["title"] is String) { problems.append("title") }
    if header["env"] != nil && !(header["env"] is [String: Any]) { problems.append("env") }
    var last = 0.0
    for (index, line) in lines.dropFirst().enumerated() {
      guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any],
        event.count == 3
      else {
        problems.append("event \(index + 1) is not a JSON array of three")
        continue
      }
      let literal = line.dropFirst().prefix(while: { $0 != "," }).trimmingCharacters(
        in: .whitespaces)
      guard let time = event[0] as? NSNumber, literal != "true", literal != "false",
        time.doubleValue >= 0
      else {
        problems.append("event \(index + 1): the time is not a non-negative number")
        continue
      }
      if time.doubleValue < last { problems.append("event \(index + 1) goes back in time") }
      last = time.doubleValue
      if !["o", "i"].contains(event[1] as? String) {
        problems.append("event \(index + 1): the code is not o or i")
      }
      if !(event[2] is String) { problems.append("event \(index + 1): the data is not a string") }
    }
    return problems
  }

  @Test func theCheckerCatchesWhatIsNotAsciicast() {
    #expect(Self.asciicastProblems(#"{"version":2,"width":80,"height":24}"# + "\n").isEmpty)
    #expect(!Self.asciicastProblems(#"{"version":1,"width":80,"height":24}"# + "\n").isEmpty)
    #expect(!Self.asciicastProblems(#"{"version":2,"width":8.5,"height":24}"# + "\n").isEmpty)
    #expect(
      !Self.asciicastProblems(
        #"{"version":2,"width":80,"height":24}"# + "\n[1.0,\"o\",\"a\"]\n[0.5,\"o\",\"b\"]\n"
      ).isEmpty)
    #expect(
      !Self.asciicastProblems(#"{"version":2,"width":80,"height":24}"# + "\n[1,\"x\",\"a\"]\n")
        .isEmpty)
    #expect(
      !Self.asciicastProblems(#"{"version":2,"width":80,"height":24}"# + "\n[1,\"o\",2]\n").isEmpty)
    #expect(
      !Self.asciicastProblems(#"{"version":2,"width":80,"height":24}"# + "\n[true,\"o\",\"a\"]\n")
        .isEmpty)
    #expect(!Self.asciicastProblems(#"{"version":2,"width":80,"height":24}"#).isEmpty)
  }

  @Test func aReplayRecordingIsAsciicastVersion2() throws {
    var replayer = Replayer(console: FrontEnd.console(Size(columns: 40, rows: 10)))
    replayer.keepsFrames = true
    let script = try KeyScript(
      parsing: #"myapp://orders/7<Enter><Wait 2s><Push {"aps":{"alert":"Hi \"there\""}}><Esc>"#,
      file: "c.keys")
    #expect(replayer.play(script).failure == nil)
    let cast = CastRecording.render(
      replayer.frames, size: Size(columns: 40, rows: 10), colors: true)
    #expect(Self.asciicastProblems(cast) == [])
    let lines = cast.split(separator: "\n")
    #expect(lines[0] == #"{"version":2,"width":40,"height":10}"#)
    // The first frame at 0, the one after <Enter> at the 17th key, the push after 2 s more.
    #expect(lines[1].hasPrefix("[0.000,\"o\",\"\\u001b[H\\u001b[2J"))
    let times = lines.dropFirst().compactMap { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])?.first as? Double
    }
    #expect(times.contains(1.7))
    #expect(times.contains(3.7))
    #expect(times == times.sorted())
  }
}
