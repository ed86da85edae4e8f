import AppRuntime
import Foundation
import Shell
import Surface

/// `appshell links dump [--screens DIR] [--json] [--output FILE] [--check FILE]`: the app's
/// link surface, to commit and check in CI.
enum LinksDumpCommand {
  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "links dump")
    var screens: String?
    var json = false
    var output: String?
    var check: String?
    while let argument = options.next() {
      switch argument {
      case "-h", "--help":
        io.write(Array(LinksCommand.help.utf8))
        return 0
      case "--screens":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        screens = value
      case "--json":
        guard !options.hasValue else { return options.fail(io, "--json takes no value") }
        json = true
      case "--output":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        output = value
      case "--check":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        check = value
      default:
        return options.fail(io, "unexpected argument '\(argument)'")
      }
    }
    if output != nil, check != nil {
      return options.fail(io, "--output and --check cannot be used together")
    }
    let app: ShellApp
    do {
      app = try AppLoader.loadApp(screens: screens, routes: nil, checkingTargets: false)
    } catch {
      io.writeError("appshell links dump: \(error)\n")
      return 2
    }
    let surface = LinkSurface(app)
    let text = json ? surface.jsonText : surface.text
    if let check {
      guard let data = FileManager.default.contents(atPath: check) else {
        io.writeError("appshell links dump: \(check): cannot read the dump to check against\n")
        return 2
      }
      let committed = String(decoding: data, as: UTF8.self)
      guard let diff = UnifiedDiff.text(old: committed, new: text, oldName: check, newName: "today")
      else { return 0 }
      var rewrite = "appshell links dump"
      if let screens { rewrite += " --screens \(shellQuoted(screens))" }
      if json { rewrite += " --json" }
      rewrite += " --output \(shellQuoted(check))"
      io.write(Array(diff.utf8))
      io.writeError(
        "appshell links dump: the link surface differs from \(check) (lines with - are the file's, + today's)\n"
          + "if the change is intended, rewrite it with: \(rewrite)\n")
      return 1
    }
    if let output {
      guard FileManager.default.createFile(atPath: output, contents: Data(text.utf8)) else {
        io.writeError("appshell links dump: \(output): cannot write the dump\n")
        return 2
      }
      return 0
    }
    io.write(Array(text.utf8))
    return 0
  }

  /// `text` as one shell word: as it is when it holds only safe characters, else in quotes.
  static func shellQuoted(_ text: String) -> String {
    let safe = text.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0)
        || "-_./=:@".unicodeScalars.contains($0)
    }
    return safe && !text.isEmpty
      ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// A unified diff of two texts line by line (`---`/`+++` headers, `@@ -a,b +c,d @@` hunks with
/// three lines of context); nil when they are equal.
enum UnifiedDiff {
  static func text(old: String, new: String, oldName: String, newName: String) -> String? {
    guard !old.utf8.elementsEqual(new.utf8) else { return nil }
    func lines(_ text: String) -> [String] {
      var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if result.last == "" { result.removeLast() }
      return result
    }
    let a = lines(old)
    let b = lines(new)
    // The edit script: which lines of `a` go and which of `b` come.
    let difference = b.difference(from: a)
    var removed = Set<Int>()
    var inserted = Set<Int>()
    for change in difference {
      switch change {
      case .remove(let offset, _, _): removed.insert(offset)
      case .insert(let offset, _, _): inserted.insert(offset)
      }
    }
    // Walk both, producing (kind, line, aIndex, bIndex).
    enum Op { case same, remove, add }
    var ops: [(Op, String, Int, Int)] = []
    var i = 0
    var j = 0
    while i < a.count || j < b.count {
      if i < a.count, removed.contains(i) {
        ops.append((.remove, a[i], i, j))
        i += 1
      } else if j < b.count, inserted.contains(j) {
        ops.append((.add, b[j], i, j))
        j += 1
      } else {
        ops.append((.same, i < a.count ? a[i] : "", i, j))
        i += 1
        j += 1
      }
    }
    let context = 3
    let changed = ops.indices.filter { ops[$0].0 != .same }
    var hunks: [ClosedRange<Int>] = []
    for index in changed {
      let range = max(0, index - context)...min(ops.count - 1, index + context)
      if let last = hunks.last, range.lowerBound <= last.upperBound + 1 {
        hunks[hunks.count - 1] = last.lowerBound...range.upperBound
      } else {
        hunks.append(range)
      }
    }
    var out = "--- \(oldName)\n+++ \(newName)\n"
    for hunk in hunks {
      let slice = ops[hunk]
      let oldCount = slice.filter { $0.0 != .add }.count
      let newCount = slice.filter { $0.0 != .remove }.count
      let oldStart = slice.first!.2 + (oldCount == 0 ? 0 : 1)
      let newStart = slice.first!.3 + (newCount == 0 ? 0 : 1)
      out += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n"
      for (op, line, _, _) in slice {
        switch op {
        case .same: out += " " + line + "\n"
        case .remove: out += "-" + line + "\n"
        case .add: out += "+" + line + "\n"
        }
      }
    }
    return out
  }
}
