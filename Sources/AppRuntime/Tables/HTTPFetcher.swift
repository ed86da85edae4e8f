import CTLS
import Foundation
import Platform

/// Downloads a file over HTTP or HTTPS (TLS by OpenSSL's libssl, the server's certificate
/// checked against the system's trusted roots and the host name), waiting for it: start-up
/// and reloads need the answer before they go on.
///
/// A small HTTP/1.1 GET of its own rather than FoundationNetworking, which would add about
/// 16 ms of library loading to every start of `appshell` (`appshell resolve` must answer from
/// a cold process in under 30 ms). It follows up to three redirects and reads
/// `Content-Length`, chunked and close-delimited bodies of at most ``maxBodyBytes``.
enum HTTPFetcher {
  /// How long a whole download may take.
  static let timeout: Duration = .seconds(10)
  /// The largest body accepted.
  static let maxBodyBytes = 16 * 1024 * 1024
  /// Redirects followed.
  static let maxRedirects = 3

  /// The body of a `200` response to a GET of `url`, all within `deadline` (default:
  /// ``timeout`` from now); otherwise a message saying what failed.
  static func fetch(_ url: URL, deadline: ContinuousClock.Instant? = nil) -> Result<
    [UInt8], FetchError
  > {
    // A peer that resets the connection must not kill the app (SIGPIPE from OpenSSL's writes).
    Signals.ignore(SIGPIPE)
    let deadline = deadline ?? ContinuousClock.now + timeout
    var current = url
    for _ in 0...maxRedirects {
      let response: Response
      do {
        response = try get(current, deadline: deadline)
      } catch {
        return .failure(FetchError("\(current.absoluteString): \(error.description)"))
      }
      switch response.status {
      case 200:
        return .success(response.body)
      case 301, 302, 303, 307, 308:
        guard let location = response.headers["location"],
          let next = URL(string: location, relativeTo: current)?.absoluteURL
        else {
          return .failure(
            FetchError(
              "\(current.absoluteString): HTTP status \(response.status) without a Location"))
        }
        if current.scheme?.lowercased() == "https" && next.scheme?.lowercased() != "https" {
          return .failure(
            FetchError(
              "\(current.absoluteString): refused a redirect from https to \(next.absoluteString)"))
        }
        current = next
      default:
        return .failure(FetchError("\(current.absoluteString): HTTP status \(response.status)"))
      }
    }
    return .failure(FetchError("\(url.absoluteString): more than \(maxRedirects) redirects"))
  }

  /// A response: status, headers (names in lowercase) and body.
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
  }

  /// One GET, no redirects.
  static func get(_ url: URL, deadline: ContinuousClock.Instant) throws(FetchError) -> Response {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      throw FetchError("only http and https URLs can be fetched")
    }
    guard let host = url.host, !host.isEmpty else { throw FetchError("the URL has no host") }
    let port = url.port ?? (scheme == "https" ? 443 : 80)
    var target = url.path.isEmpty ? "/" : url.path
    if let encodedPath = URLComponents(url: url, resolvingAgainstBaseURL: false)?
      .percentEncodedPath, !encodedPath.isEmpty
    {
      target = encodedPath
    }
    if let query = url.query { target += "?" + query }
    let connection = try Connection(
      host: host, port: port, tls: scheme == "https", deadline: deadline)
    defer { connection.close() }
    let bracketed = host.contains(":") ? "[\(host)]" : host
    let hostHeader = url.port.map { "\(bracketed):\($0)" } ?? bracketed
    let request =
      "GET \(target) HTTP/1.1\r\nHost: \(hostHeader)\r\nUser-Agent: appshell\r\n"
      + "Accept: */*\r\nConnection: close\r\n\r\n"
    try connection.send(Array(request.utf8))
    var reader = ResponseReader(connection: connection)
    return try reader.read()
  }
}

/// A download that failed: the URL and why.
struct FetchError: Error, CustomStringConvertible {
  /// `URL: problem`.
  var description: String

  init(_ description: String) { self.description = description }
}

/// A TCP connection, with TLS on top for https; every wait is bounded by the deadline.
private final class Connection {
  private var descriptor: Int32 = -1
  private var context: OpaquePointer?
  private var ssl: OpaquePointer?
  private let deadline: ContinuousClock.Instant

  deinit { close() }

