import Platform
import Remote

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The client side of the socket protocol: one request, one reply.
package enum SocketClient {
  /// How long to wait for the app's reply (a reload may fetch a table over the network).
  static let replyTimeoutMilliseconds: Int32 = 30_000

  /// Sends `request` to the app listening at `socket` and returns its reply. Throws with a
  /// clear message when no app is running there or the reply is not one.
  package static func send(_ request: WireRequest, to socket: SocketPath) throws(SocketError)
    -> WireReply
  {
    let address = try socket.address()
    // Only talk to a socket in a private directory of this user: otherwise someone else could
    // have put a listener there to read the URLs.
    var info = stat()
    if lstat(socket.directory, &info) == 0 {
      try socket.checkDirectory()
    }
    let descriptor = Sockets.stream(family: AF_UNIX)
    guard descriptor >= 0 else { throw SocketError("socket: \(SocketError.reason())") }
    defer { close(descriptor) }
    let connected = address.withGenericPointer { connect(descriptor, $0, $1) }
    guard connected == 0 else {
      switch errno {
      case ENOENT, ECONNREFUSED:
        throw SocketError(
          "no appshell is running (nothing listens on \(socket.path)); start one with `appshell`")
      default:
        throw SocketError("cannot connect to \(socket.path): \(SocketError.reason())")
      }
    }
    let message = request.encoded
    guard message.count <= WireProtocol.maxMessageBytes else {
      throw SocketError(
        "the message is \(message.count) bytes; at most \(WireProtocol.maxMessageBytes) are allowed"
      )
    }
    guard writeAll(descriptor, message) else {
      throw SocketError("cannot send to \(socket.path): \(SocketError.reason())")
    }
    shutdown(descriptor, Int32(SHUT_WR))
    let line = try readLine(descriptor, from: socket)
    do {
      return try WireReply.decode(line)
    } catch {
      throw SocketError("the app's reply is not valid: \(error)")
    }
  }

  private static func readLine(_ descriptor: Int32, from socket: SocketPath) throws(SocketError)
    -> [UInt8]
  {
    var reply: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, replyTimeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else {
        throw SocketError(
          "no reply from the app at \(socket.path) within \(replyTimeoutMilliseconds / 1000) s")
      }
      let count = read(descriptor, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      reply += buffer[0..<count]
      if let newline = reply.firstIndex(of: 0x0A) { return Array(reply[..<newline]) }
      guard reply.count <= WireProtocol.maxReplyBytes else {
        throw SocketError("the app's reply is longer than \(WireProtocol.maxReplyBytes) bytes")
      }
    }
    guard !reply.isEmpty else {
      throw SocketError("the app at \(socket.path) closed the connection without a reply")
    }
    return reply
  }
}
