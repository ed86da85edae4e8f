import JSON
import Lint
import RouteCodegen
import Routing

/// Lint of routes against the parameters their data screens declare: a route (or an
/// expansion of its optional groups) that gives a declared required parameter no value, or
/// captures a declared parameter as another kind than its type.
package enum DeclaredParamsLint {
  /// The findings, in table order.
  package static func findings(_ table: RouteTable, screens: [ScreenDefinition]) -> [LintFinding] {
    var declared: [String: [String: ParameterSpec]] = [:]
    for screen in screens where !screen.params.isEmpty { declared[screen.name] = screen.params }
    var findings: [LintFinding] = []
    for entry in table.entries {
      guard case .screen(let name) = entry.target, let specs = declared[name] else { continue }
      var problems: [String] = []
      for captures in entry.captureSets {
        for (parameter, spec) in specs.sorted(by: { $0.key < $1.key }) {
          let problem: String
          if let kind = captures.first(where: { $0.name == parameter })?.kind {
            guard !fits(kind, spec.type) else { continue }
            problem =
              "captures its parameter '\(parameter)' as \(describe(kind)), where it "
              + "declares \(spec.type.rawValue)"
          } else {
            guard spec.required else { continue }
            problem = "gives its required parameter '\(parameter)' no value"
          }
          if !problems.contains(problem) { problems.append(problem) }
        }
      }
      for problem in problems {
        findings.append(
          LintFinding(
            kind: .params, routes: [entry.index], patterns: [entry.pattern.text],
            screen: name,
            message: "routes[\(entry.index)] \(JSON.quote(entry.pattern.text)) to screen "
              + "'\(name)' \(problem)"))
      }
    }
    return findings
  }

  private static func fits(_ kind: CaptureKind, _ type: CaptureType) -> Bool {
    switch (type, kind) {
    case (.string, _), (.path, _): return true
    case (.uuid, .string): return true
    case (.int, .int), (.float, .int), (.float, .float): return true
    case (.int, .valueSet(let values)), (.float, .valueSet(let values)):
      return values.allSatisfy { type.value(of: $0) != nil }
    default: return false
    }
  }

  private static func describe(_ kind: CaptureKind) -> String {
    switch kind {
    case .int: return "an int"
    case .float: return "a float"
    case .string: return "a string"
    case .path: return "a path"
    case .rest: return "a * wildcard"
    case .valueSet, .caseInsensitiveValueSet: return "a value set"
    }
  }
}
