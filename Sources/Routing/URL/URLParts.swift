/// A URL read once: the decoded bytes of every part in one buffer, and where each part is.
///
/// This is the one reader of URLs. ``RouteURL`` is made from it, and the router matches on it
/// directly: ranges of bytes cost nothing to make or free, where a string for every segment
/// and query item, and arrays of them, measured as most of the cost of a lookup. The parts
/// live only during the call that reads them (``read(_:_:)``, ``with(_:_:)``): the body must
/// turn what it needs into values before it returns, and never return the parts themselves.
struct URLParts {
  /// A query item's key and value in ``text``.
  struct Item {
    var key: Range<Int>
    var value: Range<Int>
  }

  /// The memory the parts are ranges of. Only the ranges below are decoded text (valid UTF-8);
  /// the rest is separators, bytes left over from decoding, or never written.
  let text: UnsafeBufferPointer<UInt8>
  /// The scheme in lowercase, or nil for a URL that is a path only.
  let scheme: Range<Int>?
  /// The host in lowercase when it is a domain (has a `.`, or is `localhost`); otherwise nil.
  let domain: Range<Int>?
  /// The decoded path segments, with a host that is not a domain as the first one.
  let segments: UnsafeBufferPointer<Range<Int>>
  /// The decoded query items in order; a key may repeat.
  let query: UnsafeBufferPointer<Item>
  /// Whether the URL has a fragment that was read (it has a `#` and the fragment was asked
  /// for).
  var hasFragment = false
  /// The fragment read like a path: decoded `/`-separated segments (no dot segments resolved).
  var fragmentSegments = UnsafeBufferPointer<Range<Int>>(start: nil, count: 0)
  /// The fragment read like a query: decoded items.
  var fragmentItems = UnsafeBufferPointer<Item>(start: nil, count: 0)

  /// The text of a part as a string.
  func string(_ part: Range<Int>) -> String {
    String(decoding: bytes(part), as: UTF8.self)
  }

  /// The bytes of a part.
  func bytes(_ part: Range<Int>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(rebasing: text[part])
  }

  /// Whether a part is exactly the text `other`.
  func part(_ part: Range<Int>, is other: String) -> Bool {
    var other = other
    return other.withUTF8 { bytes(part).elementsEqual($0) }
  }

