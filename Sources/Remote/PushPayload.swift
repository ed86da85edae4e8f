import JSON
import Routing

/// A push notification's payload as APNs delivers it (and `xcrun simctl push` takes it):
/// `{"aps":{"alert":{"title":"...","body":"..."}},"url":"..."}`.
///
/// `aps.alert` is an object with `title` and/or `body` strings, or a string (the body). The
/// URL to open is the top-level `url` (a custom key, as apps put it). Other `aps` members
/// (`badge`, `sound`, ...) and other custom keys are allowed and ignored, as a device does.
package struct PushPayload: Sendable, Equatable {
  /// The alert title (may be empty).
  package var title: String
  /// The alert body (may be empty).
  package var body: String
  /// The URL the banner opens, if any.
  package var url: String?
  /// The payload as received.
  package var json: JSON

  /// Reads a payload; the error names the member that is wrong.
  package init(json: JSON) throws(WireError) {
    guard case .object = json else {
      throw WireError("the payload must be a JSON object, not \(json.kindDescription)")
    }
    guard let aps = json["aps"] else { throw WireError("the payload has no \"aps\"") }
    guard case .object = aps else {
      throw WireError("\"aps\" must be an object, not \(aps.kindDescription)")
    }
    guard let alert = aps["alert"] else { throw WireError("the payload has no \"aps.alert\"") }
    switch alert {
    case .string(let text):
      guard !text.isEmpty else { throw WireError("\"aps.alert\" is empty") }
      title = ""
      body = text
    case .object:
      title = try Self.string(alert["title"], at: "aps.alert.title") ?? ""
      body = try Self.string(alert["body"], at: "aps.alert.body") ?? ""
      if title.isEmpty && body.isEmpty {
        throw WireError("\"aps.alert\" has neither \"title\" nor \"body\"")
      }
    default:
      throw WireError(
        "\"aps.alert\" must be a string or an object, not \(alert.kindDescription)")
    }
    url = try Self.string(json["url"], at: "url")
    self.json = json
  }

  /// Reads a payload from JSON text (`appshell push` takes a file or the text itself).
  package init(text: [UInt8]) throws(WireError) {
    let json: JSON
    do {
      json = try JSON.parse(text, maxDepth: 32)
    } catch {
      throw WireError("not JSON: \(error)")
    }
    try self.init(json: json)
  }

  private static func string(_ value: JSON?, at path: String) throws(WireError) -> String? {
    guard let value else { return nil }
    guard case .string(let text) = value else {
      throw WireError("\"\(path)\" must be a string, not \(value.kindDescription)")
    }
    return text
  }
}
