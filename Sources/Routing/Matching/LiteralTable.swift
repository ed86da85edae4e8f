/// The literal children of every trie node in one table, found by the parent node and the
/// exact bytes of the segment.
///
/// Open addressing over a hash of the parent and the bytes (FNV-1a): a few instructions a
/// byte, where the standard library's `Dictionary` hashes every key with seeded SipHash, which
/// measured several times slower for the short segments URLs have and made hashing the largest
/// part of a lookup.
struct LiteralTable: Sendable {
  /// One slot: a literal child, its parent and where its text is in ``bytes``; `child` is -1
  /// in an empty slot. Kept in the slots themselves, so a probe reads one place.
  private struct Entry: Sendable {
    var parent: Int32 = 0
    var child: Int32 = -1
    var start: Int32 = 0
    var count: Int32 = 0
  }

  /// A power of two long, at most half full.
  private var slots = Array(repeating: Entry(), count: 8)
  private var bytes: [UInt8] = []
  private var count = 0

  /// No children.
  init() {}

  /// The child of `parent` whose literal is exactly `text`, made by `make` when there is none.
  mutating func child(of parent: Int32, _ text: String, orMake make: () -> Int32) -> Int32 {
    var text = text
    if let found = text.withUTF8({ self.child(of: parent, $0) }) { return found }
    if 2 * (count + 1) > slots.count {
      let old = slots
      slots = Array(repeating: Entry(), count: 2 * old.count)
      for entry in old where entry.child >= 0 { place(entry) }
    }
    let start = bytes.count
    bytes += text.utf8
    let child = make()
    place(
      Entry(parent: parent, child: child, start: Int32(start), count: Int32(bytes.count - start)))
    count += 1
    return child
  }

  /// Puts an entry in the first free slot from its hash.
  private mutating func place(_ entry: Entry) {
    let mask = slots.count - 1
    var slot =
      bytes.withUnsafeBufferPointer {
        Self.hash(
          entry.parent,
          UnsafeBufferPointer(rebasing: $0[Int(entry.start)..<Int(entry.start + entry.count)]))
      } & mask
    while slots[slot].child >= 0 { slot = (slot + 1) & mask }
    slots[slot] = entry
  }

  /// The child of `parent` whose literal is exactly `text`, or nil. (Read through buffer
  /// pointers: this runs for every segment of every lookup, and array subscripts would add a
  /// bounds check to each probe and byte.)
  func child(of parent: Int32, _ text: UnsafeBufferPointer<UInt8>) -> Int32? {
    bytes.withUnsafeBufferPointer { bytes in
      slots.withUnsafeBufferPointer { slots in
        let mask = slots.count - 1
        var slot = Self.hash(parent, text) & mask
        while slots[slot].child >= 0 {
          let entry = slots[slot]
          if entry.parent == parent, Int(entry.count) == text.count,
            Self.same(text, UnsafeBufferPointer(rebasing: bytes[Int(entry.start)...]))
          {
            return entry.child
          }
          slot = (slot + 1) & mask
        }
        return nil
      }
    }
  }

  /// Whether `stored` starts with `text`.
  private static func same(_ text: UnsafeBufferPointer<UInt8>, _ stored: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    for index in text.indices where text[index] != stored[index] { return false }
    return true
  }

  private static func hash(_ parent: Int32, _ text: UnsafeBufferPointer<UInt8>) -> Int {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: parent))
    for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: hash ^ (hash >> 32))
  }
}
