#if canImport(Darwin)
  import Darwin
  import MachO  // _NSGetExecutablePath
#elseif canImport(Glibc)
  import Glibc
#endif

/// Facts about the running process that each system finds its own way: Linux from `/proc/self`
/// and glibc's allocator, macOS from dyld and its malloc zones.
package enum CurrentProcess {
  /// The running executable's absolute path, symbolic links resolved; nil if unknown.
  package static func executablePath() -> String? {
    #if canImport(Darwin)
      var size: UInt32 = 0
      _ = _NSGetExecutablePath(nil, &size)
      var buffer = [CChar](repeating: 0, count: Int(size) + 1)
      guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
      return resolved(buffer)
    #elseif canImport(Glibc)
      return resolved(Array("/proc/self/exe".utf8CString))
    #endif
  }

  /// The memory the process holds, in bytes, for measuring what a data structure keeps: the
  /// resident size on Linux (`/proc/self/statm`), the bytes in use in the default malloc zone
  /// on macOS. Nil if unknown.
  package static func memoryInUse() -> Int? {
    #if canImport(Darwin)
      var statistics = malloc_statistics_t()
      malloc_zone_statistics(nil, &statistics)
      return Int(statistics.size_in_use)
    #elseif canImport(Glibc)
      let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { Descriptors.close(descriptor) }
      var buffer = [UInt8](repeating: 0, count: 256)
      let count = buffer.withUnsafeMutableBytes { Descriptors.read(descriptor, into: $0) }
      guard count > 0 else { return nil }
      // "size resident shared text lib data dt", in pages.
      let fields = buffer[0..<count].split(separator: 0x20)
      guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else {
        return nil
      }
      return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #endif
  }

  /// Hands memory the allocator holds but does not use back to the system, so that
  /// ``memoryInUse()`` counts only what is still in use.
  package static func releaseFreeMemory() {
    #if canImport(Darwin)
      _ = malloc_zone_pressure_relief(nil, 0)
    #elseif canImport(Glibc)
      _ = mallocTrim(0)
    #endif
  }

  /// `path` with every symbolic link resolved; nil if it cannot be.
  private static func resolved(_ path: [CChar]) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }
}

#if canImport(Glibc)
  /// glibc's `malloc_trim`, which Swift's Glibc module does not export.
  @_silgen_name("malloc_trim")
  private func mallocTrim(_ pad: Int) -> Int32
#endif
