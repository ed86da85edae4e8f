import Demo
import Foundation
import JSON
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

// Helpers for running `appshell resolve` in process and reading its answers.

/// Runs `appshell resolve` with standard input `text` cut into the given chunks.
func runStdin(_ chunks: [[UInt8]], arguments: [String] = []) -> CapturedRun {
  CapturedRun.run(["resolve"] + arguments, stdin: chunks)
}

/// A route table written to a fresh temporary file; the directory goes away after `body`.
func withTableFile<T>(_ json: String, _ body: (String) throws -> T) throws -> T {
  let directory = try TemporaryDirectory("appshell-resolve-tests")
  let file = directory.url.appendingPathComponent("routes.json")
  try Data(json.utf8).write(to: file)
  return try withExtendedLifetime(directory) { try body(file.path) }
}

/// Parses an answer line as JSON, keeping member order.
func parseLine(
  _ line: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> JSON {
  let value = try JSON.parse(line)
  guard case .object = value else {
    Issue.record("not a JSON object: \(line)", sourceLocation: sourceLocation)
    return value
  }
  return value
}

/// An object's members by key, for comparing objects whose member order is not specified.
func membersByKey(_ value: JSON?) -> [String: JSON] {
  guard case .object(let members)? = value else { return [:] }
  var result: [String: JSON] = [:]
  for member in members { result[member.key] = member.value }
  return result
}

/// A small table with routes of every kind of target: screens (pushed and presented), an
/// action, a notification and a redirect.
let specExampleTable = #"""
  {
    "version": 3,
    "routes": [
      { "pattern": "navigateApp://action?navigationKey=personalcenter", "screen": "personal-center" },
      { "pattern": "navigateApp://action?navigationKey=orderdetail&orderid=:orderid", "screen": "order-detail" },
      { "pattern": "navigator://user/<username>", "screen": "user-profile", "presentation": "present" },
      { "pattern": "/user/view/:userID", "screen": "user-profile", "priority": 5 },
      { "pattern": "XYWAPP://pkdetail/like?id=<int:id>", "action": "like" },
      { "pattern": "ccf://animal/:name/<float:weight>", "notification": "AnimalNotification" },
      { "pattern": "myapp://orders/<int:id>", "screen": "order-detail", "rename": { "id": "orderid" } },
      { "pattern": "myapp://old-orders/:id", "redirect": "myapp://orders/:id" }
    ]
  }
  """#

/// Lines fed to standard input and the URL each stands for.
let streamInput: [UInt8] = Array(
  "myapp://home\r\nnavigator://user/张三\n\nmyapp://user/é\r\n\r\nXYWAPP://pkdetail/like?id=123\nnope"
    .utf8)
let streamURLs = [
  "myapp://home", "navigator://user/张三", "", "myapp://user/é", "", "XYWAPP://pkdetail/like?id=123",
  "nope",
]