  /// Calls `body` with the parts of a URL already read.
  static func with<R>(_ url: RouteURL, _ body: (URLParts) -> R) -> R {
    var size = (url.scheme?.utf8.count ?? 0) + (url.domain?.utf8.count ?? 0)
    for segment in url.segments { size += segment.utf8.count }
    for item in url.query { size += item.key.utf8.count + item.value.utf8.count }
    let fragment = url.fragment ?? RouteURL.Fragment(segments: [], items: [])
    for segment in fragment.segments { size += segment.utf8.count }
    for item in fragment.items { size += item.key.utf8.count + item.value.utf8.count }
    let segmentCount = url.segments.count + fragment.segments.count
    let itemCount = url.query.count + fragment.items.count
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { text in
      withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: segmentCount) { segments in
        withUnsafeTemporaryAllocation(of: Item.self, capacity: itemCount) { query in
          var length = 0
          func append(_ part: String) -> Range<Int> {
            let start = length
            for byte in part.utf8 {
              text[length] = byte
              length += 1
            }
            return start..<length
          }
          let scheme = url.scheme.map(append)
          let domain = url.domain.map(append)
          for (index, segment) in url.segments.enumerated() {
            segments.initializeElement(at: index, to: append(segment))
          }
          for (index, item) in url.query.enumerated() {
            query.initializeElement(
              at: index, to: Item(key: append(item.key), value: append(item.value)))
          }
          for (index, segment) in fragment.segments.enumerated() {
            segments.initializeElement(at: url.segments.count + index, to: append(segment))
          }
          for (index, item) in fragment.items.enumerated() {
            query.initializeElement(
              at: url.query.count + index,
              to: Item(key: append(item.key), value: append(item.value)))
          }
          var parts = URLParts(
            text: UnsafeBufferPointer(text), scheme: scheme, domain: domain,
            segments: UnsafeBufferPointer(rebasing: segments[..<url.segments.count]),
            query: UnsafeBufferPointer(rebasing: query[..<url.query.count]))
          parts.hasFragment = url.fragment != nil
          parts.fragmentSegments = UnsafeBufferPointer(rebasing: segments[url.segments.count...])
          parts.fragmentItems = UnsafeBufferPointer(rebasing: query[url.query.count...])
          return body(parts)
        }
      }
    }
  }

  /// Reads raw bytes as a URL and calls `body` with its parts; bytes that are not UTF-8 make it
  /// invalid, and so does a URL over one of the limits of ``RouteURL``. The fragment is read
  /// when `fragment` is true, else dropped unread.
  ///
  /// The parts live in memory taken for the call (on the stack when small): a URL is read for
  /// every lookup, and three heap allocations and their release measured a third of one.
  static func read<R>(
    _ input: UnsafeBufferPointer<UInt8>, fragment: Bool, _ body: (URLParts) -> R
  ) throws(URLReadError) -> R {
    guard input.count <= RouteURL.maxBytes else {
      throw URLReadError("URL too long: \(input.count) bytes (at most \(RouteURL.maxBytes))")
    }
    // Up to the fragment: where the query starts, and how many segments and items there can be.
    var end = 0
    var pathEnd = -1
    var slashes = 0
    var ampersands = 0
    while end < input.count, input[end] != 0x23 {
      switch input[end] {
      case 0x2F: slashes += 1
      case 0x26: ampersands += 1
      case 0x3F where pathEnd < 0: pathEnd = end
      default: break
      }
      end += 1
    }
    let bytes = UnsafeBufferPointer(rebasing: input[0..<end])
    // The fragment, when read, is copied twice after the rest: once to read like a path, once
    // like a query.
    let readsFragment = fragment && end < input.count
    let fragmentLength = readsFragment ? input.count - end - 1 : 0
    var fragmentSlashes = 0
    var fragmentAmpersands = 0
    if readsFragment {
      for byte in input[(end + 1)...] {
        if byte == 0x2F { fragmentSlashes += 1 }
        if byte == 0x26 { fragmentAmpersands += 1 }
      }
    }
    // The parts are decoded in place in a copy of the URL (decoding never lengthens); a domain
    // lowercased beyond ASCII is written after it. Unicode lowercasing lengthens a character's
    // UTF-8 at most 3/2 times (U+0130 İ, two bytes, becomes three), so 3 * end is room enough.
    let capacity = 3 * end + 2 * fragmentLength
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) {
      text throws(URLReadError) in
      if end > 0 { text.baseAddress!.initialize(from: bytes.baseAddress!, count: end) }
      if fragmentLength > 0 {
        let source = input.baseAddress! + end + 1
        (text.baseAddress! + 3 * end).initialize(from: source, count: fragmentLength)
        (text.baseAddress! + 3 * end + fragmentLength).initialize(
          from: source, count: fragmentLength)
      }
      let segmentCapacity = slashes + 1 + (readsFragment ? fragmentSlashes + 1 : 0)
      return try withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: segmentCapacity) {
        segments throws(URLReadError) in
        let itemCapacity = ampersands + 1 + (readsFragment ? fragmentAmpersands + 1 : 0)
        return try withUnsafeTemporaryAllocation(of: Item.self, capacity: itemCapacity) {
          query throws(URLReadError) in
          var reader = Reader(text: text, end: end, segments: segments, query: query)
          try reader.read(pathEnd: pathEnd < 0 ? end : pathEnd)
          var parts = URLParts(
            text: UnsafeBufferPointer(text), scheme: reader.scheme, domain: reader.domain,
            segments: UnsafeBufferPointer(rebasing: segments[..<reader.segmentCount]),
            query: UnsafeBufferPointer(rebasing: query[..<reader.itemCount]))
          if readsFragment {
            let (segmentBase, itemBase) = (slashes + 1, ampersands + 1)
            let (segmentEnd, itemEnd) = try reader.readFragment(
              from: 3 * end, length: fragmentLength, segmentsAt: segmentBase, itemsAt: itemBase)
            parts.hasFragment = true
            parts.fragmentSegments = UnsafeBufferPointer(
              rebasing: segments[segmentBase..<segmentEnd])
            parts.fragmentItems = UnsafeBufferPointer(rebasing: query[itemBase..<itemEnd])
          }
          return body(parts)
        }
      }
    }
  }
}

/// Reads a URL copied into `text` (up to the fragment), decoding each part in place.
private struct Reader {
  let text: UnsafeMutableBufferPointer<UInt8>
  let end: Int
  let segments: UnsafeMutableBufferPointer<Range<Int>>
  let query: UnsafeMutableBufferPointer<URLParts.Item>
  var segmentCount = 0
  var itemCount = 0
  var scheme: Range<Int>?
  var domain: Range<Int>?

