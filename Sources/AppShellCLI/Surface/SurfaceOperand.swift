import AppRuntime
import Foundation
import Platform
import Routing
import Shell

/// An operand of `appshell links diff`: an app directory, a route table file, or
/// `git:REV[:PATH]` (read with `git show` and `git ls-tree`, never checked out).
enum SurfaceOperand {
  /// Why an operand cannot be used.
  struct Problem: Error, CustomStringConvertible {
    var description: String
  }

  /// The app `operand` names. `defaultPath` is the path a `git:REV` without `:PATH` reads.
  static func load(_ operand: String, defaultPath: String) throws(Problem) -> ShellApp {
    if operand.hasPrefix("git:") { return try loadGit(operand, defaultPath: defaultPath) }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory) else {
      throw Problem(description: "\(operand): no such app directory or route table file")
    }
    do {
      if isDirectory.boolValue {
        return try AppLoader.loadApp(screens: operand, routes: nil, checkingTargets: false)
      }
      return tableApp(try AppLoader.loadTable(path: operand))
    } catch {
      throw Problem(description: error.description)
    }
  }

  /// An app that is only a route table: no `links` (every URL from outside reaches it), this
  /// build's version.
  static func tableApp(_ table: RouteTable) -> ShellApp {
    ShellApp(
      table: table, catalog: ScreenCatalog(), tabs: [],
      version: AppVersion(AppShellCommand.version)!)
  }

  /// `git:REV` or `git:REV:PATH` of the repository around the working directory. PATH is read
  /// as git reads `REV:PATH` (from the repository's top; `./` and `../` from the working
  /// directory); without it, `defaultPath` (a path on disk) is used.
  static func loadGit(_ operand: String, defaultPath: String) throws(Problem) -> ShellApp {
    let spec = operand.dropFirst("git:".count)
    let revision: String
    var path: String
    if let colon = spec.firstIndex(of: ":") {
      revision = String(spec[..<colon])
      path = String(spec[spec.index(after: colon)...])
    } else {
      revision = String(spec)
      path = ""
    }
    guard !revision.isEmpty else {
      throw Problem(description: "\(operand): no revision after git:")
    }
    let git = Git()
    let top = try git.text(["rev-parse", "--show-toplevel"], operand: operand)
    let prefix = try git.text(["rev-parse", "--show-prefix"], operand: operand)
    if path.isEmpty {
      path = relative(defaultPath, top: top)
    } else if path.hasPrefix("./") || path.hasPrefix("../") || path == "." {
      path = normalized(prefix + path)
    }
    guard
      (try? git.text(
        ["rev-parse", "--verify", "--quiet", revision + "^{commit}"], operand: operand)) != nil
    else {
      throw Problem(
        description: "\(operand): no revision '\(revision)' in the repository at \(top)")
    }
    let object = revision + ":" + path
    guard let type = try? git.text(["cat-file", "-t", object], operand: operand) else {
      throw Problem(description: "\(operand): '\(path)' is not in revision '\(revision)'")
    }
    if type == "blob" {
      let bytes = try git.bytes(["show", object], operand: operand)
      do {
        return tableApp(try RouteTable(json: bytes))
      } catch {
        throw Problem(description: "\(operand): \(error)")
      }
    }
    let names = try git.text(["ls-tree", "-r", "--name-only", object], operand: operand)
      .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("flows/") }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "appshell-git-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    for name in names {
      let bytes = try git.bytes(["show", object + "/" + name], operand: operand)
      let file = directory.appendingPathComponent(name)
      try? FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes)) else {
        throw Problem(description: "\(operand): cannot write \(name) to a temporary directory")
      }
    }
    do {
      let table = try AppLoader.loadTable(path: directory.path + "/routes.json")
      return try AppLoader.appMaker(directory: directory.path)(table)
    } catch {
      // Name the file as it is in the revision, not the temporary copy.
      let message = error.description.replacingOccurrences(
        of: directory.path, with: "\(operand.hasSuffix(path) ? operand : operand + ":" + path)")
      throw Problem(description: message)
    }
  }

  /// `path` (on disk) relative to the repository's top directory `top`.
  static func relative(_ path: String, top: String) -> String {
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    let base = URL(fileURLWithPath: top).standardizedFileURL.resolvingSymlinksInPath().path
    guard absolute.hasPrefix(base) else { return path }
    return String(absolute.dropFirst(base.count).drop { $0 == "/" })
  }

  /// `a/./b/../c` as `a/c`.
  static func normalized(_ path: String) -> String {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        _ = parts.popLast()
      } else {
        parts.append(part)
      }
    }
    return parts.joined(separator: "/")
  }

  /// `git` run in the working directory, its output captured.
  struct Git {
    let path = ChildProcess.find("git")

    func bytes(_ arguments: [String], operand: String) throws(Problem) -> [UInt8] {
      guard let path else {
        throw Problem(description: "\(operand): git is not installed (no git on PATH)")
      }
      var environment = ProcessInfo.processInfo.environment
      environment["GIT_TERMINAL_PROMPT"] = "0"
      let result: (status: Int32, output: [UInt8], error: [UInt8])
      do {
        result = try ChildProcess.run(path, ["git"] + arguments, environment: environment)
      } catch {
        throw Problem(description: "\(operand): \(error)")
      }
      guard result.status == 0 else {
        let why =
          String(decoding: result.error, as: UTF8.self)
          .split(separator: "\n").first.map(String.init) ?? "git \(arguments[0]) failed"
        throw Problem(description: "\(operand): \(why)")
      }
      return result.output
    }

    func text(_ arguments: [String], operand: String) throws(Problem) -> String {
      var text = String(decoding: try bytes(arguments, operand: operand), as: UTF8.self)
      while text.hasSuffix("\n") { text.removeLast() }
      return text
    }
  }
}
