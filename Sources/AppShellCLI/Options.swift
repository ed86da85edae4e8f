import Routing

/// `--routes FILE` and `--screens DIR`, taken alike by the app and `replay`.
struct AppFileOptions {
  var routes: String?
  var screens: String?

  /// Reads the value of `--routes` or `--screens`; false when it is missing.
  mutating func take(_ option: String, from options: inout Options) -> Bool {
    guard let value = options.value(for: option) else { return false }
    if option == "--routes" { routes = value } else { screens = value }
    return true
  }
}

/// Reads options in the usual style: `--name VALUE` or `--name=VALUE`, `--` ends options.
///
/// Arguments are read as the bytes the process got: names and values as UTF-8 text, while an
/// operand keeps its bytes (``bytes``), so a URL that is not UTF-8 reaches the router as it is.
struct Options {
  private let arguments: [[UInt8]]
  private var index = 0
  private let command: String?
  private var pendingValue: String?
  /// True after `--`.
  private(set) var ended = false
  private(set) var problem = ""
  /// The argument just read, as given (all of `--name=value`).
  private(set) var bytes: [UInt8] = []

  init(_ arguments: [[UInt8]], command: String?) {
    self.arguments = arguments
    self.command = command
  }

  /// The argument just read as text, as given (all of `--name=value`).
  var written: String { String(decoding: bytes, as: UTF8.self) }

  /// The next argument; `--name=value` comes back as `--name` with its value kept.
  mutating func next() -> String? {
    while index < arguments.count {
      bytes = arguments[index]
      index += 1
      let argument = String(decoding: bytes, as: UTF8.self)
      if !ended && argument == "--" {
        ended = true
        continue
      }
      if !ended, argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        pendingValue = String(argument[argument.index(after: equals)...])
        return String(argument[..<equals])
      }
      pendingValue = nil
      return argument
    }
    return nil
  }

  /// Whether the option just read was written `--name=value`.
  var hasValue: Bool { pendingValue != nil }

  /// The value of the option just read.
  mutating func value(for option: String) -> String? {
    if let value = pendingValue {
      pendingValue = nil
      return value
    }
    guard index < arguments.count else {
      problem = "\(option) needs a value"
      return nil
    }
    index += 1
    return String(decoding: arguments[index - 1], as: UTF8.self)
  }

  /// Reports a usage error and returns exit status 2.
  func fail(_ io: CommandIO, _ message: String? = nil) -> Int32 {
    let name = command.map { "appshell \($0)" } ?? "appshell"
    io.writeError("\(name): \(message ?? problem)\nSee '\(name) --help'.\n")
    return 2
  }
}

extension Options {
  /// `unknown option '--screenz'; did you mean "--screens"?`: the close name among the options
  /// a command's help lists.
  static func unknown(_ argument: String, help: String) -> String {
    let known = help.split(whereSeparator: { !($0.isLetter || $0 == "-") }).filter {
      $0.hasPrefix("-") && $0.count > 1 && !$0.hasPrefix("---")
    }.map(String.init)
    let name = String(argument.prefix { $0 != "=" })
    return "unknown option '\(argument)'\(CloseName.hint(for: name, in: known))"
  }
}
