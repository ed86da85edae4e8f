/// A command's usage, written once: its forms are the USAGE lines of its own `--help` and of
/// `appshell --help`, and its summary is its line in the SUBCOMMANDS list of `appshell --help`.
/// The README's command table is checked against the same values by a test.
struct Usage: Sendable {
  /// The command as typed after `appshell` (`links`); empty for the app itself.
  var command: String
  /// Each way to call it, from `appshell` on. A long form goes on over further lines, each
  /// indented (from the `a` of `appshell`) to line up under the form's first option.
  var forms: [String]
  /// What it does, in a line or two (a line break is kept as written).
  var summary: String

  /// The column where a summary starts in the SUBCOMMANDS list.
  static let summaryColumn = 22

  /// `USAGE: appshell ...`, with further lines and forms under the first.
  var section: String {
    Self.section(forms)
  }

  /// The USAGE section of `forms`: the first line after `USAGE: `, every other line indented
  /// as far.
  static func section(_ forms: [String]) -> String {
    let lines = forms.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
    return lines.enumerated().map { ($0.offset == 0 ? "USAGE: " : "       ") + $0.element }
      .joined(separator: "\n")
  }

  /// The command's entry in a SUBCOMMANDS list: its name, then the summary from
  /// ``summaryColumn`` on.
  var listEntry: String {
    let name = "  " + command
    let lines = summary.split(separator: "\n", omittingEmptySubsequences: false)
    let indent = String(repeating: " ", count: Self.summaryColumn)
    let first =
      name.count < Self.summaryColumn
      ? name + String(repeating: " ", count: Self.summaryColumn - name.count) + lines[0]
      : name + "\n" + indent + lines[0]
    return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
  }

}
