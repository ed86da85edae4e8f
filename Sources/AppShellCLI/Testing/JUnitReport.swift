import Surface

/// `appshell test --junit FILE`: the results as JUnit XML. The root `testsuites` counts every
/// test (`tests`), the failed ones (`failures`) and the unusable files (`errors`), so `tests -
/// failures - errors` passed and `failures + errors` failed, as the summary line says; each
/// file is a `testsuite`, each test a `testcase` with a `failure` (or, for an unusable file, an
/// `error`) holding the reason and details.
enum JUnitReport {
  static func xml(_ files: [TestCommand.FileResult], properties: [(String, String)] = [])
    -> String
  {
    let tests = files.reduce(0) { $0 + $1.tests.count }
    let errors = files.filter(\.unusable).count
    let failures = files.reduce(0) { $0 + $1.tests.filter { $0.reason != nil }.count } - errors
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out +=
      "<testsuites name=\"appshell test\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
    for file in files {
      let failed = file.tests.filter { $0.reason != nil }.count
      out += "  <testsuite name=\"\(escaped(file.path))\" tests=\"\(file.tests.count)\" "
      out += "failures=\"\(file.unusable ? 0 : failed)\" errors=\"\(file.unusable ? 1 : 0)\">\n"
      if !properties.isEmpty {
        out += "    <properties>\n"
        for (name, value) in properties {
          out += "      <property name=\"\(escaped(name))\" value=\"\(escaped(value))\"/>\n"
        }
        out += "    </properties>\n"
      }
      for test in file.tests {
        out += "    <testcase classname=\"\(escaped(file.path))\" name=\"\(escaped(test.name))\""
        guard let reason = test.reason else {
          out += "/>\n"
          continue
        }
        let element = file.unusable ? "error" : "failure"
        out += ">\n      <\(element) message=\"\(escaped(reason))\">"
        out += escaped(test.details.joined(separator: "\n"))
        out += "</\(element)>\n    </testcase>\n"
      }
      out += "  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }

  /// The coverage figures as JUnit properties: `coverage.routes` (`14/17`),
  /// `coverage.routes.percent`, and the same for destinations and components.
  static func properties(_ coverage: Coverage) -> [(String, String)] {
    var result: [(String, String)] = []
    for (name, measure) in [
      ("routes", coverage.routes), ("destinations", coverage.destinations),
      ("components", coverage.components),
    ] {
      result.append(("coverage.\(name)", "\(measure.coveredCount)/\(measure.all.count)"))
      result.append(("coverage.\(name).percent", String(measure.percent)))
    }
    return result
  }

  /// Text safe in XML content and attributes: markup characters as entities, and characters
  /// XML 1.0 does not allow (most controls) as U+FFFD.
  static func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "\n": out += "&#10;"
      case "\t": out += "&#9;"
      default:
        let value = scalar.value
        let allowed = value >= 0x20 && value != 0xFFFE && value != 0xFFFF
        out.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
      }
    }
    return out
  }
}
