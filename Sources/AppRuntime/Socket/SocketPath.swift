import Platform

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Where the running app listens: `$XDG_RUNTIME_DIR/appshell/app.sock` when that variable is
/// set, else `/tmp/appshell-UID/app.sock`. The directory is made with mode 0700 and must be
/// the user's own and private; the socket is made with mode 0600.
package struct SocketPath: Sendable, Equatable {
  /// The directory that holds the socket.
  package var directory: String
  /// The socket's path.
  package var path: String

  /// The path for this user, from the environment.
  package static func current() -> SocketPath {
    let directory: String
    if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty {
      directory = runtime + "/appshell"
    } else {
      directory = "/tmp/appshell-\(getuid())"
    }
    return SocketPath(directory: directory, path: directory + "/app.sock")
  }

  /// Makes the directory when missing (mode 0700); throws unless it is a real directory (not a
  /// symbolic link) owned by this user that nobody else can use.
  func prepareDirectory() throws(SocketError) {
    if mkdir(directory, 0o700) != 0 && errno != EEXIST {
      throw SocketError("cannot create \(directory): \(SocketError.reason())")
    }
    try checkDirectory()
  }

  /// Throws unless the directory is private to this user.
  func checkDirectory() throws(SocketError) {
    var info = stat()
    guard lstat(directory, &info) == 0 else {
      throw SocketError("\(directory): \(SocketError.reason())")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw SocketError("\(directory) is not a directory (a symbolic link or a file); remove it")
    }
    guard info.st_uid == getuid() else {
      throw SocketError(
        "\(directory) belongs to user \(info.st_uid), not to you (\(getuid())); remove it")
    }
    guard info.st_mode & 0o077 == 0 else {
      let mode = String(info.st_mode & 0o777, radix: 8)
      throw SocketError(
        "\(directory) is not private (mode 0\(mode)); run: chmod 700 \(directory)")
    }
  }

  /// The socket address for `path`; throws when the path is too long for one.
  func address() throws(SocketError) -> sockaddr_un {
    let bytes = Array(path.utf8)
    guard let address = Sockets.unixAddress(bytes) else {
      throw SocketError(
        "the socket path \(path) is \(bytes.count) bytes, longer than the \(Sockets.maxUnixPathBytes) a Unix socket allows; set XDG_RUNTIME_DIR to a shorter directory"
      )
    }
    return address
  }
}

/// A socket that could not be set up or used; says what and where.
package struct SocketError: Error, CustomStringConvertible {
  /// The problem.
  package var description: String

  init(_ description: String) { self.description = description }

  /// The text of the current `errno`.
  static func reason() -> String { String(cString: strerror(errno)) }
}
