import AppShellCLI

/// `appshell links check` against `appshell resolve --external` over the same URLs, each
/// streamed through one in-process run as standard input in 64 KiB chunks: nanoseconds per
/// URL for both, and their ratio. The URLs mix the shipped demo's cases: https links its AASA
/// admits and excludes, hosts it has no associated domain for, registered and unknown schemes.
enum LinksBench {
  struct Result {
    var urls: Int
    var linksNsPerURL: Double
    var resolveNsPerURL: Double
    var answered: Int
  }

  static func urls(count: Int) -> [UInt8] {
    let templates = [
      "https://appshell.example.com/orders/#", "https://appshell.example.com/track/#",
      "https://appshell.example.com/help/article-#", "https://www.example.com/orders/#",
      "http://appshell.example.com/orders/#", "myapp://orders/#", "myapp://user/u#",
      "navigator://user/name#", "XYWAPP://pkdetail/open?pkID=#", "shop2://item/#",
    ]
    var text = ""
    text.reserveCapacity(count * 40)
    for index in 0..<count {
      text += templates[index % templates.count].replacingOccurrences(of: "#", with: String(index))
      text += "\n"
    }
    return Array(text.utf8)
  }

  /// One run of `arguments` reading `input`; nanoseconds, and the answer lines written.
  static func time(_ arguments: [String], _ input: [UInt8]) -> (Double, Int) {
    var offset = 0
    var lines = 0
    let io = CommandIO(
      read: {
        guard offset < input.count else { return nil }
        let end = min(offset + 65536, input.count)
        defer { offset = end }
        return Array(input[offset..<end])
      },
      write: { bytes in
        for byte in bytes where byte == 0x0A { lines += 1 }
      },
      writeError: { _ in })
    let start = now()
    _ = AppShellCommand.run(arguments, io: io)
    return (Double(now() - start), lines)
  }

  static func run(count: Int) -> Result {
    let input = urls(count: count)
    // Warm up both, then keep the best of three.
    _ = time(["links", "check"], Array(input.prefix(4096)))
    _ = time(["resolve", "--external"], Array(input.prefix(4096)))
    var links = Double.infinity
    var resolve = Double.infinity
    var answered = 0
    for _ in 0..<3 {
      let (linksNs, lines) = time(["links", "check"], input)
      links = min(links, linksNs)
      answered = lines
      resolve = min(resolve, time(["resolve", "--external"], input).0)
    }
    return Result(
      urls: count, linksNsPerURL: links / Double(count), resolveNsPerURL: resolve / Double(count),
      answered: answered)
  }
}
