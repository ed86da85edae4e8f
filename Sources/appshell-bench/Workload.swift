import Routing

/// SplitMix64: a small fixed-seed generator, so every run measures the same tables and URLs.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// URLs stored back to back in one buffer, so a pass over them allocates nothing.
struct URLCorpus {
  var bytes: [UInt8] = []
  var ends: [Int] = []

  var count: Int { ends.count }

  mutating func append(_ url: String) {
    bytes += url.utf8
    ends.append(bytes.count)
  }

  /// Calls `body` with each URL's bytes in order.
  @inline(__always)
  func eachURL(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    bytes.withUnsafeBufferPointer { all in
      var start = 0
      for end in ends {
        body(UnsafeBufferPointer(rebasing: all[start..<end]))
        start = end
      }
    }
  }

  /// The URL at `index` as bytes.
  func url(_ index: Int) -> [UInt8] {
    Array(bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]])
  }
}

/// A route table like a big app's and URLs that exercise it.
///
/// Routes come in sections of four that overlap so ranking matters (a literal beside a
/// parameter, an int beside a string, a literal beside a wildcard, optional groups): about 40%
/// literal paths, 40% string parameters (a few wildcards), 20% typed (int, float, uuid, a query
/// constraint); five schemes, one of them `https` with a domain; some global patterns (no
/// scheme) with a priority.
///
/// Every table, the 10-route one too, has that mix: routes are laid out in blocks of twenty
/// (five sections of four), and a table's routes take a block's kinds in ``kindOrder``, whose
/// first ten already hold each feature but float and uuid parameters. A table of 10 routes
/// made of the first two sections would be 60% literals with one typed route, no wildcard, no
/// query constraint, no domain and no global pattern: a baseline of easier URLs than every
/// bigger table's.
struct Workload {
  var patterns: [(text: String, priority: Int)] = []
  var urls = URLCorpus()

  static let schemes = ["myapp", "shop", "news", "travel", "https"]

  /// The order in which a block's twenty kinds (``route(kind:base:name:)``) are taken. The
  /// first ten are 4 literals, 4 string parameters and 2 typed routes, across all five schemes
  /// and the global trie: overlapping pairs (a literal beside a parameter, and beside a
  /// wildcard), an optional group, a wildcard, a query constraint, a domain, a priority.
  static let kindOrder = [2, 3, 5, 7, 9, 10, 11, 15, 16, 19, 0, 1, 4, 6, 8, 12, 13, 14, 17, 18]

  /// `regexEvery`: when not 0, every route whose index is 7 modulo it is instead a route with
  /// a regular expression (``regexRoute(index:base:)``): 10 gives a table with 10% of them.
  init(routes count: Int, urls urlCount: Int, seed: UInt64, regexEvery: Int = 0) {
    var rng = SplitMix64(state: seed)
    var samplers: [(inout SplitMix64) -> String] = []
    var sectionSet = Set<Int>()
    for index in 0..<count {
      let kind = Self.kindOrder[index % 20]
      let section = index / 20 * 5 + kind / 4
      sectionSet.insert(section)
      let name = "s\(section)"
      let scheme = Self.schemes[section % Self.schemes.count]
      let base =
        scheme == "https" ? "https://m.example.com/\(name)" : "\(scheme)://\(name)"
      let (pattern, priority, sample) =
        regexEvery > 0 && index % regexEvery == 7 % regexEvery
        ? Self.regexRoute(index: index, base: base)
        : Self.route(kind: kind, base: base, name: name)
      patterns.append((pattern, priority))
      samplers.append(sample)
    }
    let sections = sectionSet.sorted()
    for _ in 0..<urlCount {
      let roll = rng.below(100)
      var url: String
      if roll < 5 {
        url = "myapp://nowhere\(rng.below(1000))/x/y"
      } else if roll < 10 {
        // A section the table has, under a path none of its routes takes.
        let section = sections.isEmpty ? 0 : sections[rng.below(sections.count)]
        url =
          "\(Self.schemes[section % 5] == "https" ? "https://m.example.com" : Self.schemes[section % 5] + ":/")/s\(section)/zzz/\(rng.below(100))"
      } else {
        url = samplers[rng.below(count)](&rng)
      }
      if roll >= 80 && !url.contains("?") {
        url += "?utm_source=push&utm_campaign=c\(rng.below(50))"
      }
      urls.append(url)
    }
  }

