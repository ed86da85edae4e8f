import Interface
import JSON
import Render
import Routing

/// A replay as an asciicast v2 recording (`replay --format cast`), which `asciinema play`
/// plays: a header line, then one `[time, "o", data]` event per frame, each frame drawn whole
/// from the top left.
package enum CastRecording {
  /// The recording of `frames` on a terminal of `size` (the header's width and height).
  package static func render(_ frames: [Replayer.Frame], size: Size, colors: Bool) -> String {
    var out = "{\"version\":2,\"width\":\(size.columns),\"height\":\(size.rows)}\n"
    for frame in frames {
      let data =
        "\u{1B}[H\u{1B}[2J"
        + ANSIPicture.lines(frame.grid, colors: colors).joined(separator: "\r\n")
      out += "[\(seconds(frame.time)),\"o\",\(JSON.quote(data))]\n"
    }
    return out
  }

  /// A time as seconds with three decimals, e.g. `1.500`.
  static func seconds(_ duration: Duration) -> String {
    let milliseconds =
      duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