  init(
    text: UnsafeMutableBufferPointer<UInt8>, end: Int,
    segments: UnsafeMutableBufferPointer<Range<Int>>,
    query: UnsafeMutableBufferPointer<URLParts.Item>
  ) {
    self.text = text
    self.end = end
    self.segments = segments
    self.query = query
  }

  /// Reads the whole URL; the query, if any, starts after `pathEnd`.
  mutating func read(pathEnd: Int) throws(URLReadError) {
    var index = 0
    // Scheme: a letter, then letters, digits, `+`, `-` or `.`, then `:`.
    if index < end, text[index].isASCIILetter {
      var cursor = index + 1
      while cursor < end,
        text[cursor].isASCIILetter || text[cursor].isASCIIDigit || text[cursor] == 0x2B
          || text[cursor] == 0x2D || text[cursor] == 0x2E
      {
        cursor += 1
      }
      if cursor < pathEnd, text[cursor] == 0x3A {
        for offset in index..<cursor where text[offset].isASCIILetter { text[offset] |= 0x20 }
        scheme = index..<cursor
        index = cursor + 1
      }
    }
    var segmentNumber = 0

    // Authority, only after a scheme.
    if scheme != nil, pathEnd - index >= 2, text[index] == 0x2F, text[index + 1] == 0x2F {
      let start = index + 2
      var authorityEnd = start
      while authorityEnd < pathEnd, text[authorityEnd] != 0x2F { authorityEnd += 1 }
      var hostStart = start
      if let at = text[start..<authorityEnd].lastIndex(of: 0x40) {
        hostStart = at + 1
        // User information is not used, but it must still be a valid URL part.
        _ = try decode(start..<at, place: .userInformation)
      }
      var hostEnd = authorityEnd
      if hostStart < authorityEnd, text[hostStart] == 0x5B {
        if let close = text[hostStart..<authorityEnd].firstIndex(of: 0x5D) { hostEnd = close + 1 }
      } else if let colon = text[hostStart..<authorityEnd].lastIndex(of: 0x3A) {
        hostEnd = colon
      }
      if hostEnd < authorityEnd { _ = try decode(hostEnd..<authorityEnd, place: .port) }
      if hostStart < hostEnd {
        // The `.` test uses the host as written; `localhost` is tested after decoding.
        let hasDot = text[hostStart..<hostEnd].contains(0x2E)
        let host = try decode(hostStart..<hostEnd, place: hasDot ? .host : .segment(1))
        if hasDot {
          domain = lowercase(host)
        } else if host.count == 9,
          zip(text[host], "localhost".utf8).allSatisfy({ $0 | 0x20 == $1 })
        {
          domain = lowercase(host)
        } else {
          segmentNumber = 1
          append(host)
        }
      }
      index = authorityEnd
    }

    // Path: split on `/`, drop empty pieces, decode each piece.
    var segmentStart = index
    for cursor in index...pathEnd where cursor == pathEnd || text[cursor] == 0x2F {
      if cursor > segmentStart {
        segmentNumber += 1
        guard segmentNumber <= RouteURL.maxSegments else {
          throw URLReadError("too many path segments (at most \(RouteURL.maxSegments))")
        }
        append(try decode(segmentStart..<cursor, place: .segment(segmentNumber)))
      }
      segmentStart = cursor + 1
    }
    if segments[..<segmentCount].contains(where: isDots) {
      // Resolved in place: the kept segments move down over the dropped ones.
      var kept = 0
      for position in 0..<segmentCount {
        let segment = segments[position]
        if isDots(segment) {
          if segment.count == 2, kept > 0 { kept -= 1 }
        } else {
          segments[kept] = segment
          kept += 1
        }
      }
      segmentCount = kept
    }

    // Query: split on `&`, then on the first `=`; `+` is a space; empty pieces are skipped.
    guard pathEnd < end else { return }
    var itemStart = pathEnd + 1
    for position in itemStart...end where position == end || text[position] == 0x26 {
      if position > itemStart {
        guard itemCount < RouteURL.maxQueryItems else {
          throw URLReadError("too many query items (at most \(RouteURL.maxQueryItems))")
        }
        let equals = text[itemStart..<position].firstIndex(of: 0x3D) ?? position
        let place = Place.queryItem(itemCount + 1)
        let key = try decode(itemStart..<equals, place: place, plus: true)
        var value = position..<position
        if equals < position {
          value = try decode((equals + 1)..<position, place: place, plus: true)
        }
        query.initializeElement(at: itemCount, to: URLParts.Item(key: key, value: value))
        itemCount += 1
      }
      itemStart = position + 1
    }
  }

