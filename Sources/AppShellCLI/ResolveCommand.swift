import AppRuntime
import JSON
import RouteExplain
import Routing

/// `appshell resolve [--explain [--json]] [--routes FILE] [--screens DIR] [--external] [URL...]`:
/// which route each URL opens (`--explain` shows why).
enum ResolveCommand {
  /// The usage of `resolve`.
  static let usage = Usage(
    command: "resolve",
    forms: [
      """
      appshell resolve [--explain [--json]] [--routes FILE] [--screens DIR] [--external]
                       [URL...]
      """
    ],
    summary: """
      Resolve URLs through a route table, one JSON object per URL;
      --explain says why each route lost, failed or won.
      """)

  static let help = """
    OVERVIEW: Resolve URLs through a route table and print one JSON object per URL.

    \(usage.section)

    ARGUMENTS:
      URL...              URLs to resolve. Without any, URLs are read from standard input,
                          one a line, and each is answered as soon as it is read.

    OPTIONS:
      --routes FILE       The route table (default: the app's Screens/routes.json).
      --screens DIR       An app's directory: its routes.json is the table.
      --external          Resolve as URLs arriving from outside the app.
      --explain           Explain each answer instead: how the URL was read, every route in
                          table order with why it failed, why it matched but lost (the
                          ranking rule: priority, scheme, domain, specificity, query
                          constraints or table order; see docs/routing.md) or that it won,
                          then what the winner did (rename, each redirect, refusal, target).
                          One text block per URL.
      --json              With --explain, one JSON object per URL instead of text: the
                          members of the plain answer, then "origin" and "hops".
      --                  End of options; every later argument is a URL.
      --help              Show this help.

    EXIT STATUS: 0 when every URL matched, 1 when any did not, 2 when the route table or
    the options are unusable.

    """

  /// What each URL's answer looks like.
  enum Form {
    /// One JSON line: which route wins, with its parameters.
    case plain
    /// A text block explaining the answer.
    case explainText
    /// One JSON line: the plain answer's members, then the explanation.
    case explainJSON
  }

  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "resolve")
    var routesPath: String?
    var screensPath: String?
    var origin = Origin.app
    var explain = false
    var json = false
    var urls: [[UInt8]] = []
    while let argument = options.next() {
      if options.ended || !argument.hasPrefix("--") {
        urls.append(options.bytes)
        continue
      }
      switch argument {
      case "--help":
        io.write(Array(help.utf8))
        return 0
      case "--external", "--explain", "--json":
        guard !options.hasValue else { return options.fail(io, "\(argument) takes no value") }
        if argument == "--external" {
          origin = .external
        } else if argument == "--explain" {
          explain = true
        } else {
          json = true
        }
      case "--routes":
        guard let value = options.value(for: argument) else {
          return options.fail(io, "--routes needs a FILE")
        }
        routesPath = value
      case "--screens":
        guard let value = options.value(for: argument) else {
          return options.fail(io, "--screens needs a DIR")
        }
        screensPath = value
      default:
        return options.fail(io, Options.unknown(options.written, help: help))
      }
    }
    if json && !explain {
      return options.fail(io, "--json goes with --explain (plain answers are JSON already)")
    }
    let form: Form = !explain ? .plain : json ? .explainJSON : .explainText
    let table: RouteTable
    do {
      table = try AppLoader.loadTable(path: routesPath ?? screensPath.map { $0 + "/routes.json" })
    } catch {
      io.writeError("appshell resolve: \(error)\n")
      return 2
    }
    var out = OutputBuffer(io)
    var allMatched = true
    var first = true
    // Each route entry's JSON, serialized once, by its index (when entries are in index order).
    let inOrder = table.entries.indices.allSatisfy { table.entries[$0].index == $0 }
    let routes: [[UInt8]] =
      form != .plain || !inOrder
      ? []
      : table.entries.map { entry in
        var bytes: [UInt8] = []
        entry.json.write(to: &bytes)
        return bytes
      }
    func answer(_ bytes: [UInt8]) {
      let url = String(decoding: bytes, as: UTF8.self)
      switch form {
      case .plain:
        let resolution = table.resolve(bytes: bytes, from: origin)
        if !resolution.isMatched { allMatched = false }
        out.append { write(url: url, resolution, routes: routes, to: &$0) }
      case .explainText:
        let explanation = table.explain(bytes: bytes, from: origin)
        if !explanation.resolution.isMatched { allMatched = false }
        // A blank line between blocks.
        out.append((first ? "" : "\n") + ExplainText.block(explanation))
      case .explainJSON:
        let explanation = table.explain(bytes: bytes, from: origin)
        if !explanation.resolution.isMatched { allMatched = false }
        out.append(explanationLine(url: url, explanation))
      }
      first = false
    }
    LineReader.forEach(urls, io: io, flush: { out.flush() }, answer)
    out.flush()
    return allMatched ? 0 : 1
  }

  /// One answer line: `{"url":...,"matched":...,...}` and a newline.
  static func line(url: String, _ resolution: Resolution) -> String {
    JSON.object(members(url: url, resolution)).serialized + "\n"
  }

  /// Writes one answer line, the bytes of ``line(url:_:)``, straight into `out`; `routes` holds
  /// each table entry's JSON by its index, serialized once (or is empty).
  static func write(
    url: String, _ resolution: Resolution, routes: [[UInt8]], to out: inout [UInt8]
  ) {
    out += #"{"url":"#.utf8
    JSON.appendQuoted(url, to: &out)
    switch resolution.outcome {
    case .matched(let entry, let params):
      out += #","matched":true,"pattern":"#.utf8
      JSON.appendQuoted(entry.pattern.text, to: &out)
      out += #","route":"#.utf8
      if entry.index < routes.count {
        out += routes[entry.index]
      } else {
        entry.json.write(to: &out)
      }
      out += #","params":"#.utf8
      params.writeJSON(to: &out)
    case .unmatched:
      out += #","matched":false"#.utf8
    case .invalid(let why), .failed(let why):
      out += #","matched":false,"error":"#.utf8
      JSON.appendQuoted(why, to: &out)
    case .refused(let why):
      out += #","matched":false,"refused":"#.utf8
      JSON.appendQuoted(why, to: &out)
    }
    if !resolution.redirects.isEmpty {
      out += #","redirects":["#.utf8
      for (index, redirect) in resolution.redirects.enumerated() {
        if index > 0 { out.append(UInt8(ascii: ",")) }
        JSON.appendQuoted(redirect, to: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    out += "}\n".utf8
  }

  /// One `--explain --json` line: the plain answer's members, then `origin` and `hops`.
  static func explanationLine(url: String, _ explanation: Explanation) -> String {
    let members =
      members(url: url, explanation.resolution) + [
        JSONMember("origin", .string(explanation.originName)),
        JSONMember("hops", explanation.hopsJSON),
      ]
    return JSON.object(members).serialized + "\n"
  }

  /// The members of an answer line, in order.
  static func members(url: String, _ resolution: Resolution) -> [JSONMember] {
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
    return members
  }
}
