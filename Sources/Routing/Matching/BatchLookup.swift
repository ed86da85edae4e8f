import CMemory

// Looking up many URLs together. A lookup in a big table waits on memory at every trie level
// (the index of 100,000 routes is tens of megabytes, far more than the caches hold). Reading
// a group of URLs first and walking their likely paths one level at a time for all of them,
// with a prefetch hint for what each next level needs, lets those memory reads overlap; the
// ordinary walk then finds its data in the cache. The hints never change an answer: each URL
// is still decided by the same walk as a single lookup.

extension RouterIndex {
  /// How many URLs are read and prefetched together.
  static let batchWidth = 16

  /// The index size from which batches prefetch: below it the index stays in a core's own
  /// cache (a typical L2 holds 1 MiB) and prefetching would only add work.
  static let prefetchThreshold = 1 << 20

  /// One URL's path through one trie, as the prefetch pass follows it.
  struct Probe {
    /// The URL's segments.
    var segments: UnsafePointer<ByteSlice>
    var segmentCount: Int32
    var segment: Int32
    var node: Int32
    var hash: UInt32 = 0
    var word: UInt64 = 0
  }

  /// Calls `body` with the index and view of each of `count` URLs (nil when a URL needs the
  /// full reader), after reading them in groups and, when `prefetching` (nil: when the index
  /// is at least ``prefetchThreshold``), prefetching the trie memory their walks will read.
  @inline(__always)
  func withBatchViews(
    count: Int, _ url: (Int) -> UnsafeBufferPointer<UInt8>, prefetching: Bool?,
    _ body: (Int, URLView?) -> Void
  ) {
    let width = Self.batchWidth
    let prefetches = prefetching ?? (byteCount >= Self.prefetchThreshold)
    withUnsafeTemporaryAllocation(
      byteCount: width * URLScanner.scratchBytes + width * MemoryLayout<URLView?>.stride
        + 2 * width * MemoryLayout<Probe>.stride,
      alignment: 16
    ) { raw in
      let scratchBase = raw.baseAddress!
      let views = (scratchBase + width * URLScanner.scratchBytes).bindMemory(
        to: URLView?.self, capacity: width)
      let probes =
        (scratchBase + width * URLScanner.scratchBytes + width
        * MemoryLayout<URLView?>.stride).bindMemory(to: Probe.self, capacity: 2 * width)
      var first = 0
      while first < count {
        let group = min(width, count - first)
        for member in 0..<group {
          let scratch = UnsafeMutableRawBufferPointer(
            start: scratchBase + member * URLScanner.scratchBytes, count: URLScanner.scratchBytes)
          (views + member).initialize(to: URLScanner.scan(url(first + member), scratch: scratch))
        }
        if prefetches {
          prefetchWalks(UnsafeBufferPointer(start: views, count: group), probes)
        }
        for member in 0..<group {
          body(first + member, views[member])
        }
        (views).deinitialize(count: group)
        first += group
      }
    }
  }

  /// Follows each view's most likely path through its scheme's trie and the global trie one
  /// level at a time across all views, prefetching each level's hash slot and node (and the
  /// nodes of its typed children) a full round before the next level reads them.
  private func prefetchWalks(
    _ views: UnsafeBufferPointer<URLView?>, _ probes: UnsafeMutablePointer<Probe>
  ) {
    guard !slots.isEmpty else { return }
    var live = 0
    for view in views {
      guard let view, let segments = view.segments.baseAddress, !view.segments.isEmpty else {
        continue
      }
      let count = Int32(view.segments.count)
      if let scheme = view.scheme {
        let root = root(forScheme: scheme.bytes)
        if root >= 0 {
          probes[live] = Probe(segments: segments, segmentCount: count, segment: 0, node: root)
          aim(&probes[live])
          live += 1
        }
      }
      probes[live] = Probe(segments: segments, segmentCount: count, segment: 0, node: globalRoot)
      aim(&probes[live])
      live += 1
    }
    let nodeBase = nodes.baseAddress!
    while live > 0 {
      var kept = 0
      for position in 0..<live {
        var probe = probes[position]
        let node = nodeBase + Int(probe.node)
        var next = literalChild(
          of: probe.node, probe.segments[Int(probe.segment)].bytes, hash: probe.hash,
          word: probe.word)
        if next >= 0 { appshell_prefetch(nodeBase + Int(next)) }
        // Every typed child may be walked; the path follows the least specific one there is.
        let int = node.pointee.int
        let float = node.pointee.float
        let uuid = node.pointee.uuid
        let string = node.pointee.string
        if max(int, float, uuid, string) >= 0 {
          if int >= 0 { appshell_prefetch(nodeBase + Int(int)) }
          if float >= 0 { appshell_prefetch(nodeBase + Int(float)) }
          if uuid >= 0 { appshell_prefetch(nodeBase + Int(uuid)) }
          if string >= 0 { appshell_prefetch(nodeBase + Int(string)) }
          if next < 0 { next = string >= 0 ? string : max(int, float, uuid) }
        }
        guard next >= 0 else { continue }
        probe.node = next
        probe.segment += 1
        if probe.segment < probe.segmentCount {
          aim(&probe)
          probes[kept] = probe
          kept += 1
        }
      }
      live = kept
    }
  }

  /// Hashes the probe's next segment under its node and prefetches that hash slot.
  @inline(__always)
  private func aim(_ probe: inout Probe) {
    let (hash, word) = Self.key(probe.segments[Int(probe.segment)].bytes, parent: probe.node)
    probe.hash = hash
    probe.word = word
    appshell_prefetch(slots.baseAddress! + Int(hash & slotMask))
  }
}
