import AppRuntime
import Foundation
import Shell
import Surface

/// `appshell links diff OLD NEW [--fail-on breaking|warning|never]
/// [--format text|json|markdown|junit] [--urls FILE] [--screens DIR]`: what a change of the app
/// does to the URLs already out there.
enum LinksDiffCommand {
  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "links diff")
    var operands: [String] = []
    var failOn: Severity? = .breaking
    var format = "text"
    var urlsFile: String?
    var screens: String?
    while let argument = options.next() {
      if options.ended || !argument.hasPrefix("-") || argument == "-" {
        operands.append(argument)
        continue
      }
      switch argument {
      case "-h", "--help":
        io.write(Array(LinksCommand.help.utf8))
        return 0
      case "--fail-on":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        switch value {
        case "never": failOn = nil
        default:
          guard let severity = Severity(rawValue: value), severity != .info else {
            return options.fail(io, "--fail-on must be breaking, warning or never, not '\(value)'")
          }
          failOn = severity
        }
      case "--format":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        guard ["text", "json", "markdown", "junit"].contains(value) else {
          return options.fail(io, "--format must be text, json, markdown or junit, not '\(value)'")
        }
        format = value
      case "--urls":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        urlsFile = value
      case "--screens":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        screens = value
      default:
        return options.fail(io, "unknown option '\(argument)'")
      }
    }
    guard operands.count == 2 else {
      return options.fail(io, "needs two operands, OLD and NEW (got \(operands.count))")
    }
    let fallback = screens ?? AppLoader.shippedScreensDirectory()
    func defaultPath(other: String) -> String {
      other.hasPrefix("git:") ? fallback : other
    }
    var apps: [ShellApp] = []
    for (index, operand) in operands.enumerated() {
      let which = index == 0 ? "OLD" : "NEW"
      do {
        apps.append(
          try SurfaceOperand.load(operand, defaultPath: defaultPath(other: operands[1 - index])))
      } catch {
        io.writeError("appshell links diff: \(which) cannot be used: \(error)\n")
        return 2
      }
    }
    var listed: [ListedURL] = []
    if let urlsFile {
      do {
        listed = try readURLs(urlsFile)
      } catch {
        io.writeError("appshell links diff: \(error)\n")
        return 2
      }
    }
    let diff = SurfaceDiff(old: apps[0], new: apps[1], listed: listed)
    let report: String
    switch format {
    case "json": report = DiffReport.json(diff)
    case "markdown": report = DiffReport.markdown(diff)
    case "junit": report = DiffReport.junit(diff)
    default: report = DiffReport.text(diff)
    }
    io.write(Array(report.utf8))
    guard let failOn else { return 0 }
    return diff.findings.contains { $0.severity <= failOn } ? 1 : 0
  }

  /// A `--urls` file that cannot be used: `FILE:LINE: why` (or `FILE: why`).
  struct URLListError: Error, CustomStringConvertible {
    var description: String
  }

  /// The URLs of a `--urls` file: one a line, `#` starts a comment, blank lines skipped. A
  /// line that is not one URL (spaces inside it, no scheme or path) is an error naming it.
  static func readURLs(_ file: String) throws(URLListError) -> [ListedURL] {
    guard let data = FileManager.default.contents(atPath: file) else {
      throw URLListError(description: "\(file): cannot read the URL list")
    }
    guard let text = String(validating: [UInt8](data), as: UTF8.self) else {
      throw URLListError(description: "\(file): not UTF-8 text")
    }
    var result: [ListedURL] = []
    for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      var line = Substring(raw)
      if let hash = line.firstIndex(of: "#"),
        hash == line.startIndex || line[line.index(before: hash)] == " "
          || line[line.index(before: hash)] == "\t"
      {
        line = line[..<hash]
      }
      let url = line.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !url.isEmpty else { continue }
      let place = "\(file):\(offset + 1)"
      if url.contains(where: { $0 == " " || $0 == "\t" }) {
        throw URLListError(description: "\(place): one URL a line, not '\(url)'")
      }
      guard url.contains(":") || url.hasPrefix("/") else {
        throw URLListError(description: "\(place): '\(url)' is not a URL (no scheme and no path)")
      }
      result.append(ListedURL(url: url, place: place))
    }
    return result
  }
}
