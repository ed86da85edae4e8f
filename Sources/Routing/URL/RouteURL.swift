/// A URL as the router reads it: scheme, domain, decoded path segments and decoded query items.
/// It is the one reader of URLs: the router, the linear scan and `--explain` all read this.
///
/// It reads raw text byte by byte, so raw non-ASCII, spaces and `<`/`>` are taken as they stand,
/// and `%2F` stays inside its segment.
public struct RouteURL: Sendable, Equatable {
  /// The scheme in lowercase, or nil for a URL that is a path only.
  public var scheme: String?
  /// The host in lowercase when it is a domain (has a `.`, or is `localhost`); otherwise nil.
  public var domain: String?
  /// The decoded path segments, with a host that is not a domain as the first one.
  public var segments: [String]
  /// The decoded query items in order; a key may repeat.
  public var query: [QueryItem]

  /// One decoded `key=value` piece of a query.
  public struct QueryItem: Sendable, Equatable {
    /// The decoded key.
    public var key: String
    /// The decoded value; `""` for a key written without `=`.
    public var value: String

    /// Makes a query item.
    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  /// Makes a URL from its parts, as if already read.
  public init(
    scheme: String? = nil, domain: String? = nil, segments: [String], query: [QueryItem] = []
  ) {
    self.scheme = scheme
    self.domain = domain
    self.segments = segments
    self.query = query
  }

  /// Reads `text` as a URL.
  public init(_ text: String) throws(URLReadError) {
    try self.init(bytes: Array(text.utf8))
  }

  /// The longest URL read, in bytes (64 KiB).
  public static let maxBytes = 64 * 1024
  /// The most path segments a URL may have.
  public static let maxSegments = 512
  /// The most query items a URL may have.
  public static let maxQueryItems = 512

  /// Reads raw bytes as a URL; bytes that are not UTF-8 make it invalid (outside the fragment),
  /// and so does a URL over one of the limits (``maxBytes``, ``maxSegments``,
  /// ``maxQueryItems``).
  public init(bytes input: [UInt8]) throws(URLReadError) {
    self = try input.withUnsafeBufferPointer { bytes throws(URLReadError) in
      try RouteURL(bytes: bytes)
    }
  }

  /// Reads raw bytes in place as a URL, as ``init(bytes:)-([UInt8])`` does.
  public init(bytes input: UnsafeBufferPointer<UInt8>) throws(URLReadError) {
    guard input.count <= Self.maxBytes else {
      throw URLReadError("URL too long: \(input.count) bytes (at most \(Self.maxBytes))")
    }
    var end = input.count
    if let hash = input.firstIndex(of: 0x23) { end = hash }
    let bytes = UnsafeBufferPointer(rebasing: input[0..<end])
    func piece(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: bytes[range])
    }
    var index = 0

    // Scheme: a letter, then letters, digits, `+`, `-` or `.`, then `:`.
    var scheme: String?
    if index < end, bytes[index].isASCIILetter {
      var cursor = index + 1
      while cursor < end {
        let byte = bytes[cursor]
        if byte.isASCIILetter || byte.isASCIIDigit || byte == 0x2B || byte == 0x2D || byte == 0x2E {
          cursor += 1
        } else {
          break
        }
      }
      if cursor < end, bytes[cursor] == 0x3A {
        scheme = lowercased(String(decoding: piece(index..<cursor), as: UTF8.self))
        index = cursor + 1
      }
    }

    var pathEnd = index
    while pathEnd < end, bytes[pathEnd] != 0x3F { pathEnd += 1 }

    var segments: [String] = []
    segments.reserveCapacity(piece(index..<pathEnd).reduce(1) { $1 == 0x2F ? $0 + 1 : $0 })
    var domain: String?
    var segmentNumber = 0

    // Authority, only after a scheme.
    if scheme != nil, pathEnd - index >= 2, bytes[index] == 0x2F, bytes[index + 1] == 0x2F {
      let start = index + 2
      var authorityEnd = start
      while authorityEnd < pathEnd, bytes[authorityEnd] != 0x2F { authorityEnd += 1 }
      var hostStart = start
      if let at = bytes[start..<authorityEnd].lastIndex(of: 0x40) {
        hostStart = at + 1
        // User information is not used, but it must still be a valid URL part.
        do {
          _ = try percentDecode(piece(start..<at))
        } catch {
          throw URLReadError(failure: error, place: "user information")
        }
      }
      var hostEnd = authorityEnd
      if hostStart < authorityEnd, bytes[hostStart] == 0x5B {
        if let close = bytes[hostStart..<authorityEnd].firstIndex(of: 0x5D) { hostEnd = close + 1 }
      } else if let colon = bytes[hostStart..<authorityEnd].lastIndex(of: 0x3A) {
        hostEnd = colon
      }
      if hostEnd < authorityEnd {
        do {
          _ = try percentDecode(piece(hostEnd..<authorityEnd))
        } catch {
          throw URLReadError(failure: error, place: "port")
        }
      }
      let rawHost = piece(hostStart..<hostEnd)
      if !rawHost.isEmpty {
        // The `.` test uses the host as written; `localhost` is tested after decoding.
        let hasDot = rawHost.contains(0x2E)
        let host: String
        do {
          host = try percentDecode(rawHost)
        } catch {
          throw URLReadError(failure: error, place: hasDot ? "host" : "path segment 1")
        }
        let lower = lowercased(host)
        if hasDot || lower == "localhost" {
          domain = lower
        } else {
          segmentNumber = 1
          segments.append(host)
        }
      }
      index = authorityEnd
    }

