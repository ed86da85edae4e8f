import Glibc

/// Watches one file for changes with inotify: its directory is watched, so a file replaced by
/// a rename (as editors save) is seen as well as one written in place.
final class FileWatcher {
  /// The inotify descriptor, to wait on with `poll`.
  let descriptor: Int32
  private let name: [UInt8]

  /// Starts watching `path`; nil when inotify is not available.
  init?(path: String) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { String(path[..<$0]) } ?? "."
    name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else { return nil }
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO)
    guard inotify_add_watch(descriptor, directory.isEmpty ? "/" : directory, mask) >= 0 else {
      close(descriptor)
      return nil
    }
  }

  deinit { close(descriptor) }

  /// Reads the pending events; true when one was about the watched file.
  func takeChange() -> Bool {
    var changed = false
    var buffer = [UInt8](repeating: 0, count: 8192)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      guard count > 0 else { return changed }
      // struct inotify_event: wd (4), mask (4), cookie (4), len (4), then len bytes of name.
      var offset = 0
      while offset + 16 <= count {
        let length = buffer[offset + 12..<offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
        let nameBytes = buffer[offset + 16..<min(count, offset + 16 + length)]
        if Array(nameBytes.prefix { $0 != 0 }) == name { changed = true }
        offset += 16 + length
      }
    }
  }
}
