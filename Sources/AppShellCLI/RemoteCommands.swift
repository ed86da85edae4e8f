import AppRuntime
import Foundation
import JSON
import Remote
import Routing
import Signing

/// The commands that talk to the running app over its socket (`openurl`, `push`, `state`,
/// `reload`), like `xcrun simctl openurl booted URL` and `xcrun simctl push`.
enum RemoteCommand {
  /// The usage of `openurl`.
  static let openURLUsage = Usage(
    command: "openurl",
    forms: ["appshell openurl [--json] [--strict] URL"],
    summary: "Hand a URL to the running app, as a deep link from outside.")

  static let openURLHelp = """
    OVERVIEW: Hand a URL to the running appshell, as a deep link from outside.

    \(openURLUsage.section)

    The running app opens it as an outside URL (routes with "external": false are refused)
    and this prints what happened, e.g. 'pushed user-profile'. Exit 1 when no appshell of
    this user is running.

    OPTIONS:
      --json              Print one JSON object: ok, opens (app, safari or nothing),
                          matched, pattern, params, outcome, screen and tab after it, and
                          refused (null or why).
      --strict            Exit 1 when the URL did not open the app, matched no route or was
                          refused (what happened is still printed).

    """

  /// The usage of `push`.
  static let pushUsage = Usage(
    command: "push",
    forms: ["appshell push PAYLOAD"],
    summary: "Send a push notification (a banner) to the running app.")

  static let pushHelp = """
    OVERVIEW: Send a push notification to the running appshell.

    \(pushUsage.section)

    ARGUMENTS:
      PAYLOAD   An APNs-style JSON payload, as text or a file ('-' reads standard input):
                {"aps":{"alert":{"title":"...","body":"..."}},"url":"..."}

    The app shows a banner for a few seconds; Ctrl-O opens its URL as an outside URL.
    Exit 1 when no appshell is running, 2 for a bad payload.

    """

  /// The usage of `state`.
  static let stateUsage = Usage(
    command: "state",
    forms: ["appshell state"],
    summary: "Print the running app's state as JSON.")

  static let stateHelp = """
    OVERVIEW: Print the running appshell's state as one JSON line.

    \(stateUsage.section)

    Prints {"v":1,"ok":true,"state":{...},"status":"...","banner":...,"table":{...}}, where
    "state" is the navigation state JSON (tab, tabs, modals, alert; see docs/shell.md).

    """

  /// The usage of `reload`.
  static let reloadUsage = Usage(
    command: "reload",
    forms: ["appshell reload"],
    summary: "Make the running app read its route table again.")

  static let reloadHelp = """
    OVERVIEW: Make the running appshell read its route table again (as Ctrl-R and SIGHUP do).

    \(reloadUsage.section)

    Prints the new table's version; exit 1 when the new table is refused (the old one stays).

    """

  /// Runs `appshell COMMAND ...` for one of the socket commands.
  static func run(_ command: String, _ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: command)
    var operands: [String] = []
    var json = false
    var strict = false
    let help: String
    switch command {
    case "openurl": help = openURLHelp
    case "push": help = pushHelp
    case "state": help = stateHelp
    default: help = reloadHelp
    }
    while let argument = options.next() {
      if !options.ended && (argument == "-h" || argument == "--help") {
        io.write(Array(help.utf8))
        return 0
      }
      if command == "openurl" && !options.ended && (argument == "--json" || argument == "--strict")
      {
        guard !options.hasValue else { return options.fail(io, "\(argument) takes no value") }
        if argument == "--json" { json = true } else { strict = true }
        continue
      }
      if !options.ended && argument.hasPrefix("-") && argument != "-" {
        return options.fail(io, Options.unknown(argument, help: help))
      }
      operands.append(argument)
    }
    let request: WireRequest
    switch command {
    case "openurl":
      guard operands.count == 1 else { return options.fail(io, "needs exactly one URL") }
      request = .openURL(operands[0])
    case "push":
      guard operands.count == 1 else { return options.fail(io, "needs exactly one PAYLOAD") }
      do {
        request = .push(try PushPayload(text: try payloadText(operands[0], io: io)))
      } catch {
        io.writeError("appshell push: \(error)\n")
        return 2
      }
    default:
      guard operands.isEmpty else { return options.fail(io, "takes no arguments") }
      request = command == "state" ? .state : .reload
    }
    guard request.encoded.count <= WireProtocol.maxMessageBytes else {
      io.writeError(
        "appshell \(command): the message would be \(request.encoded.count) bytes; at most \(WireProtocol.maxMessageBytes) are allowed\n"
      )
      return 2
    }
    let reply: WireReply
    do {
      reply = try SocketClient.send(request, to: SocketPath.current())
    } catch {
      if json { writeFailure(error.description, io: io) }
      io.writeError("appshell \(command): \(error)\n")
      return 1
    }
    guard reply.ok else {
      if json { writeFailure(reply.error ?? "refused", io: io) }
      io.writeError("appshell \(command): \(reply.error ?? "refused")\n")
      return 1
    }
    switch request {
    case .openURL:
      if json {
        let object = JSON.object([JSONMember("ok", .bool(true))] + reply.members)
        io.write(Array((object.serialized + "\n").utf8))
      } else if case .string(let outcome)? = reply["outcome"] {
        io.write(Array((outcome + "\n").utf8))
      }
      if strict && !Self.openedTheApp(reply) { return 1 }
    case .push:
      io.write(Array("banner shown\n".utf8))
    case .state:
      io.write(reply.encoded)
    case .reload:
      if case .string(let status)? = reply["status"] { io.write(Array((status + "\n").utf8)) }
    }
    return 0
  }

  /// `openurl --json` when the URL did not reach the app: `{"ok":false,"error":"..."}`.
  private static func writeFailure(_ message: String, io: CommandIO) {
    let failure = JSON.object([
      JSONMember("ok", .bool(false)), JSONMember("error", .string(message)),
    ])
    io.write(Array((failure.serialized + "\n").utf8))
  }

  /// Whether an `openurl` reply says the URL opened the app, matched a route and was not
  /// refused (what `--strict` asks).
  static func openedTheApp(_ reply: WireReply) -> Bool {
    reply["opens"] == .string("app") && reply["matched"] == .bool(true)
      && reply["refused"] == .null
  }

  /// The payload text: the operand itself when it looks like JSON, standard input for `-`,
  /// else the file it names.
  private static func payloadText(_ operand: String, io: CommandIO) throws(WireError) -> [UInt8] {
    if operand == "-" {
      var bytes: [UInt8] = []
      while let chunk = io.read() { bytes += chunk }
      return bytes
    }
    if operand.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" }).first == "{" {
      return Array(operand.utf8)
    }
    guard let data = FileManager.default.contents(atPath: operand) else {
      throw WireError("\(operand): no such payload file (and not JSON text)")
    }
    return [UInt8](data)
  }
}