    // Path: split on `/`, drop empty pieces, decode each piece.
    var segmentStart = index
    var cursor = index
    while cursor <= pathEnd {
      if cursor == pathEnd || bytes[cursor] == 0x2F {
        if cursor > segmentStart {
          segmentNumber += 1
          guard segmentNumber <= Self.maxSegments else {
            throw URLReadError("too many path segments (at most \(Self.maxSegments))")
          }
          do {
            segments.append(try percentDecode(piece(segmentStart..<cursor)))
          } catch {
            throw URLReadError(failure: error, place: "path segment \(segmentNumber)")
          }
        }
        segmentStart = cursor + 1
      }
      cursor += 1
    }
    if segments.contains(where: isDotSegment) {
      var resolved: [String] = []
      resolved.reserveCapacity(segments.count)
      for segment in segments {
        if segment.utf8.count == 1 && isDotSegment(segment) { continue }
        if isDotSegment(segment) {
          _ = resolved.popLast()
          continue
        }
        resolved.append(segment)
      }
      segments = resolved
    }

    // Query: split on `&`, then on the first `=`; `+` is a space; empty pieces are skipped.
    var query: [QueryItem] = []
    if pathEnd < end {
      query.reserveCapacity(piece(pathEnd..<end).reduce(1) { $1 == 0x26 ? $0 + 1 : $0 })
      var pieceStart = pathEnd + 1
      var itemNumber = 0
      var position = pieceStart
      while position <= end {
        if position == end || bytes[position] == 0x26 {
          if position > pieceStart {
            itemNumber += 1
            guard itemNumber <= Self.maxQueryItems else {
              throw URLReadError("too many query items (at most \(Self.maxQueryItems))")
            }
            let item = piece(pieceStart..<position)
            let equals = item.firstIndex(of: 0x3D)
            do {
              let key = try percentDecode(
                UnsafeBufferPointer(rebasing: item[..<(equals ?? item.count)]), plusAsSpace: true)
              var value = ""
              if let equals {
                value = try percentDecode(
                  UnsafeBufferPointer(rebasing: item[(equals + 1)...]), plusAsSpace: true)
              }
              query.append(QueryItem(key: key, value: value))
            } catch {
              throw URLReadError(failure: error, place: "query item \(itemNumber)")
            }
          }
          pieceStart = position + 1
        }
        position += 1
      }
    }
    self.init(scheme: scheme, domain: domain, segments: segments, query: query)
  }

  /// The URL written back as text that reads as this same URL: a host that is not a domain is
  /// written as the first path segment, and bytes that would split or end a part are escaped.
  public var text: String {
    var result = scheme.map { $0 + ":" } ?? ""
    if let domain { result += "//" + Self.escape(domain) }
    for segment in segments { result += "/" + Self.escape(segment) }
    if result.isEmpty { result = "/" }
    if !query.isEmpty {
      result +=
        "?"
        + query.map { Self.escape($0.key) + "=" + Self.escape($0.value) }
        .joined(separator: "&")
    }
    return result
  }

  /// `text` with `%`, separators, spaces, controls and DEL percent-escaped; other bytes,
  /// non-ASCII included, are kept as they are.
  private static func escape(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    let hex = Array("0123456789ABCDEF".utf8)
    for byte in text.utf8 {
      switch byte {
      case 0x00...0x20, 0x7F, 0x25, 0x2F, 0x3F, 0x23, 0x26, 0x3D, 0x2B, 0x40, 0x3A, 0x5B, 0x5D:
        bytes += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      default:
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The values of a query key, in order.
  public func queryValues(_ key: String) -> [String] {
    query.compactMap { $0.key.isExactly(key) ? $0.value : nil }
  }
}

/// `text` in lowercase; ASCII text already in lowercase, as schemes and hosts mostly are, is
/// returned as it is without the full Unicode mapping.
private func lowercased(_ text: String) -> String {
  text.utf8.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } ? text : text.lowercased()
}

/// Whether a decoded segment is `.` or `..`.
private func isDotSegment(_ segment: String) -> Bool {
  let utf8 = segment.utf8
  return (utf8.count == 1 || utf8.count == 2) && utf8.allSatisfy { $0 == 0x2E }
}

/// Why a URL could not be read, such as `invalid percent escape in path segment 2`.
public struct URLReadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The whole message.
  public var description: String

  /// Makes an error with a message.
  public init(_ description: String) { self.description = description }

  init(failure: DecodeFailure, place: String) {
    switch failure {
    case .invalidEscape: description = "invalid percent escape in \(place)"
    case .invalidUTF8: description = "invalid UTF-8 in \(place)"
    }
  }
}
