import JSON
import Routing
import Testing

@testable import Remote

// The socket protocol: one JSON object per line, both ways (WireProtocol.swift).

/// The bytes of a line of text.
private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The error text of decoding a request line, or nil when it decodes.
private func requestError(_ line: [UInt8]) -> String? {
  do {
    _ = try WireRequest.decode(line)
    return nil
  } catch {
    return error.description
  }
}

/// The error text of decoding a reply line, or nil when it decodes.
private func replyError(_ line: [UInt8]) -> String? {
  do {
    _ = try WireReply.decode(line)
    return nil
  } catch {
    return error.description
  }
}

/// A payload read from JSON text that is known to be good.
private func payload(_ text: String) -> PushPayload {
  try! PushPayload(text: bytes(text))
}

/// One request of each kind, and URLs and payloads with text that needs escaping.
private let sampleRequests: [WireRequest] = [
  .openURL("myapp://user/42"),
  .openURL(""),
  .openURL("myapp://user/张三?q=\"quoted\"&b=\\back\\slash"),
  .openURL("myapp://x/line\nbreak\rreturn\ttab\u{1b}[31m\u{7f}\u{0}"),
  .openURL("myapp://sep/\u{2028}\u{2029}\u{202e}😀"),
  .push(
    payload(
      #"{"aps":{"alert":{"title":"Hi","body":"Your order shipped"}},"url":"myapp://orders/7"}"#)),
  .push(payload(#"{"aps":{"alert":"Just a body"}}"#)),
  .push(
    payload(
      #"{"aps":{"alert":{"title":"T"},"badge":3,"sound":"default"},"campaign":[1,2.5,null,true]}"#)),
  .push(
    payload(
      #"{"aps":{"alert":{"body":"line\nbreak \u001b \"q\""}},"url":"myapp://user/%E5%BC%A0"}"#)),
  .state,
  .reload,
]

@Suite struct WireProtocolTests {
  // MARK: Constants

  @Test func theProtocolConstants() {
    #expect(WireProtocol.version == 1)
    #expect(WireProtocol.maxMessageBytes == 65536)
  }

  // MARK: Requests: encoding and decoding

  @Test(arguments: sampleRequests)
  func everyRequestRoundTrips(request: WireRequest) throws {
    let line = request.encoded
    #expect(line.last == 0x0A)
    // One line: the only newline is the last byte.
    #expect(line.filter { $0 == 0x0A }.count == 1)
    // A line break inside a value is escaped, so the line holds no raw CR either.
    #expect(!line.contains(0x0D))
    let decoded = try WireRequest.decode(Array(line.dropLast()))
    #expect(decoded == request)
  }

  @Test func requestsEncodeAsTheDocumentedLines() {
    #expect(WireRequest.state.encoded == bytes(#"{"v":1,"type":"state"}"# + "\n"))
    #expect(WireRequest.reload.encoded == bytes(#"{"v":1,"type":"reload"}"# + "\n"))
    #expect(
      WireRequest.openURL("myapp://user/42").encoded
        == bytes(#"{"v":1,"type":"openurl","url":"myapp://user/42"}"# + "\n"))
    #expect(
      WireRequest.push(payload(#"{"aps":{"alert":"Hi"},"url":"myapp://a"}"#)).encoded
        == bytes(
          #"{"v":1,"type":"push","payload":{"aps":{"alert":"Hi"},"url":"myapp://a"}}"# + "\n"))
  }

  @Test func theDocumentedExamplesDecode() throws {
    #expect(
      try WireRequest.decode(bytes(#"{"v":1,"type":"openurl","url":"myapp://user/42"}"#))
        == .openURL("myapp://user/42"))
    #expect(try WireRequest.decode(bytes(#"{"v":1,"type":"state"}"#)) == .state)
    #expect(try WireRequest.decode(bytes(#"{"v":1,"type":"reload"}"#)) == .reload)
    let push = try WireRequest.decode(
      bytes(
        #"{"v":1,"type":"push","payload":{"aps":{"alert":{"title":"Hi","body":"..."}},"url":"myapp://x"}}"#
      ))
    guard case .push(let received) = push else {
      Issue.record("expected a push, got \(push)")
      return
    }
    #expect(received.title == "Hi")
    #expect(received.body == "...")
    #expect(received.url == "myapp://x")
  }

  @Test func memberOrderAndWhitespaceDoNotMatter() throws {
    #expect(
      try WireRequest.decode(bytes(#" { "url" : "myapp://a" , "type":"openurl", "v" : 1 }  "#))
        == .openURL("myapp://a"))
    #expect(try WireRequest.decode(bytes("{\"type\":\"state\",\"v\":1}\r")) == .state)
  }

  @Test func escapesInTheURLAreDecoded() throws {
    let request = try WireRequest.decode(
      bytes(#"{"v":1,"type":"openurl","url":"myapp://user/\u5f20\u4e09\n\"x\"\/"}"#))
    #expect(request == .openURL("myapp://user/张三\n\"x\"/"))
  }

  // MARK: Requests: errors

  @Test(
    arguments: [
      // Not an object of this protocol version.
      ("[1]", "a message must be a JSON object, not an array"),
      (#""hi""#, "a message must be a JSON object, not a string"),
      ("42", "a message must be a JSON object, not a number"),
      ("null", "a message must be a JSON object, not null"),
      ("{}", #"missing protocol version "v""#),
      (#"{"type":"state"}"#, #"missing protocol version "v""#),
      (#"{"v":2,"type":"state"}"#, "unsupported protocol version 2 (this app speaks 1)"),
      (#"{"v":0,"type":"state"}"#, "unsupported protocol version 0 (this app speaks 1)"),
      (#"{"v":-1,"type":"state"}"#, "unsupported protocol version -1 (this app speaks 1)"),
      (#"{"v":1.0,"type":"state"}"#, "unsupported protocol version 1.0 (this app speaks 1)"),
      (#"{"v":1e0,"type":"state"}"#, "unsupported protocol version 1e0 (this app speaks 1)"),
      (#"{"v":"1","type":"state"}"#, "unsupported protocol version a string (this app speaks 1)"),
      (#"{"v":null,"type":"state"}"#, "unsupported protocol version null (this app speaks 1)"),
      (#"{"v":true,"type":"state"}"#, "unsupported protocol version a boolean (this app speaks 1)"),
      (#"{"v":[1],"type":"state"}"#, "unsupported protocol version an array (this app speaks 1)"),
      // The type.
      (#"{"v":1}"#, #"missing "type""#),
      (#"{"v":1,"url":"myapp://a"}"#, #"missing "type""#),
      (#"{"v":1,"type":3}"#, #""type" must be a string, not a number"#),
      (#"{"v":1,"type":null}"#, #""type" must be a string, not null"#),
      (#"{"v":1,"type":{"name":"state"}}"#, #""type" must be a string, not an object"#),
      (#"{"v":1,"type":["state"]}"#, #""type" must be a string, not an array"#),
      (
        #"{"v":1,"type":"launch"}"#,
        #"unknown type "launch" (known: openurl, push, state, reload)"#
      ),
      (
        #"{"v":1,"type":"OPENURL","url":"myapp://a"}"#,
        #"unknown type "OPENURL" (known: openurl, push, state, reload)"#
      ),
      (#"{"v":1,"type":""}"#, #"unknown type "" (known: openurl, push, state, reload)"#),
      (
        #"{"v":1,"type":"bad\"q\n"}"#,
        #"unknown type "bad\"q\n" (known: openurl, push, state, reload)"#
      ),
      // Members the type does not take.
      (#"{"v":1,"type":"state","url":"myapp://a"}"#, #"unknown member "url""#),
      (#"{"v":1,"type":"reload","force":true}"#, #"unknown member "force""#),
      (#"{"v":1,"type":"openurl","url":"myapp://a","source":"x"}"#, #"unknown member "source""#),
      (#"{"v":1,"type":"openurl","payload":{}}"#, #"unknown member "payload""#),
      (
        #"{"v":1,"type":"push","payload":{"aps":{"alert":"Hi"}},"url":"myapp://a"}"#,
        #"unknown member "url""#
      ),
      // openurl.
      (#"{"v":1,"type":"openurl"}"#, #"openurl: missing "url""#),
      (#"{"v":1,"type":"openurl","url":42}"#, #"openurl: "url" must be a string, not a number"#),
      (#"{"v":1,"type":"openurl","url":null}"#, #"openurl: "url" must be a string, not null"#),
      (#"{"v":1,"type":"openurl","url":["a"]}"#, #"openurl: "url" must be a string, not an array"#),
      (
        #"{"v":1,"type":"openurl","url":false}"#, #"openurl: "url" must be a string, not a boolean"#
      ),
      // push.
      (#"{"v":1,"type":"push"}"#, #"push: missing "payload""#),
      (
        #"{"v":1,"type":"push","payload":"Hi"}"#,
        "push: the payload must be a JSON object, not a string"
      ),
      (
        #"{"v":1,"type":"push","payload":null}"#,
        "push: the payload must be a JSON object, not null"
      ),
      (#"{"v":1,"type":"push","payload":{}}"#, #"push: the payload has no "aps""#),
      (
        #"{"v":1,"type":"push","payload":{"aps":[]}}"#,
        #"push: "aps" must be an object, not an array"#
      ),
      (#"{"v":1,"type":"push","payload":{"aps":{}}}"#, #"push: the payload has no "aps.alert""#),
      (
        #"{"v":1,"type":"push","payload":{"aps":{"alert":7}}}"#,
        #"push: "aps.alert" must be a string or an object, not a number"#
      ),
      (
        #"{"v":1,"type":"push","payload":{"aps":{"alert":{}}}}"#,
        #"push: "aps.alert" has neither "title" nor "body""#
      ),
      (
        #"{"v":1,"type":"push","payload":{"aps":{"alert":{"title":1}}}}"#,
        #"push: "aps.alert.title" must be a string, not a number"#
      ),
      (
        #"{"v":1,"type":"push","payload":{"aps":{"alert":"Hi"},"url":9}}"#,
        #"push: "url" must be a string, not a number"#
      ),
    ])
  func badRequestsAreRefusedWithTheirReason(line: String, message: String) {
    #expect(requestError(bytes(line)) == message)
  }

  @Test(
    arguments: [
      "", " ", "not json", "{", #"{"v":1,"type":"state""#, #"{"v":1,"type":"state"} x"#,
      #"{"v":1,"type":"state"}{"v":1,"type":"state"}"#, #"{"v":1,"v":1,"type":"state"}"#,
      #"{'v':1,'type':'state'}"#, #"{"v":01,"type":"state"}"#, #"{"v":1,"type":"sta\qe"}"#,
      "{\"v\":1,\"type\":\"state\u{1}\"}", #"{v:1,type:"state"}"#,
      #"{"v":1,"type":"state",}"#,
    ])
  func textThatIsNotJSONIsRefused(line: String) throws {
    let message = try #require(requestError(bytes(line)))
    #expect(message.hasPrefix("not JSON: line 1, column "), "\(message)")
  }

  @Test func invalidUTF8IsRefusedAsNotJSON() throws {
    let line =
      bytes(#"{"v":1,"type":"openurl","url":"myapp://"#) + [0xFF, 0xC0, 0x80] + bytes(#""}"#)
    let message = try #require(requestError(line))
    #expect(message.hasPrefix("not JSON: "), "\(message)")
  }

  @Test func nestingDeeperThanThirtyTwoIsRefusedAsNotJSON() throws {
    let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    let line = #"{"v":1,"type":"push","payload":{"aps":{"alert":"Hi"},"deep":"# + deep + "}}"
    let message = try #require(requestError(bytes(line)))
    #expect(message.hasPrefix("not JSON: "), "\(message)")
    // Shallow nesting in a payload is fine.
    let shallow = String(repeating: "[", count: 5) + String(repeating: "]", count: 5)
    #expect(
      requestError(
        bytes(#"{"v":1,"type":"push","payload":{"aps":{"alert":"Hi"},"deep":"# + shallow + "}}"))
        == nil)
  }

  // MARK: Length

  /// An openurl line of exactly `count` bytes (without a newline), and its URL.
  private func openURLLine(ofLength count: Int) -> (line: [UInt8], url: String) {
    let head = #"{"v":1,"type":"openurl","url":""#
    let tail = #""}"#
    let url = String(repeating: "a", count: count - head.utf8.count - tail.utf8.count)
    return (bytes(head + url + tail), url)
  }

  @Test func aLineThatFitsWithItsNewlineDecodes() throws {
    // maxMessageBytes with the newline: one byte less without it.
    let (line, url) = openURLLine(ofLength: WireProtocol.maxMessageBytes - 1)
    #expect(line.count == 65535)
    #expect(try WireRequest.decode(line) == .openURL(url))
    // The encoding of that request is exactly at the limit.
    #expect(WireRequest.openURL(url).encoded.count == WireProtocol.maxMessageBytes)
    #expect(WireRequest.openURL(url).encoded == line + [0x0A])
  }

  @Test(arguments: [65536, 65537, 70000, 200_000])
  func aLineLongerThanTheLimitIsRefused(length: Int) {
    let (line, _) = openURLLine(ofLength: length)
    #expect(line.count == length)
    #expect(requestError(line) == "message too long: \(length) bytes (at most 65536)")
  }

  @Test func lengthIsCheckedBeforeAnythingElse() {
    let garbage = [UInt8](repeating: 0xFF, count: WireProtocol.maxMessageBytes)
    #expect(requestError(garbage) == "message too long: 65536 bytes (at most 65536)")
    let huge = [UInt8](repeating: 0xFF, count: WireProtocol.maxReplyBytes)
    #expect(replyError(huge) == "message too long: 16777216 bytes (at most 16777216)")
  }

  @Test func repliesMayBeLongerThanRequests() {
    let text = String(repeating: "x", count: 100_000)
    let reply = WireReply.success([JSONMember("status", .string(text))])
    let line = Array(reply.encoded.dropLast())
    #expect(line.count > WireProtocol.maxMessageBytes)
    #expect((try? WireReply.decode(line)) == reply)
  }

  // MARK: Replies

  @Test func replyRoundTrips() throws {
    let state = JSON.object([
      JSONMember("tabs", .array([.string("Home"), .string("Orders")])),
      JSONMember("selected", .number("0")),
      JSONMember("alert", .null),
    ])
    let replies: [WireReply] = [
      .success(),
      .success([
        JSONMember("outcome", .string("~ myapp://user/<username> → pushed user-profile")),
        JSONMember("state", state), JSONMember("signed", .bool(false)),
      ]),
      .failure(#"unknown type "x" (known: openurl, push, state, reload)"#),
      .failure("line\nbreak \u{1b}[2J \u{2028}"),
    ]
    for reply in replies {
      let line = reply.encoded
      #expect(line.last == 0x0A)
      #expect(line.filter { $0 == 0x0A }.count == 1)
      #expect(try WireReply.decode(Array(line.dropLast())) == reply)
    }
  }

  @Test func repliesEncodeAsTheDocumentedLines() {
    #expect(WireReply.success().encoded == bytes(#"{"v":1,"ok":true}"# + "\n"))
    #expect(
      WireReply.success([JSONMember("outcome", .string("pushed"))]).encoded
        == bytes(#"{"v":1,"ok":true,"outcome":"pushed"}"# + "\n"))
    #expect(
      WireReply.failure("what was wrong").encoded
        == bytes(#"{"v":1,"ok":false,"error":"what was wrong"}"# + "\n"))
  }

  @Test func successAndFailureMakers() {
    let success = WireReply.success([JSONMember("status", .string("ok"))])
    #expect(success.ok)
    #expect(success.error == nil)
    #expect(success.members == [JSONMember("status", .string("ok"))])
    let failure = WireReply.failure("bad")
    #expect(!failure.ok)
    #expect(failure.error == "bad")
    #expect(failure.members.isEmpty)
  }

  @Test func replySubscriptFindsMembers() throws {
    let reply = try WireReply.decode(
      bytes(#"{"v":1,"ok":true,"status":"Opened","table":{"version":2},"n":3}"#))
    #expect(reply.ok)
    #expect(reply.error == nil)
    #expect(reply["status"] == .string("Opened"))
    #expect(reply["table"] == .object([JSONMember("version", .number("2"))]))
    #expect(reply["n"] == .number("3"))
    #expect(reply["missing"] == nil)
    // v, ok and error are the reply's own fields, not members.
    #expect(reply["v"] == nil)
    #expect(reply["ok"] == nil)
    #expect(reply.members.map(\.key) == ["status", "table", "n"])
  }

  @Test func aFailureReplyDecodes() throws {
    let reply = try WireReply.decode(bytes(#"{"v":1,"ok":false,"error":"missing \"type\""}"#))
    #expect(!reply.ok)
    #expect(reply.error == #"missing "type""#)
    #expect(reply["error"] == nil)
  }

  @Test(
    arguments: [
      (#"{"v":1}"#, #"the reply has no boolean "ok""#),
      (#"{"v":1,"ok":"yes"}"#, #"the reply has no boolean "ok""#),
      (#"{"v":1,"ok":1}"#, #"the reply has no boolean "ok""#),
      (#"{"v":1,"ok":null}"#, #"the reply has no boolean "ok""#),
      (#"{"ok":true}"#, #"missing protocol version "v""#),
      (#"{"v":2,"ok":true}"#, "unsupported protocol version 2 (this app speaks 1)"),
      ("[true]", "a message must be a JSON object, not an array"),
      (#"{"v":1,"ok":false,"error":5}"#, #""error" must be a string, not a number"#),
    ])
  func badRepliesAreRefused(line: String, message: String) {
    #expect(replyError(bytes(line)) == message)
  }

  @Test func aReplyThatIsNotJSONIsRefused() throws {
    let message = try #require(replyError(bytes(#"{"v":1,"ok":tru}"#)))
    #expect(message.hasPrefix("not JSON: "), "\(message)")
  }

  // MARK: Errors

  @Test func wireErrorsCompareAndDescribeByText() {
    #expect(WireError("x") == WireError("x"))
    #expect(WireError("x") != WireError("y"))
    #expect(WireError(#"missing "type""#).description == #"missing "type""#)
  }
}
