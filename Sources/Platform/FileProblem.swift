#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Why a path cannot be used, in the system's own words.
package enum FileProblem {
  /// Why `path` cannot be opened for reading (`No such file or directory`, `Permission
  /// denied`); nil when it can.
  package static func reading(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor < 0 else {
      Descriptors.close(descriptor)
      return nil
    }
    return String(cString: strerror(errno))
  }

  /// Why `path` cannot be created or opened for writing (`No such file or directory` for a
  /// missing folder, `Is a directory`); nil when it can.
  package static func writing(_ path: String) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT, 0o644)
    guard descriptor < 0 else {
      Descriptors.close(descriptor)
      return nil
    }
    return String(cString: strerror(errno))
  }
}
