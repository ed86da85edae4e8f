import Foundation
import JSON
import Routing
import TestSupport
import Testing

@testable import AppShellCLI

/// Small apps written to a private temporary directory for `appshell links dump` and
/// `appshell links diff`: each has a `home` tab on `t://home` plus the routes given.
final class SurfaceApps {
  let directories: PrivateDirectories
  var root: String { directories.root }

  init() throws { directories = try PrivateDirectories() }

  /// Writes an app called `name` with `routes` (route objects as JSON text) and, optionally,
  /// more members of `app.json` (such as `"links": {...}`); returns its directory.
  @discardableResult
  func app(_ name: String, routes: [String], appMembers: String = "", version: String = "1.0")
    throws -> String
  {
    let directory = root + "/" + name
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true)
    let extra = appMembers.isEmpty ? "" : ", " + appMembers
    var files = [
      "app.json":
        #"{"name":"T","version":"\#(version)","tabs":[{"title":"Home","root":"t://home"}]\#(extra)}"#,
      "routes.json":
        #"{"routes":[{"pattern":"t://home","screen":"home"}"#
        + routes.map { "," + $0 }.joined() + "]}",
      "home.json": #"{"name":"home","title":"Home"}"#,
    ]
    // A data screen for every screen the routes name, so the app's own table is one it runs.
    for route in routes {
      guard case .string(let screen)? = try JSON.parse(Array(route.utf8))["screen"],
        screen != "home"
      else { continue }
      files[screen + ".json"] = #"{"name":"\#(screen)","title":"\#(screen)"}"#
    }
    for (file, text) in files {
      try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + file))
    }
    return directory
  }

  /// Writes `text` to `name` under the root; returns its path.
  func file(_ name: String, _ text: String) throws -> String {
    let path = root + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}

/// The findings of `appshell links diff OLD NEW --format json`, parsed, and the exit status.
func diffFindings(_ old: String, _ new: String, _ more: [String] = []) throws -> (
  status: Int32, findings: [[String: JSON]], summary: [String: JSON]
) {
  let result = CapturedRun.run(["links", "diff", old, new, "--format", "json"] + more)
  let document = try JSON.parse(result.output)
  guard case .array(let list)? = document["findings"] else {
    Issue.record("no findings array: \(result.stdout) \(result.stderr)")
    return (result.status, [], [:])
  }
  return (result.status, list.map(membersByKey), membersByKey(document["summary"]))
}

/// `appshell links check --screens DIR URL` (from outside), parsed.
func checked(_ directory: String, _ url: String) throws -> [String: JSON] {
  let result = CapturedRun.run(["links", "check", "--screens", directory, url])
  return membersByKey(try JSON.parse(result.output))
}

/// `appshell resolve --routes DIR/routes.json URL` (from inside), parsed.
func resolved(_ directory: String, _ url: String) throws -> [String: JSON] {
  let result = CapturedRun.run(["resolve", "--routes", directory + "/routes.json", url])
  return membersByKey(try JSON.parse(result.output))
}
