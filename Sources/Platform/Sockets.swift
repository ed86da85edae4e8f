#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Stream sockets made and used the same way on Linux and macOS: closed on exec, and a peer
/// that has gone away is an `EPIPE` error, never a SIGPIPE that ends the process.
///
/// Glibc has `SOCK_CLOEXEC` and `MSG_NOSIGNAL` (and its `SOCK_STREAM` is a struct with a
/// `rawValue`); Darwin has neither flag (`FD_CLOEXEC` is set with `fcntl`, and the socket
/// option `SO_NOSIGPIPE` stands for `MSG_NOSIGNAL`) and its `SOCK_STREAM` is an `Int32`.
package enum Sockets {
  /// A new stream socket of `family` (`AF_UNIX`, `AF_INET`, `AF_INET6`); -1 with `errno` on
  /// failure.
  package static func stream(family: Int32, protocol number: Int32 = 0) -> Int32 {
    #if canImport(Darwin)
      let descriptor = socket(family, SOCK_STREAM, number)
      guard descriptor >= 0 else { return -1 }
      Descriptors.setCloseOnExec(descriptor)
      setNoSignalOnBrokenPipe(descriptor)
      return descriptor
    #elseif canImport(Glibc)
      return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), number)
    #endif
  }

  /// The next connection waiting on `listener`, closed on exec; -1 with `errno` (`EAGAIN` on a
  /// non-blocking listener with nobody waiting).
  package static func accept(_ listener: Int32) -> Int32 {
    let descriptor = systemAccept(listener, nil, nil)
    guard descriptor >= 0 else { return -1 }
    Descriptors.setCloseOnExec(descriptor)
    #if canImport(Darwin)
      setNoSignalOnBrokenPipe(descriptor)
    #endif
    return descriptor
  }

  /// Sends up to `buffer.count` bytes on a socket made by ``stream(family:protocol:)`` or
  /// ``accept(_:)``; the count sent, or -1 with `errno` (`EPIPE` when the peer is gone).
  package static func send(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
    #if canImport(Darwin)
      return systemSend(descriptor, buffer.baseAddress, buffer.count, 0)
    #elseif canImport(Glibc)
      return systemSend(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
    #endif
  }

  /// Gives up blocking sends and receives on `descriptor` after the durations given (at least
  /// a millisecond each).
  package static func setTimeouts(
    _ descriptor: Int32, sending: Duration? = nil, receiving: Duration? = nil
  ) {
    for (option, duration) in [(SO_SNDTIMEO, sending), (SO_RCVTIMEO, receiving)] {
      guard let duration else { continue }
      let microseconds = max(
        1000,
        duration.components.seconds * 1_000_000 + duration.components.attoseconds
          / 1_000_000_000_000)
      var limit = timeval()
      limit.tv_sec = .init(microseconds / 1_000_000)
      limit.tv_usec = .init(microseconds % 1_000_000)
      setsockopt(descriptor, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
    }
  }

  /// `SOCK_STREAM` as an `Int32`, for `getaddrinfo`'s hints.
  package static var streamType: Int32 {
    #if canImport(Darwin)
      return SOCK_STREAM
    #elseif canImport(Glibc)
      return Int32(SOCK_STREAM.rawValue)
    #endif
  }

  /// The longest path a Unix socket address holds (`sun_path` less its terminating NUL): 107
  /// bytes on Linux, 103 on macOS.
  package static let maxUnixPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// The Unix socket address of `path`; nil when it is longer than ``maxUnixPathBytes``.
  package static func unixAddress(_ path: [UInt8]) -> sockaddr_un? {
    guard path.count <= maxUnixPathBytes else { return nil }
    var address = sockaddr_un()
    #if canImport(Darwin)
      address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
    #endif
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.enumerated() { raw[index] = byte }
      raw[path.count] = 0
    }
    return address
  }

  /// A TCP socket on 127.0.0.1 at a port the system chooses, listening with `backlog` (none:
  /// only bound, to learn a free port), and its port; nil with `errno` on failure.
  package static func loopbackListener(backlog: Int32? = 16) -> (descriptor: Int32, port: UInt16)? {
    let descriptor = stream(family: AF_INET)
    guard descriptor >= 0 else { return nil }
    var address = loopbackAddress(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound, backlog.map({ listen(descriptor, $0) == 0 }) ?? true else {
      let error = errno
      Descriptors.close(descriptor)
      errno = error
      return nil
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
  }

  /// A TCP socket connected to 127.0.0.1 at `port`; -1 with `errno` on failure.
  package static func connectToLoopback(port: UInt16) -> Int32 {
    let descriptor = stream(family: AF_INET)
    guard descriptor >= 0 else { return -1 }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      let error = errno
      Descriptors.close(descriptor)
      errno = error
      return -1
    }
    return descriptor
  }

  /// A stream socket connected to the Unix socket at `path`; -1 with `errno` on failure.
  package static func connect(toUnixSocket path: String) -> Int32 {
    guard let address = unixAddress(Array(path.utf8)) else {
      errno = ENAMETOOLONG
      return -1
    }
    let descriptor = stream(family: AF_UNIX)
    guard descriptor >= 0 else { return -1 }
    guard address.withGenericPointer({ systemConnect(descriptor, $0, $1) }) == 0 else {
      let error = errno
      Descriptors.close(descriptor)
      errno = error
      return -1
    }
    return descriptor
  }

  /// The IPv4 loopback address at `port`.
  private static func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
  }

  #if canImport(Darwin)
    /// Darwin's stand-in for `MSG_NOSIGNAL`: sends on this socket never raise SIGPIPE.
    private static func setNoSignalOnBrokenPipe(_ descriptor: Int32) {
      var on: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    }
  #endif
}

extension sockaddr_un {
  /// Calls `body` with this address as a generic socket address and its length.
  package func withGenericPointer<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    var copy = self
    return withUnsafePointer(to: &copy) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }
}

// The C functions, reached from file scope where the methods above do not hide them.
private func systemAccept(
  _ listener: Int32, _ address: UnsafeMutablePointer<sockaddr>?,
  _ length: UnsafeMutablePointer<socklen_t>?
) -> Int32 {
  accept(listener, address, length)
}

private func systemConnect(
  _ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
) -> Int32 {
  connect(descriptor, address, length)
}

private func systemSend(
  _ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32
) -> Int {
  send(descriptor, buffer, count, flags)
}
