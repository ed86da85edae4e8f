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
    /// The segment to look up next; `segmentCount` once the path has reached its last node.
    var segment: Int32
    var node: Int32
    /// Where the literal lookups go for the walk to reuse: this trie's entry of each segment.
    var memo: UnsafeMutablePointer<LiteralMemo>
    var hash: UInt32 = 0
    var word: UInt64 = 0
  }

  /// Scratch bytes per URL of a batch: the reader's, then the literal memo.
  private static let memberBytes =
    URLScanner.scratchBytes + 2 * URLScanner.maxSegments * MemoryLayout<LiteralMemo>.stride

  /// Calls `body` with each group of up to ``batchWidth`` of `count` URLs: the index of its
  /// first URL, the views (nil where a URL needs the full reader) and whether the group was
  /// prefetched: with `prefetching` (nil: when the index is at least ``prefetchThreshold``),
  /// the trie memory the views' walks will read is fetched first.
  @inline(__always)
  func withBatchGroups(
    count: Int, _ url: (Int) -> UnsafeBufferPointer<UInt8>, prefetching: Bool?,
    _ body: (_ first: Int, _ views: UnsafeBufferPointer<URLView?>, _ prefetched: Bool) -> Void
  ) {
    let width = Self.batchWidth
    let prefetches = prefetching ?? (byteCount >= Self.prefetchThreshold)
    let viewsOffset = width * Self.memberBytes
    let probesOffset = viewsOffset + width * MemoryLayout<URLView?>.stride
    withUnsafeTemporaryAllocation(
      byteCount: probesOffset + 2 * width * MemoryLayout<Probe>.stride, alignment: 16
    ) { raw in
      let base = raw.baseAddress!
      let views = (base + viewsOffset).bindMemory(to: URLView?.self, capacity: width)
      let probes = (base + probesOffset).bindMemory(to: Probe.self, capacity: 2 * width)
      var first = 0
      while first < count {
        let group = min(width, count - first)
        for member in 0..<group {
          let scratch = UnsafeMutableRawBufferPointer(
            start: base + member * Self.memberBytes, count: URLScanner.scratchBytes)
          var view = URLScanner.scan(url(first + member), scratch: scratch)
          if prefetches, view != nil {
            let memo = (scratch.baseAddress! + URLScanner.scratchBytes).bindMemory(
              to: LiteralMemo.self, capacity: 2 * URLScanner.maxSegments)
            memo.initialize(repeating: LiteralMemo(), count: 2 * view!.segments.count)
            view!.memo = memo
          }
          (views + member).initialize(to: view)
        }
        if prefetches {
          prefetchWalks(UnsafeMutableBufferPointer(start: views, count: group), probes)
        }
        body(first, UnsafeBufferPointer(start: views, count: group), prefetches)
        views.deinitialize(count: group)
        first += group
      }
    }
  }

  /// Follows each view's most likely path through its scheme's trie and the global trie one
  /// level at a time across all views, prefetching each level's hash slot and node (and the
  /// nodes of its typed children) a full round before the next level reads them, and last
  /// the terminals and route data its end node will need. Each literal lookup is kept in the
  /// view's memo, so the walk does not repeat it.
  private func prefetchWalks(
    _ views: UnsafeMutableBufferPointer<URLView?>, _ probes: UnsafeMutablePointer<Probe>
  ) {
    guard !slots.isEmpty else { return }
    var live = 0
    for position in views.indices {
      guard let view = views[position], let memo = view.memo,
        let segments = view.segments.baseAddress, !view.segments.isEmpty
      else { continue }
      let count = Int32(view.segments.count)
      if let scheme = view.scheme {
        let root = root(forScheme: scheme.bytes)
        views[position]!.schemeRoot = root
        if root >= 0 {
          probes[live] = Probe(
            segments: segments, segmentCount: count, segment: 0, node: root, memo: memo)
          aim(&probes[live])
          live += 1
        }
      }
      probes[live] = Probe(
        segments: segments, segmentCount: count, segment: 0, node: globalRoot, memo: memo + 1)
      aim(&probes[live])
      live += 1
    }
    let nodeBase = nodes.baseAddress!
    while live > 0 {
      var kept = 0
      for position in 0..<live {
        var probe = probes[position]
        let node = nodeBase + Int(probe.node)
        if probe.segment == probe.segmentCount {
          prefetchTerminals(of: node.pointee)
          continue
        }
        let literal = literalChild(
          of: probe.node, probe.segments[Int(probe.segment)].bytes, hash: probe.hash,
          word: probe.word)
        probe.memo[2 * Int(probe.segment)] = LiteralMemo(parent: probe.node, child: literal)
        var next = literal
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
        if probe.segment < probe.segmentCount { aim(&probe) }
        probes[kept] = probe
        kept += 1
      }
      live = kept
    }
  }

  /// Prefetches what ranking the routes that end at `node` reads beyond the node itself.
  @inline(__always)
  private func prefetchTerminals(of node: Node) {
    if node.terminals.count > 1 {
      appshell_prefetch(terminals.baseAddress! + Int(node.terminals.start))
    }
    let first = node.firstTerminal
    if first.route >= 0 && (first.flags & Terminal.domainFlag != 0 || first.constraints > 0) {
      appshell_prefetch(routeInfo.baseAddress! + Int(first.route))
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

/// A literal lookup the prefetch pass made: the literal child of `parent` for one segment
/// (-1: none). `parent` -1 marks an entry the pass did not fill.
struct LiteralMemo {
  var parent: Int32 = -1
  var child: Int32 = -1
}