  /// A route of one of twenty kinds, and a sampler of URLs it matches.
  static func route(kind: Int, base: String, name: String) -> (
    String, Int, (inout SplitMix64) -> String
  ) {
    switch kind {
    // Section kind A: literals beside a string parameter.
    case 0: return ("\(base)/home", 0, { _ in "\(base)/home" })
    case 1: return ("\(base)/list/all", 0, { _ in "\(base)/list/all" })
    case 2: return ("\(base)/item/new", 0, { _ in "\(base)/item/new" })
    case 3:
      return (
        "\(base)/item/:name", 0,
        { rng in
          rng.below(4) == 0
            ? "\(base)/item/a%20b\(rng.below(99))" : "\(base)/item/n\(rng.below(1000))"
        }
      )
    // B: an int beside a string.
    case 4: return ("\(base)/help", 0, { _ in "\(base)/help" })
    case 5: return ("\(base)/list/recent", 0, { _ in "\(base)/list/recent" })
    case 6: return ("\(base)/user/:id", 0, { rng in "\(base)/user/u\(rng.below(100_000))" })
    case 7: return ("\(base)/user/<int:id>", 0, { rng in "\(base)/user/\(rng.below(100_000))" })
    // C: optional groups, a wildcard and a literal under it.
    case 8: return ("\(base)/top", 0, { _ in "\(base)/top" })
    case 9:
      return (
        "\(base)/news/:slug(/:page)", 0,
        { rng in
          rng.below(2) == 0
            ? "\(base)/news/story\(rng.below(500))"
            : "\(base)/news/story\(rng.below(500))/\(rng.below(9))"
        }
      )
    case 10:
      return ("\(base)/files/*", 0, { rng in "\(base)/files/docs/\(rng.below(50))/read%2Fme" })
    case 11: return ("\(base)/files/readme", 0, { _ in "\(base)/files/readme" })
    // D: string, float and a query constraint.
    case 12: return ("\(base)/cart/:step", 0, { rng in "\(base)/cart/step\(rng.below(5))" })
    case 13:
      return ("\(base)/p/:name/reviews", 0, { rng in "\(base)/p/prod\(rng.below(999))/reviews" })
    case 14: return ("\(base)/p/<float:price>", 0, { rng in "\(base)/p/\(rng.below(999)).99" })
    case 15:
      return (
        "\(base)/order?id=<int:id>", 0,
        { rng in "\(base)/order?id=\(rng.below(1_000_000))&ref=home" }
      )
    // E: a literal, a uuid, two strings and a global pattern with a priority.
    case 16: return ("\(base)/settings", 0, { _ in "\(base)/settings" })
    case 17:
      return (
        "\(base)/token/<uuid:t>", 0,
        { rng in
          let hex = String(rng.next() & 0xFFFF_FFFF, radix: 16)
          let padded = String(repeating: "0", count: 8 - hex.count) + hex
          return "\(base)/token/\(padded)-1234-5678-9abc-DEF012345678"
        }
      )
    case 18:
      return ("\(base)/a/:x/:y", 0, { rng in "\(base)/a/x\(rng.below(99))/y\(rng.below(99))" })
    default:
      return ("/\(name)/g/:x", 1, { rng in "myapp://\(name)/g/v\(rng.below(999))" })
    }
  }

  /// A route whose parameter must match a regular expression, beside a string parameter
  /// under the same literal, and a sampler of URLs for both (one in four misses the
  /// expression).
  static func regexRoute(index: Int, base: String) -> (String, Int, (inout SplitMix64) -> String) {
    let literal = "code\(index % 20)"
    return (
      "\(base)/\(literal)/:code([a-z]{2}\\d{1,4})", 0,
      { rng in
        rng.below(4) == 0
          ? "\(base)/\(literal)/x\(rng.below(99))" : "\(base)/\(literal)/ab\(rng.below(9999))"
      }
    )
  }

  /// The table as a route-table JSON file.
  var json: String {
    var text = "{\"version\":1,\"routes\":[\n"
    for (index, route) in patterns.enumerated() {
      if index > 0 { text += ",\n" }
      text += "{\"pattern\":\(quote(route.text)),\"screen\":\"s\(index % 7)\""
      if route.priority != 0 { text += ",\"priority\":\(route.priority)" }
      text += "}"
    }
    return text + "\n]}\n"
  }

  private func quote(_ text: String) -> String {
    "\""
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "\"", with: "\\\"") + "\""
  }
}
