import AppRuntime
import Foundation
import Interface
import Render
import Replay
import Shell

/// How `appshell replay` shows what a script did.
enum ScreenFormat: String, CaseIterable {
  /// The screens as plain text.
  case text
  /// The screens with SGR escape sequences for their styles.
  case ansi
  /// One SVG image per snapshot, written to a directory.
  case svg
  /// An asciicast v2 recording of every frame.
  case cast

  /// Whether colours are wanted: `NO_COLOR` set to anything but the empty string turns them
  /// off, as in the terminal front end.
  static var colors: Bool {
    (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
  }
}

/// A key script played as `appshell replay` and `appshell test` play it.
enum FlowRun {
  /// A replayer of a fresh app, whose Ctrl-R reads the table again from where `files` say,
  /// started cold with `open` from outside when given (as `appshell --open` starts).
  static func replayer(app: ShellApp, files: AppFileOptions, size: Size, open: String?)
    -> Replayer
  {
    var replayer = Replayer(console: Console(app: app, size: size))
    // Made at the first Ctrl-R: most flows never reload, and `appshell test` runs many.
    var source: TableSource?
    replayer.reloadTable = { console in
      if source == nil {
        let directory = files.screens ?? AppLoader.shippedScreensDirectory()
        source = TableSource(
          location: .file(
            files.routes ?? directory + "/routes.json",
            shipped: files.routes == nil && files.screens == nil),
          key: nil, cache: TableCache.current(), shippedPath: directory + "/routes.json")
        source?.appDirectory = directory
      }
      source?.reload(into: &console)
    }
    if let open { replayer.send(.launchedWithURL(open)) }
    return replayer
  }

  /// The text replay prints: each snapshot's header and screen (or state line), then after a
  /// failed expectation `=== failed at FILE:LINE:COL ===` and the screen at that moment (or
  /// one state line).
  static func output(_ playback: Replayer.Playback, format: ScreenFormat, statesOnly: Bool)
    -> String
  {
    let colors = ScreenFormat.colors
    func screen(_ snapshot: Replayer.Snapshot) -> String {
      if statesOnly { return snapshot.state.json(flags: snapshot.flags).serialized + "\n" }
      if format == .ansi {
        return ANSIPicture.lines(snapshot.grid, colors: colors).map { $0 + "\n" }.joined()
      }
      return snapshot.grid.text
    }
    var output = ""
    for (index, snapshot) in playback.snapshots.enumerated() {
      if !statesOnly { output += "=== snapshot \(index + 1) ===\n" }
      output += screen(snapshot)
    }
    if let failure = playback.failure {
      if !statesOnly { output += "=== failed at \(failure.place) ===\n" }
      output += screen(failure.snapshot)
    }
    return output
  }

  /// The size a flow asks for in a comment line `# size: COLSxROWS` before its first step;
  /// nil when it does not.
  static func size(ofScript text: String) -> Size? {
    for line in text.split(separator: "\n") {
      guard line.hasPrefix("#") else { break }
      if line.hasPrefix("# size: "), let size = Size(parsing: String(line.dropFirst(8))) {
        return size
      }
    }
    return nil
  }

  /// Reads a script file, at most one byte over the largest script (so the size check in
  /// ``KeyScript`` refuses an endless input instead of running out of memory).
  static func readScript(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path),
      let data = try? handle.read(upToCount: KeyScript.maxBytes + 1) ?? Data()
    else { return nil }
    try? handle.close()
    return String(decoding: data, as: UTF8.self)
  }
}
