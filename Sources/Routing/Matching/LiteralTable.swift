/// The literal children of every trie node in one table, found by the parent node and the
/// exact bytes of the segment.
///
/// Open addressing over a hash of the parent and the bytes (FNV-1a): a few instructions a
/// byte, where the standard library's `Dictionary` hashes every key with seeded SipHash, which
/// measured several times slower for the short segments URLs have and made hashing the largest
/// part of a lookup.
struct LiteralTable: Sendable {
  /// One literal child: its parent, the child, and where its text is in ``bytes``.
  private struct Entry: Sendable {
    var parent: Int32
    var child: Int32
    var start: Int
    var count: Int
  }

  /// Entry numbers, or -1 for an empty slot; a power of two long, at most half full.
  private var slots: [Int32]
  private var entries: [Entry] = []
  private var bytes: [UInt8] = []

  /// A table of the given children; each (parent, text) appears once.
  init(_ children: [(parent: Int32, text: String, child: Int32)]) {
    var size = 8
    while size < children.count * 2 { size *= 2 }
    slots = Array(repeating: -1, count: size)
    for (parent, text, child) in children {
      let start = bytes.count
      bytes += text.utf8
      let number = Int32(entries.count)
      entries.append(Entry(parent: parent, child: child, start: start, count: bytes.count - start))
      var slot =
        bytes.withUnsafeBufferPointer {
          Self.hash(parent, UnsafeBufferPointer(rebasing: $0[start...]))
        } & (size - 1)
      while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
      slots[slot] = number
    }
  }

  /// The child of `parent` whose literal is exactly `text`, or nil.
  func child(of parent: Int32, _ text: UnsafeBufferPointer<UInt8>) -> Int32? {
    bytes.withUnsafeBufferPointer { bytes in
      let mask = slots.count - 1
      var slot = Self.hash(parent, text) & mask
      while slots[slot] >= 0 {
        let entry = entries[Int(slots[slot])]
        if entry.parent == parent, entry.count == text.count,
          Self.same(
            text, UnsafeBufferPointer(rebasing: bytes[entry.start..<(entry.start + entry.count)]))
        {
          return entry.child
        }
        slot = (slot + 1) & mask
      }
      return nil
    }
  }

  /// Whether two byte runs of the same length are equal.
  private static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool
  {
    for index in a.indices where a[index] != b[index] { return false }
    return true
  }

  private static func hash(_ parent: Int32, _ text: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: parent))
    for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: hash ^ (hash >> 32))
  }
}
