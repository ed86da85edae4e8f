import JSON
import Routing
import Testing

@testable import Remote

// APNs-like push payloads (PushPayload.swift): `aps.alert` as an object or a string, an
// optional top-level `url`, other keys ignored; errors name the member.

/// Reads a payload from text.
private func read(_ text: String) throws(WireError) -> PushPayload {
  try PushPayload(text: Array(text.utf8))
}

/// The error text of reading a payload, or nil when it reads.
private func payloadError(_ text: String) -> String? {
  payloadError(bytes: Array(text.utf8))
}

/// The error text of reading a payload from bytes, or nil when it reads.
private func payloadError(bytes: [UInt8]) -> String? {
  do {
    _ = try PushPayload(text: bytes)
    return nil
  } catch {
    return error.description
  }
}

@Suite struct PushPayloadTests {
  // MARK: Good payloads

  @Test func anObjectAlertWithTitleBodyAndURL() throws {
    let payload = try read(
      #"{"aps":{"alert":{"title":"Order shipped","body":"Your headphones are on the way"}},"url":"myapp://orders/7"}"#
    )
    #expect(payload.title == "Order shipped")
    #expect(payload.body == "Your headphones are on the way")
    #expect(payload.url == "myapp://orders/7")
  }

  @Test func aStringAlertIsTheBody() throws {
    let payload = try read(#"{"aps":{"alert":"Hello there"}}"#)
    #expect(payload.title == "")
    #expect(payload.body == "Hello there")
    #expect(payload.url == nil)
  }

  @Test func onlyATitle() throws {
    let payload = try read(#"{"aps":{"alert":{"title":"Only a title"}},"url":"myapp://a"}"#)
    #expect(payload.title == "Only a title")
    #expect(payload.body == "")
    #expect(payload.url == "myapp://a")
  }

  @Test func onlyABody() throws {
    let payload = try read(#"{"aps":{"alert":{"body":"Only a body"}}}"#)
    #expect(payload.title == "")
    #expect(payload.body == "Only a body")
    #expect(payload.url == nil)
  }

  @Test func anEmptyTitleWithABodyIsEnough() throws {
    let payload = try read(#"{"aps":{"alert":{"title":"","body":"B"}}}"#)
    #expect(payload.title == "")
    #expect(payload.body == "B")
  }

  @Test func extraKeysAreIgnoredAndKept() throws {
    let text =
      #"{"campaign":"spring","aps":{"badge":3,"sound":"default","content-available":1,"alert":{"title":"T","subtitle":"S","body":"B","launch-image":"x.png"},"category":"ORDER"},"url":"myapp://orders/1","nested":{"a":[1,2,{"b":null}]}}"#
    let payload = try read(text)
    #expect(payload.title == "T")
    #expect(payload.body == "B")
    #expect(payload.url == "myapp://orders/1")
    // The payload as received, member order included.
    #expect(payload.json == (try JSON.parse(text)))
    #expect(payload.json.keys == ["campaign", "aps", "url", "nested"])
  }

  @Test func aURLInsideAPSIsNotTheURL() throws {
    // Apps put the URL at the top level; `aps` holds only Apple's keys.
    let payload = try read(#"{"aps":{"alert":"Hi","url":"myapp://a"}}"#)
    #expect(payload.url == nil)
  }

  @Test func escapesAreDecoded() throws {
    let payload = try read(
      #"{"aps":{"alert":{"title":"\u5f20\u4e09","body":"line\nbreak \"q\" \u001b"}},"url":"myapp:\/\/user\/%E5"}"#
    )
    #expect(payload.title == "张三")
    #expect(payload.body == "line\nbreak \"q\" \u{1b}")
    #expect(payload.url == "myapp://user/%E5")
  }

  @Test func theJSONAndTextInitializersAgree() throws {
    let text = #"{"aps":{"alert":{"title":"T","body":"B"}},"url":"myapp://x"}"#
    let fromJSON = try PushPayload(json: try JSON.parse(text))
    let fromText = try read(text)
    #expect(fromJSON == fromText)
    #expect(fromJSON.json == (try JSON.parse(text)))
  }

  @Test func whitespaceAroundThePayloadIsFine() throws {
    let payload = try read("\n  {\"aps\":{\"alert\":\"Hi\"}}\n\n")
    #expect(payload.body == "Hi")
  }

  // MARK: Bad payloads

  @Test(
    arguments: [
      // Not an object.
      ("[]", "the payload must be a JSON object, not an array"),
      (#""Hi""#, "the payload must be a JSON object, not a string"),
      ("3", "the payload must be a JSON object, not a number"),
      ("null", "the payload must be a JSON object, not null"),
      ("true", "the payload must be a JSON object, not a boolean"),
      // aps.
      ("{}", #"the payload has no "aps""#),
      (#"{"alert":"Hi","url":"myapp://a"}"#, #"the payload has no "aps""#),
      (#"{"APS":{"alert":"Hi"}}"#, #"the payload has no "aps""#),
      (#"{"aps":"Hi"}"#, #""aps" must be an object, not a string"#),
      (#"{"aps":{"alert":""}}"#, #""aps.alert" is empty"#),
      (#"{"aps":["Hi"]}"#, #""aps" must be an object, not an array"#),
      (#"{"aps":null}"#, #""aps" must be an object, not null"#),
      (#"{"aps":1}"#, #""aps" must be an object, not a number"#),
      // aps.alert.
      (#"{"aps":{}}"#, #"the payload has no "aps.alert""#),
      (#"{"aps":{"badge":1,"sound":"x"}}"#, #"the payload has no "aps.alert""#),
      (#"{"aps":{"alert":5}}"#, #""aps.alert" must be a string or an object, not a number"#),
      (#"{"aps":{"alert":null}}"#, #""aps.alert" must be a string or an object, not null"#),
      (#"{"aps":{"alert":true}}"#, #""aps.alert" must be a string or an object, not a boolean"#),
      (
        #"{"aps":{"alert":["T","B"]}}"#, #""aps.alert" must be a string or an object, not an array"#
      ),
      // Neither title nor body.
      (#"{"aps":{"alert":{}}}"#, #""aps.alert" has neither "title" nor "body""#),
      (
        #"{"aps":{"alert":{"title":"","body":""}}}"#, #""aps.alert" has neither "title" nor "body""#
      ),
      (#"{"aps":{"alert":{"subtitle":"S"}}}"#, #""aps.alert" has neither "title" nor "body""#),
      // Title and body of the wrong kind.
      (
        #"{"aps":{"alert":{"title":1,"body":"B"}}}"#,
        #""aps.alert.title" must be a string, not a number"#
      ),
      (#"{"aps":{"alert":{"title":null}}}"#, #""aps.alert.title" must be a string, not null"#),
      (
        #"{"aps":{"alert":{"title":"T","body":false}}}"#,
        #""aps.alert.body" must be a string, not a boolean"#
      ),
      (
        #"{"aps":{"alert":{"body":{"text":"B"}}}}"#,
        #""aps.alert.body" must be a string, not an object"#
      ),
      // The URL.
      (#"{"aps":{"alert":"Hi"},"url":42}"#, #""url" must be a string, not a number"#),
      (#"{"aps":{"alert":"Hi"},"url":null}"#, #""url" must be a string, not null"#),
      (#"{"aps":{"alert":"Hi"},"url":["myapp://a"]}"#, #""url" must be a string, not an array"#),
      (
        #"{"aps":{"alert":"Hi"},"url":{"href":"myapp://a"}}"#,
        #""url" must be a string, not an object"#
      ),
    ])
  func badPayloadsNameTheMember(text: String, message: String) {
    #expect(payloadError(text) == message)
  }

  @Test(arguments: [
    "", "aps", "{", #"{"aps":{"alert":"Hi"}"#, #"{"aps":{"alert":"Hi"}} {}"#, "{'aps':1}",
  ])
  func textThatIsNotJSONIsRefused(text: String) throws {
    let message = try #require(payloadError(text))
    #expect(message.hasPrefix("not JSON: line 1, column "), "\(message)")
  }

  @Test func invalidUTF8IsRefused() throws {
    let text = Array(#"{"aps":{"alert":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8)
    let shown = try #require(payloadError(bytes: text))
    #expect(shown.hasPrefix("not JSON: "), "\(shown)")
  }

  @Test func nestingDeeperThanThirtyTwoIsRefused() throws {
    let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
    let message = try #require(payloadError(#"{"aps":{"alert":"Hi"},"x":"# + deep + "}"))
    #expect(message.hasPrefix("not JSON: "), "\(message)")
  }

  @Test func theFirstProblemIsTheOneReported() {
    // Without aps, the bad url is not reached; with a bad alert, neither is.
    #expect(payloadError(#"{"url":1}"#) == #"the payload has no "aps""#)
    #expect(
      payloadError(#"{"aps":{"alert":1},"url":1}"#)
        == #""aps.alert" must be a string or an object, not a number"#)
  }
}