  /// Reads the fragment, copied twice from `start` (`length` bytes each): the first copy like
  /// a path into segments from `segmentsAt`, the second like a query into items from
  /// `itemsAt`. Returns where each list ends.
  mutating func readFragment(from start: Int, length: Int, segmentsAt: Int, itemsAt: Int)
    throws(URLReadError) -> (segments: Int, items: Int)
  {
    var segmentEnd = segmentsAt
    var pieceStart = start
    for cursor in start...(start + length) where cursor == start + length || text[cursor] == 0x2F {
      if cursor > pieceStart {
        guard segmentEnd - segmentsAt < RouteURL.maxSegments else {
          throw URLReadError("too many fragment segments (at most \(RouteURL.maxSegments))")
        }
        segments.initializeElement(
          at: segmentEnd, to: try decode(pieceStart..<cursor, place: .fragment))
        segmentEnd += 1
      }
      pieceStart = cursor + 1
    }
    var itemEnd = itemsAt
    let second = start + length
    pieceStart = second
    for cursor in second...(second + length) where cursor == second + length || text[cursor] == 0x26
    {
      if cursor > pieceStart {
        guard itemEnd - itemsAt < RouteURL.maxQueryItems else {
          throw URLReadError("too many fragment items (at most \(RouteURL.maxQueryItems))")
        }
        let equals = text[pieceStart..<cursor].firstIndex(of: 0x3D) ?? cursor
        let key = try decode(pieceStart..<equals, place: .fragment, plus: true)
        var value = cursor..<cursor
        if equals < cursor {
          value = try decode((equals + 1)..<cursor, place: .fragment, plus: true)
        }
        query.initializeElement(at: itemEnd, to: URLParts.Item(key: key, value: value))
        itemEnd += 1
      }
      pieceStart = cursor + 1
    }
    return (segmentEnd, itemEnd)
  }

  /// Where a part is, for an error message (named only when there is an error).
  private enum Place {
    case userInformation, port, host, fragment
    case segment(Int)
    case queryItem(Int)

    var name: String {
      switch self {
      case .userInformation: return "user information"
      case .port: return "port"
      case .host: return "host"
      case .fragment: return "fragment"
      case .segment(let number): return "path segment \(number)"
      case .queryItem(let number): return "query item \(number)"
      }
    }
  }

  /// Adds a path segment.
  private mutating func append(_ segment: Range<Int>) {
    segments.initializeElement(at: segmentCount, to: segment)
    segmentCount += 1
  }

  /// Percent-decodes a part in place (with `+` as a space when `plus`), checks that it is
  /// UTF-8, and returns where its decoded text is. Most parts need neither: they stay as they
  /// are.
  private func decode(_ part: Range<Int>, place: Place, plus: Bool = false)
    throws(URLReadError) -> Range<Int>
  {
    var plain = true
    for byte in text[part] where byte == 0x25 || byte >= 0x80 || (plus && byte == 0x2B) {
      plain = false
      break
    }
    if plain { return part }
    do {
      let decodedEnd = try percentDecode(
        UnsafeBufferPointer(rebasing: text[part]), plusAsSpace: plus, into: text,
        at: part.lowerBound)
      return part.lowerBound..<decodedEnd
    } catch {
      throw URLReadError(failure: error, place: place.name)
    }
  }

  /// A decoded host in lowercase (Unicode's mapping beyond ASCII, written after the URL).
  private func lowercase(_ host: Range<Int>) -> Range<Int> {
    if text[host].allSatisfy({ $0 < 0x80 }) {
      for index in host where (0x41...0x5A).contains(text[index]) { text[index] |= 0x20 }
      return host
    }
    let lower = String(decoding: text[host], as: UTF8.self).lowercased()
    var length = end
    for byte in lower.utf8 {
      text[length] = byte
      length += 1
    }
    return end..<length
  }

  /// Whether a decoded segment is `.` or `..`.
  private func isDots(_ segment: Range<Int>) -> Bool {
    (segment.count == 1 || segment.count == 2) && text[segment].allSatisfy { $0 == 0x2E }
  }
}
