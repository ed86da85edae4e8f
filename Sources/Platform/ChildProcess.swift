#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Starting a program with `posix_spawn`, whose attribute types are structs in Glibc and
/// pointers in Darwin.
package enum ChildProcess {
  /// Why a program could not be started.
  package struct SpawnError: Error, CustomStringConvertible {
    /// `cannot start PATH: REASON`.
    package var description: String
  }

  /// Starts `path` with `arguments` (the first is its name) and exactly `environment`, with an
  /// empty signal mask and default signal handlers (a thread that blocks signals would
  /// otherwise pass its mask on), standard input from /dev/null and standard output and error
  /// on `stdout` and `stderr`; returns its process id.
  package static func spawn(
    _ path: String, _ arguments: [String], environment: [String: String], stdout: Int32,
    stderr: Int32
  ) throws(SpawnError) -> pid_t {
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #elseif canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw SpawnError(description: "cannot start \(path): \(String(cString: strerror(spawned)))")
    }
    return pid
  }

  /// Runs `path` with `arguments` (the first is its name) and exactly `environment` to its
  /// end, as ``spawn(_:_:environment:stdout:stderr:)`` starts it, with its standard output and
  /// error captured in unlinked temporary files (so neither can fill a pipe and stall it);
  /// returns its exit status and both outputs.
  package static func run(_ path: String, _ arguments: [String], environment: [String: String])
    throws(SpawnError) -> (status: Int32, output: [UInt8], error: [UInt8])
  {
    func temporary() throws(SpawnError) -> Int32 {
      let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
      var template = Array((directory + "/appshell-XXXXXX").utf8CString)
      let descriptor = mkstemp(&template)
      guard descriptor >= 0 else {
        throw SpawnError(description: "cannot make a temporary file in \(directory)")
      }
      unlink(template)
      return descriptor
    }
    let output = try temporary()
    defer { close(output) }
    let error = try temporary()
    defer { close(error) }
    let pid = try spawn(path, arguments, environment: environment, stdout: output, stderr: error)
    let status = wait(pid)
    func contents(_ descriptor: Int32) -> [UInt8] {
      lseek(descriptor, 0, SEEK_SET)
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += buffer[0..<count]
      }
      return bytes
    }
    return (status, contents(output), contents(error))
  }

  /// The first executable file called `name` in the directories of `PATH` (default:
  /// `/usr/bin:/bin`); nil if there is none.
  package static func find(_ name: String) -> String? {
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// Waits for process `pid` to end; its exit status, or 128 + N when signal N ended it.
  package static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return exitStatus(status)
  }

  /// The exit status from a `waitpid` status: the code, or 128 + N when signal N ended it.
  package static func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