  init(host: String, port: Int, tls: Bool, deadline: ContinuousClock.Instant) throws(FetchError) {
    self.deadline = deadline
    var hints = addrinfo()
    hints.ai_socktype = Sockets.streamType
    hints.ai_family = AF_UNSPEC
    var results: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(host, String(port), &hints, &results)
    guard resolved == 0, let first = results else {
      throw FetchError("cannot resolve \(host): \(String(cString: gai_strerror(resolved)))")
    }
    defer { freeaddrinfo(results) }
    var lastError = "no address"
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let address = candidate {
      candidate = address.pointee.ai_next
      let socket = Sockets.stream(
        family: address.pointee.ai_family, protocol: address.pointee.ai_protocol)
      guard socket >= 0 else { continue }
      if connectBounded(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) {
        descriptor = socket
        break
      }
      lastError = String(cString: strerror(errno))
      Descriptors.close(socket)
    }
    guard descriptor >= 0 else {
      throw FetchError("cannot connect to \(host):\(port): \(lastError)")
    }
    // Blocking reads and writes (inside OpenSSL too) give up at the deadline.
    let left = ContinuousClock.now.duration(to: deadline)
    Sockets.setTimeouts(descriptor, sending: left, receiving: left)
    if tls { try startTLS(host: host) }
  }

