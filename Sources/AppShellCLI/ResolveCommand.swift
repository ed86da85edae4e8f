import Routing

/// `appshell resolve [--routes FILE] [--external] [URL...]` (ROUTING.md section 7).
enum ResolveCommand {
  static let help = """
    OVERVIEW: Resolve URLs through a route table and print one JSON object per URL.

    USAGE: appshell resolve [--routes FILE] [--external] [URL...]

    ARGUMENTS:
      URL...              URLs to resolve. Without any, URLs are read from standard input,
                          one a line, and each is answered as soon as it is read.

    OPTIONS:
      --routes FILE       The route table (default: the app's Screens/routes.json).
      --external          Resolve as URLs arriving from outside the app.
      --                  End of options; every later argument is a URL.
      --help              Show this help.

    EXIT STATUS: 0 when every URL matched, 1 when any did not, 2 when the route table or
    the options are unusable.

    """

  static func run(_ rawArguments: [[UInt8]], io: CommandIO) -> Int32 {
    let arguments = rawArguments.map { String(decoding: $0, as: UTF8.self) }
    var routesPath: String?
    var origin = Origin.app
    var urls: [[UInt8]] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("--") {
        urls.append(rawArguments[index - 1])
        continue
      }
      switch argument {
      case "--":
        optionsEnded = true
      case "--help":
        io.write(Array(help.utf8))
        return 0
      case "--external":
        origin = .external
      case "--routes":
        guard index < arguments.count else {
          return usageError("--routes needs a FILE", io: io)
        }
        routesPath = arguments[index]
        index += 1
      default:
        if argument.hasPrefix("--routes=") {
          routesPath = String(argument.dropFirst("--routes=".count))
        } else {
          return usageError("unknown option '\(argument)'", io: io)
        }
      }
    }
    let table: RouteTable
    do {
      table = try AppLoader.loadTable(path: routesPath)
    } catch {
      io.writeError("appshell resolve: \(error)\n")
      return 2
    }
    var out = OutputBuffer(io)
    var allMatched = true
    func answer(_ bytes: [UInt8]) {
      let resolution = table.resolve(bytes: bytes, from: origin)
      if !resolution.isMatched { allMatched = false }
      out.append(line(url: String(decoding: bytes, as: UTF8.self), resolution))
    }
    if urls.isEmpty {
      var reader = LineReader()
      while let chunk = io.read() {
        reader.feed(chunk, answer)
        // Answer what was read before waiting for more input.
        out.flush()
      }
      reader.finish(answer)
    } else {
      for url in urls { answer(url) }
    }
    out.flush()
    return allMatched ? 0 : 1
  }

  /// One answer line: `{"url":...,"matched":...,...}` and a newline.
  static func line(url: String, _ resolution: Resolution) -> String {
    var members = [JSONMember("url", .string(url))]
    switch resolution.outcome {
    case .matched(let entry, let params):
      members += [
        JSONMember("matched", .bool(true)),
        JSONMember("pattern", .string(entry.pattern.text)),
        JSONMember("route", entry.json),
        JSONMember("params", params.json),
      ]
    case .unmatched:
      members.append(JSONMember("matched", .bool(false)))
    case .invalid(let why), .failed(let why):
      members += [JSONMember("matched", .bool(false)), JSONMember("error", .string(why))]
    case .refused(let why):
      members += [JSONMember("matched", .bool(false)), JSONMember("refused", .string(why))]
    }
    if !resolution.redirects.isEmpty {
      members.append(JSONMember("redirects", .array(resolution.redirects.map(JSON.string))))
    }
    return JSON.object(members).serialized + "\n"
  }

  static func usageError(_ message: String, io: CommandIO) -> Int32 {
    io.writeError("appshell resolve: \(message)\nSee 'appshell resolve --help'.\n")
    return 2
  }
}

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
}
