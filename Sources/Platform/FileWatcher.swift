#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Watches one file for changes, with a descriptor to wait on with `poll` among others: inotify
/// on Linux, kqueue on macOS. The file's directory is watched too, so a file replaced by a
/// rename (as editors save) is seen as well as one written in place.
package final class FileWatcher {
  /// The descriptor that becomes readable when something happened; then call
  /// ``takeChange()``.
  package let descriptor: Int32
  /// The directory holding the file, and the file's name in it.
  private let directory: String
  private let name: [UInt8]
  #if canImport(Darwin)
    private let path: String
    /// The watched directory and file, opened for events only.
    private var directoryDescriptor: Int32 = -1
    private var fileDescriptor: Int32 = -1
    /// What the file was at the last look: a different one means it changed.
    private var lastSeen: FileIdentity?
  #endif

  /// Starts watching `path`; nil when the system's watching is not available.
  package init?(path: String) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    self.directory = directory.isEmpty ? "/" : directory
    name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
    #if canImport(Darwin)
      self.path = path
      descriptor = kqueue()
      guard descriptor >= 0 else { return nil }
      Descriptors.setCloseOnExec(descriptor)
      // On failure from here on, deinit closes what was opened.
      directoryDescriptor = open(self.directory, O_EVTONLY | O_CLOEXEC)
      guard directoryDescriptor >= 0, watch(directoryDescriptor) else { return nil }
      lastSeen = FileIdentity(path)
      watchFile()
    #elseif canImport(Glibc)
      descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)
      // On failure, deinit closes the descriptor.
      guard inotify_add_watch(descriptor, self.directory, mask) >= 0 else { return nil }
    #endif
  }

  deinit {
    #if canImport(Darwin)
      for watched in [fileDescriptor, directoryDescriptor] where watched >= 0 {
        Descriptors.close(watched)
      }
    #endif
    if descriptor >= 0 { Descriptors.close(descriptor) }
  }

  /// Reads the pending events; true when one was about the watched file.
  package func takeChange() -> Bool {
    #if canImport(Darwin)
      var events = [kevent](repeating: kevent(), count: 8)
      var none = timespec(tv_sec: 0, tv_nsec: 0)
      var any = false
      while kevent(descriptor, nil, 0, &events, Int32(events.count), &none) > 0 { any = true }
      guard any else { return false }
      // The directory changed (a rename, a new file) or the file did: whichever it was, watch
      // the file now at the path, and say whether it is not the one last seen.
      let now = FileIdentity(path)
      guard now != lastSeen else { return false }
      lastSeen = now
      watchFile()
      return now != nil
    #elseif canImport(Glibc)
      var changed = false
      var buffer = [UInt8](repeating: 0, count: 8192)
      while true {
        let count = buffer.withUnsafeMutableBytes { Descriptors.read(descriptor, into: $0) }
        guard count > 0 else { return changed }
        // struct inotify_event: wd (4), mask (4), cookie (4), len (4), then len bytes of name.
        var offset = 0
        while offset + 16 <= count {
          let length = buffer[offset + 12..<offset + 16].reversed().reduce(0) {
            $0 << 8 | Int($1)
          }
          let nameBytes = buffer[offset + 16..<min(count, offset + 16 + length)]
          if Array(nameBytes.prefix { $0 != 0 }) == name { changed = true }
          offset += 16 + length
        }
      }
    #endif
  }

  #if canImport(Darwin)
    /// Registers `watched` (a directory or file opened with `O_EVTONLY`) with the queue.
    private func watch(_ watched: Int32) -> Bool {
      var change = kevent()
      change.ident = UInt(watched)
      change.filter = Int16(EVFILT_VNODE)
      change.flags = UInt16(EV_ADD | EV_CLEAR)
      change.fflags = UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_DELETE | NOTE_RENAME | NOTE_ATTRIB)
      return kevent(descriptor, &change, 1, nil, 0, nil) == 0
    }

    /// Watches the file now at the path (closing the watch of one it replaced), if there is one.
    private func watchFile() {
      if fileDescriptor >= 0 { Descriptors.close(fileDescriptor) }
      fileDescriptor = open(path, O_EVTONLY | O_CLOEXEC)
      if fileDescriptor >= 0 && !watch(fileDescriptor) {
        Descriptors.close(fileDescriptor)
        fileDescriptor = -1
      }
    }

    /// Which file is at a path and when it was last written; nil when there is none.
    private struct FileIdentity: Equatable {
      var device: Int64
      var inode: UInt64
      var size: Int64
      var seconds: Int
      var nanoseconds: Int

      init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = Int64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtimespec.tv_sec)
        nanoseconds = Int(info.st_mtimespec.tv_nsec)
      }
    }
  #endif
}
