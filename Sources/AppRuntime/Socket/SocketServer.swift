import Platform
import Remote

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The running app's end of the socket: listens at a ``SocketPath``, reads one request line per
/// connection without ever blocking the app, and answers it.
///
/// A client gets ``clientTimeout`` to send its whole line; a line longer than
/// ``WireProtocol/maxMessageBytes``, a malformed line or a slow client gets an error reply and
/// is closed. Nothing a client sends can stop the app.
package final class SocketServer {
  /// Where it listens.
  package let socket: SocketPath
  private var listener: Int32 = -1
  private var identity: (device: UInt, inode: UInt) = (0, 0)
  private var clients: [Client] = []
  private let clock = ContinuousClock()

  /// How long a client has to send its request.
  static let clientTimeout: Duration = .seconds(2)
  /// At most this many clients are served at once; more wait in the listen queue.
  static let maxClients = 16

  private struct Client {
    var descriptor: Int32
    var buffer: [UInt8]
    var deadline: ContinuousClock.Instant
  }

  /// Starts listening. A socket left by an app that crashed is replaced; a live one (another
  /// `appshell` of this user) is an error.
  init(socket: SocketPath) throws(SocketError) {
    self.socket = socket
    try socket.prepareDirectory()
    let address = try socket.address()
    var info = stat()
    if lstat(socket.path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFSOCK else {
        throw SocketError("\(socket.path) exists and is not a socket; remove it")
      }
      if Self.isAlive(address) {
        throw SocketError(
          "another appshell is already listening on \(socket.path); openurl goes to that one")
      }
      unlink(socket.path)  // stale: its app is gone
    }
    let descriptor = Sockets.stream(family: AF_UNIX)
    guard descriptor >= 0 else { throw SocketError("socket: \(SocketError.reason())") }
    // The socket file is made 0600 from the start (no window with a wider mode).
    let oldMask = umask(0o177)
    let bound = address.withGenericPointer { bind(descriptor, $0, $1) }
    let bindError = errno
    umask(oldMask)
    guard bound == 0 else {
      Descriptors.close(descriptor)
      errno = bindError
      throw SocketError("cannot listen on \(socket.path): \(SocketError.reason())")
    }
    chmod(socket.path, 0o600)
    guard listen(descriptor, 16) == 0 else {
      Descriptors.close(descriptor)
      unlink(socket.path)
      throw SocketError("cannot listen on \(socket.path): \(SocketError.reason())")
    }
    Descriptors.setNonBlocking(descriptor)
    listener = descriptor
    if lstat(socket.path, &info) == 0 {
      identity = (UInt(truncatingIfNeeded: info.st_dev), UInt(info.st_ino))
    }
  }

  /// Whether an app answers at `address` (a connection is accepted).
  private static func isAlive(_ address: sockaddr_un) -> Bool {
    let probe = Sockets.stream(family: AF_UNIX)
    guard probe >= 0 else { return false }
    defer { Descriptors.close(probe) }
    return address.withGenericPointer { connect(probe, $0, $1) } == 0
  }

  /// Stops listening, closes every client and removes the socket file if it is still ours.
  func close() {
    guard listener >= 0 else { return }
    for client in clients { Descriptors.close(client.descriptor) }
    clients = []
    Descriptors.close(listener)
    listener = -1
    var info = stat()
    if lstat(socket.path, &info) == 0, UInt(truncatingIfNeeded: info.st_dev) == identity.device,
      UInt(info.st_ino) == identity.inode
    {
      unlink(socket.path)
    }
  }

  deinit { close() }

  /// The descriptors to wait on: the listener (while there is room) and every client.
  var descriptors: [Int32] {
    guard listener >= 0 else { return [] }
    return (clients.count < Self.maxClients ? [listener] : []) + clients.map(\.descriptor)
  }

  /// When the earliest client runs out of time, if any is connected.
  var nextDeadline: ContinuousClock.Instant? { clients.map(\.deadline).min() }

  /// Accepts and reads whatever is ready among `ready`, answers complete requests with
  /// `answer`, and drops clients whose time is up. `refused` hears every bad message.
  /// Returns whether any client was answered or refused (the app may have changed).
  @discardableResult
  func serve(
    ready: Set<Int32>, answer: (WireRequest) -> WireReply, refused: (String) -> Void
  ) -> Bool {
    var handled = false
    if ready.contains(listener) { acceptAll() }
    var index = 0
    while index < clients.count {
      let client = clients[index]
      var finished = false
      let late = clock.now >= client.deadline
      // A late client is read once more first: the loop may have been busy (a reload) while
      // its request arrived.
      if ready.contains(client.descriptor) || late {
        finished = read(&clients[index], answer: answer, refused: refused)
      }
      if !finished && late {
        let problem = "timed out after \(Self.clientTimeout) waiting for a complete message"
        refused("socket message refused: \(problem)")
        reply(client.descriptor, .failure(problem))
        finished = true
      }
      if finished {
        handled = true
        Descriptors.close(client.descriptor)
        clients.remove(at: index)
      } else {
        index += 1
      }
    }
    return handled
  }

  private func acceptAll() {
    while clients.count < Self.maxClients {
      let descriptor = Sockets.accept(listener)
      guard descriptor >= 0 else { return }
      Descriptors.setNonBlocking(descriptor)
      clients.append(
        Client(descriptor: descriptor, buffer: [], deadline: clock.now + Self.clientTimeout))
    }
  }

  /// Reads what the client sent; true when it is done with (answered or gone).
  private func read(
    _ client: inout Client, answer: (WireRequest) -> WireReply, refused: (String) -> Void
  ) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { Descriptors.read(client.descriptor, into: $0) }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK { return false }
        return true  // the client is gone
      }
      if count == 0 {
        // End of input: a last line without its newline still counts.
        guard !client.buffer.isEmpty else { return true }
        respond(client.descriptor, line: client.buffer, answer: answer, refused: refused)
        return true
      }
      client.buffer += chunk[0..<count]
      if let newline = client.buffer.firstIndex(of: 0x0A) {
        respond(
          client.descriptor, line: Array(client.buffer[..<newline]), answer: answer,
          refused: refused)
        return true
      }
      if client.buffer.count >= WireProtocol.maxMessageBytes {
        let problem =
          "message too long: no newline within \(WireProtocol.maxMessageBytes) bytes"
        refused("socket message refused: \(problem)")
        reply(client.descriptor, .failure(problem))
        return true
      }
    }
  }

  private func respond(
    _ descriptor: Int32, line: [UInt8], answer: (WireRequest) -> WireReply,
    refused: (String) -> Void
  ) {
    let request: WireRequest
    do {
      request = try WireRequest.decode(line)
    } catch {
      refused("socket message refused: \(error)")
      reply(descriptor, .failure(error.description))
      return
    }
    reply(descriptor, answer(request))
  }

  /// Sends a reply, waiting at most a second for a client that does not read.
  private func reply(_ descriptor: Int32, _ reply: WireReply) {
    Descriptors.setNonBlocking(descriptor, false)
    Sockets.setTimeouts(descriptor, sending: .seconds(1))
    writeAll(descriptor, reply.encoded)
  }
}
