/// A URL as the router reads it: scheme, domain, decoded path segments and decoded query items.
/// The linear scan and `--explain` work on this value; it is made by the one URL reader, which
/// the router uses directly.
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
  /// The fragment, when it was read and the URL has one.
  public var fragment: Fragment?

  /// A URL's fragment, read two ways: like a path and like a query.
  public struct Fragment: Sendable, Equatable {
    /// The decoded `/`-separated segments, empty ones dropped (dot segments stay).
    public var segments: [String]
    /// The decoded `&`-separated items, with `+` as a space.
    public var items: [QueryItem]

    /// Makes a fragment from its two readings.
    public init(segments: [String], items: [QueryItem]) {
      self.segments = segments
      self.items = items
    }
  }

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
    scheme: String? = nil, domain: String? = nil, segments: [String], query: [QueryItem] = [],
    fragment: Fragment? = nil
  ) {
    self.scheme = scheme
    self.domain = domain
    self.segments = segments
    self.query = query
    self.fragment = fragment
  }

  /// Reads `text` as a URL; the fragment is read only when `fragment` is true (a router that
  /// has fragment patterns says so in ``Router/readsFragment``), and dropped unread otherwise.
  public init(_ text: String, fragment: Bool = false) throws(URLReadError) {
    try self.init(bytes: Array(text.utf8), fragment: fragment)
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
  public init(bytes input: [UInt8], fragment: Bool = false) throws(URLReadError) {
    self = try input.withUnsafeBufferPointer { bytes throws(URLReadError) in
      try RouteURL(bytes: bytes, fragment: fragment)
    }
  }

  /// Reads raw bytes as a URL, as ``init(bytes:fragment:)-([UInt8],_)`` does.
  public init(bytes input: UnsafeBufferPointer<UInt8>, fragment: Bool = false)
    throws(URLReadError)
  {
    self = try URLParts.read(input, fragment: fragment) { RouteURL($0) }
  }

  /// The URL whose parts were read.
  init(_ parts: URLParts) {
    self.init(
      scheme: parts.scheme.map(parts.string), domain: parts.domain.map(parts.string),
      segments: parts.segments.map(parts.string),
      query: parts.query.map {
        QueryItem(key: parts.string($0.key), value: parts.string($0.value))
      },
      fragment: parts.hasFragment
        ? Fragment(
          segments: parts.fragmentSegments.map(parts.string),
          items: parts.fragmentItems.map {
            QueryItem(key: parts.string($0.key), value: parts.string($0.value))
          }) : nil)
  }

  /// The URL written back as text that reads as this same URL: a host that is not a domain is
  /// written as the first path segment, and bytes that would split or end a part are escaped.
  /// A fragment is written as its reading like a path.
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
    if let fragment {
      result += "#" + fragment.segments.map(Self.escape).joined(separator: "/")
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