  /// Connects without blocking past the deadline.
  private func connectBounded(
    _ socket: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: socklen_t
  ) -> Bool {
    // Non-blocking from here on: every wait is a poll bounded by the deadline.
    Descriptors.setNonBlocking(socket)
    if connect(socket, address, length) == 0 { return true }
    guard errno == EINPROGRESS, waitFor(socket, Int16(POLLOUT)) else { return false }
    var error: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &size)
    errno = error
    return error == 0
  }

  /// Waits until the socket is ready for `events` or the deadline passes.
  private func waitFor(_ socket: Int32, _ events: Int16) -> Bool {
    while true {
      let left = ContinuousClock.now.duration(to: deadline)
      let milliseconds = Int32(
        clamping: max(
          0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
      guard milliseconds > 0 else {
        errno = ETIMEDOUT
        return false
      }
      var poller = pollfd(fd: socket, events: events, revents: 0)
      let ready = poll(&poller, 1, milliseconds)
      if ready > 0 { return true }
      if ready == 0 {
        errno = ETIMEDOUT
        return false
      }
      if errno != EINTR { return false }
    }
  }

  private func startTLS(host: String) throws(FetchError) {
    guard let context = SSL_CTX_new(TLS_client_method()) else {
      throw FetchError("TLS is not available: \(Self.tlsError())")
    }
    self.context = context
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
    guard SSL_CTX_set_default_verify_paths(context) == 1 else {
      throw FetchError("cannot load the trusted certificates: \(Self.tlsError())")
    }
    guard let ssl = SSL_new(context) else { throw FetchError("TLS: \(Self.tlsError())") }
    self.ssl = ssl
    _ = appshell_tls_set_server_name(ssl, host)
    guard SSL_set1_host(ssl, host) == 1, SSL_set_fd(ssl, descriptor) == 1 else {
      throw FetchError("TLS: \(Self.tlsError())")
    }
    while true {
      ERR_clear_error()
      let result = SSL_connect(ssl)
      if result == 1 { return }
      let reason = SSL_get_error(ssl, result)
      if reason == SSL_ERROR_WANT_READ, waitFor(descriptor, Int16(POLLIN)) { continue }
      if reason == SSL_ERROR_WANT_WRITE, waitFor(descriptor, Int16(POLLOUT)) { continue }
      let verify = SSL_get_verify_result(ssl)
      if verify != Int(X509_V_OK) {
        throw FetchError(
          "the server's certificate is not trusted: \(String(cString: X509_verify_cert_error_string(verify)))"
        )
      }
      throw FetchError("TLS handshake failed: \(Self.tlsError())")
    }
  }

  /// The newest OpenSSL error, then clears the queue.
  private static func tlsError() -> String {
    let code = ERR_get_error()
    ERR_clear_error()
    guard code != 0 else { return "unknown error" }
    var buffer = [CChar](repeating: 0, count: 256)
    ERR_error_string_n(code, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  func send(_ bytes: [UInt8]) throws(FetchError) {
    var offset = 0
    while offset < bytes.count {
      ERR_clear_error()
      let written: Int = bytes[offset...].withUnsafeBytes { raw in
        if let ssl { return Int(SSL_write(ssl, raw.baseAddress, Int32(raw.count))) }
        return Sockets.send(descriptor, raw)
      }
      if written > 0 {
        offset += written
        continue
      }
      if let ssl {
        let reason = SSL_get_error(ssl, Int32(written))
        if reason == SSL_ERROR_WANT_WRITE, waitFor(descriptor, Int16(POLLOUT)) { continue }
        if reason == SSL_ERROR_WANT_READ, waitFor(descriptor, Int16(POLLIN)) { continue }
        throw FetchError("sending the request failed: \(Self.tlsError())")
      }
      if errno == EINTR { continue }
      if errno == EAGAIN, waitFor(descriptor, Int16(POLLOUT)) { continue }
      throw FetchError("sending the request failed: \(String(cString: strerror(errno)))")
    }
  }

  /// Up to `buffer.count` bytes; 0 at the end of the stream.
  func receive(into buffer: inout [UInt8]) throws(FetchError) -> Int {
    while true {
      if let ssl, SSL_pending(ssl) == 0, !waitFor(descriptor, Int16(POLLIN)) {
        throw FetchError("timed out after \(HTTPFetcher.timeout) reading the response")
      }
      if ssl == nil, !waitFor(descriptor, Int16(POLLIN)) {
        throw FetchError("timed out after \(HTTPFetcher.timeout) reading the response")
      }
      ERR_clear_error()
      let count: Int = buffer.withUnsafeMutableBytes { raw in
        if let ssl { return Int(SSL_read(ssl, raw.baseAddress, Int32(raw.count))) }
        return Descriptors.read(descriptor, into: raw)
      }
      if count > 0 { return count }
      if let ssl {
        let reason = SSL_get_error(ssl, Int32(count))
        if reason == SSL_ERROR_ZERO_RETURN { return 0 }
        if reason == SSL_ERROR_WANT_READ || reason == SSL_ERROR_WANT_WRITE { continue }
        // A server that closes without close_notify ends the stream too.
        if reason == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 { return 0 }
        throw FetchError("reading the response failed: \(Self.tlsError())")
      }
      if count == 0 { return 0 }
      if errno == EINTR || errno == EAGAIN { continue }
      throw FetchError("reading the response failed: \(String(cString: strerror(errno)))")
    }
  }

  func close() {
    if let ssl {
      SSL_free(ssl)
      self.ssl = nil
    }
    if let context {
      SSL_CTX_free(context)
      self.context = nil
    }
    if descriptor >= 0 {
      Descriptors.close(descriptor)
      descriptor = -1
    }
  }
}

/// Reads one HTTP/1.1 response from a connection.
private struct ResponseReader {
  let connection: Connection
  private var buffer: [UInt8] = []
  private var position = 0
  private var ended = false

  init(connection: Connection) { self.connection = connection }

  mutating func read() throws(FetchError) -> HTTPFetcher.Response {
    let statusLine = try line()
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
      throw FetchError("not an HTTP response: \(statusLine.prefix(80).debugDescription)")
    }
    var headers: [String: String] = [:]
    while true {
      let header = try line()
      if header.isEmpty { break }
      guard let colon = header.firstIndex(of: ":") else { continue }
      let name = header[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      headers[name] = value
      guard headers.count <= 200 else { throw FetchError("too many response headers") }
    }
    var body: [UInt8] = []
    if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
      while true {
        let sizeLine = try line()
        let hex = sizeLine.split(separator: ";").first.map(String.init) ?? ""
        let digits = hex.trimmingCharacters(in: .whitespaces)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }),
          let size = Int(digits, radix: 16)
        else { throw FetchError("bad chunk size \(sizeLine.prefix(20).debugDescription)") }
        if size == 0 { break }
        try checkSize(body.count + size)
        body += try bytes(size)
        _ = try line()
        try checkSize(body.count)
      }
    } else if let text = headers["content-length"] {
      guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let length = Int(text)
      else {
        throw FetchError("bad Content-Length \(text.prefix(20).debugDescription)")
      }
      try checkSize(length)
      body = try bytes(length)
    } else {
      while let chunk = try more() {
        body += chunk
        try checkSize(body.count)
      }
    }
    return HTTPFetcher.Response(status: status, headers: headers, body: body)
  }

  private func checkSize(_ count: Int) throws(FetchError) {
    guard count <= HTTPFetcher.maxBodyBytes else {
      throw FetchError("the response is larger than \(HTTPFetcher.maxBodyBytes) bytes")
    }
  }

  /// Reads more from the connection into the buffer; false at the end.
  private mutating func fill() throws(FetchError) -> Bool {
    guard !ended else { return false }
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    let count = try connection.receive(into: &chunk)
    if count == 0 {
      ended = true
      return false
    }
    if position > 0 {
      buffer.removeFirst(position)
      position = 0
    }
    buffer += chunk[0..<count]
    return true
  }

  /// One CRLF- (or LF-) terminated line, without its end.
  private mutating func line() throws(FetchError) -> String {
    while true {
      if let newline = buffer[position...].firstIndex(of: 0x0A) {
        var end = newline
        if end > position && buffer[end - 1] == 0x0D { end -= 1 }
        let text = String(decoding: buffer[position..<end], as: UTF8.self)
        position = newline + 1
        return text
      }
      guard buffer.count - position < 64 * 1024 else {
        throw FetchError("a header line is too long")
      }
      guard try fill() else { throw FetchError("the response ended early") }
    }
  }

  /// Exactly `count` bytes.
  private mutating func bytes(_ count: Int) throws(FetchError) -> [UInt8] {
    while buffer.count - position < count {
      guard try fill() else { throw FetchError("the response ended early") }
    }
    let result = Array(buffer[position..<position + count])
    position += count
    return result
  }

  /// Whatever is left or arrives next; nil at the end.
  private mutating func more() throws(FetchError) -> [UInt8]? {
    if position < buffer.count {
      let rest = Array(buffer[position...])
      position = buffer.count
      return rest
    }
    guard try fill() else { return nil }
    return try more()
  }
}
