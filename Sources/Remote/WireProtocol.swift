import JSON
import Routing

// The socket protocol between `appshell openurl` / `push` / `state` / `reload` and the running
// app (described in docs/socket.md). One request per connection: the client writes one JSON
// object on one line (UTF-8, ending in "\n", at most `WireProtocol.maxMessageBytes` bytes with
// the newline); the app answers with one JSON object on one line and closes.
//
//   {"v":1,"type":"openurl","url":"myapp://user/42"}
//   {"v":1,"type":"push","payload":{"aps":{"alert":{"title":"Hi","body":"..."}},"url":"..."}}
//   {"v":1,"type":"state"}
//   {"v":1,"type":"reload"}
//
//   {"v":1,"ok":true,...}   or   {"v":1,"ok":false,"error":"what was wrong"}

/// The protocol's constants.
package enum WireProtocol {
  /// The protocol version this build speaks (the `v` member).
  package static let version = 1
  /// The most bytes a request may have, the newline included.
  package static let maxMessageBytes = 64 * 1024
  /// The most bytes a reply may have (a state reply grows with long URLs on screen).
  package static let maxReplyBytes = 16 * 1024 * 1024
}

/// A request to the running app.
package enum WireRequest: Sendable, Equatable {
  /// Open a URL as a URL from outside (`appshell openurl URL`).
  case openURL(String)
  /// Show a push banner (`appshell push PAYLOAD`).
  case push(PushPayload)
  /// Answer with the navigation state and the table in force (`appshell state`).
  case state
  /// Read the route table again, as Ctrl-R and SIGHUP do (`appshell reload`).
  case reload

  /// The request as one line, newline included.
  package var encoded: [UInt8] {
    var members = [JSONMember("v", .number(String(WireProtocol.version)))]
    switch self {
    case .openURL(let url):
      members += [JSONMember("type", .string("openurl")), JSONMember("url", .string(url))]
    case .push(let payload):
      members += [JSONMember("type", .string("push")), JSONMember("payload", payload.json)]
    case .state:
      members.append(JSONMember("type", .string("state")))
    case .reload:
      members.append(JSONMember("type", .string("reload")))
    }
    return Array(JSON.object(members).serialized.utf8) + [0x0A]
  }

  /// Reads one request line (without its newline); the error says what is wrong with it.
  package static func decode(_ line: [UInt8]) throws(WireError) -> WireRequest {
    let object = try WireError.members(of: line)
    guard let type = object["type"] else { throw WireError("missing \"type\"") }
    guard case .string(let name) = type else {
      throw WireError("\"type\" must be a string, not \(type.kindDescription)")
    }
    switch name {
    case "openurl":
      try WireError.allow(["v", "type", "url"], in: object)
      guard let url = object["url"] else { throw WireError("openurl: missing \"url\"") }
      guard case .string(let text) = url else {
        throw WireError("openurl: \"url\" must be a string, not \(url.kindDescription)")
      }
      return .openURL(text)
    case "push":
      try WireError.allow(["v", "type", "payload"], in: object)
      guard let payload = object["payload"] else {
        throw WireError("push: missing \"payload\"")
      }
      do {
        return .push(try PushPayload(json: payload))
      } catch {
        throw WireError("push: \(error.description)")
      }
    case "state":
      try WireError.allow(["v", "type"], in: object)
      return .state
    case "reload":
      try WireError.allow(["v", "type"], in: object)
      return .reload
    default:
      throw WireError(
        "unknown type \(JSON.quote(name)) (known: openurl, push, state, reload)")
    }
  }
}

/// The app's answer: success with some members, or an error.
package struct WireReply: Sendable, Equatable {
  /// Whether the request was carried out.
  package var ok: Bool
  /// What went wrong, when not ok.
  package var error: String?
  /// Further members (`outcome`, `state`, `status`, `table`, ...).
  package var members: [JSONMember]

  /// A successful reply with these members.
  package static func success(_ members: [JSONMember] = []) -> WireReply {
    WireReply(ok: true, error: nil, members: members)
  }

  /// An error reply.
  package static func failure(_ message: String) -> WireReply {
    WireReply(ok: false, error: message, members: [])
  }

  /// The reply as one line, newline included.
  package var encoded: [UInt8] {
    var all = [
      JSONMember("v", .number(String(WireProtocol.version))), JSONMember("ok", .bool(ok)),
    ]
    if let error { all.append(JSONMember("error", .string(error))) }
    all += members
    return Array(JSON.object(all).serialized.utf8) + [0x0A]
  }

  /// The member named `key`, if any.
  package subscript(key: String) -> JSON? {
    members.first { $0.key == key }?.value
  }

  /// Reads a reply line (without its newline).
  package static func decode(_ line: [UInt8]) throws(WireError) -> WireReply {
    let object = try WireError.members(of: line, limit: WireProtocol.maxReplyBytes)
    guard case .bool(let ok)? = object["ok"] else {
      throw WireError("the reply has no boolean \"ok\"")
    }
    var error: String?
    if let member = object["error"] {
      guard case .string(let text) = member else {
        throw WireError("\"error\" must be a string, not \(member.kindDescription)")
      }
      error = text
    }
    guard case .object(let all) = object else { throw WireError("not an object") }
    let rest = all.filter { !["v", "ok", "error"].contains($0.key) }
    return WireReply(ok: ok, error: error, members: rest)
  }
}

/// What is wrong with a message; the text is sent back as the error reply.
package struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The problem, e.g. `missing "type"`.
  package var description: String

  /// Makes an error.
  package init(_ description: String) { self.description = description }

  /// Parses a message line into a JSON object of this protocol version.
  static func members(of line: [UInt8], limit: Int = WireProtocol.maxMessageBytes)
    throws(WireError) -> JSON
  {
    guard line.count < limit else {
      throw WireError("message too long: \(line.count) bytes (at most \(limit))")
    }
    let json: JSON
    do {
      json = try JSON.parse(line, maxDepth: 32)
    } catch {
      throw WireError("not JSON: \(error)")
    }
    guard case .object = json else {
      throw WireError("a message must be a JSON object, not \(json.kindDescription)")
    }
    guard let version = json["v"] else { throw WireError("missing protocol version \"v\"") }
    guard version.intValue == WireProtocol.version else {
      let shown: String
      if case .number(let text) = version { shown = text } else { shown = version.kindDescription }
      throw WireError(
        "unsupported protocol version \(shown) (this app speaks \(WireProtocol.version))")
    }
    return json
  }

  /// Refuses members other than `allowed`.
  static func allow(_ allowed: Set<String>, in object: JSON) throws(WireError) {
    for key in object.keys where !allowed.contains(key) {
      throw WireError("unknown member \(JSON.quote(key))")
    }
  }
}
