import CMemory

// Looking up many URLs together. A lookup in a big table waits on memory (the index of
// 100,000 routes is megabytes, more than a core's caches hold). Reading a group of URLs first
// and prefetching, for all of them, the index entries their literal paths lead to (whose
// places follow from the URLs alone) lets those memory reads overlap; each walk then finds
// its data in the cache. The hints never change an answer: each URL is still decided by the
// same walk as a single lookup.

extension RouterIndex {
  /// How many URLs are read and prefetched together.
  static let batchWidth = 16

  /// The index size from which lookups prefetch: below it the index stays in a core's own
  /// cache (a typical L2 holds 1 MiB) and prefetching would only add work.
  static let prefetchThreshold = 1 << 20

  /// The index size from which a batch follows each URL's likely path level by level
  /// (``prefetchWalks(_:_:)``) rather than prefetching only its literal paths: the pass costs
  /// more work than it saves until the index is several times a core's cache.
  static let walkAheadThreshold = 8 << 20

  /// Scratch bytes per URL of a batch: the reader's, then the segment keys.
  private static let memberBytes =
    URLScanner.scratchBytes + URLScanner.maxSegments * MemoryLayout<SegmentKey>.stride

  /// Calls `body` with each group of up to ``batchWidth`` of `count` URLs: the index of its
  /// first URL, the views (nil where a URL needs the full reader, prepared otherwise) and
  /// whether the group was prefetched: with `prefetching` (nil: when the index is at least
  /// ``prefetchThreshold``), the entries the views' walks will read are fetched first (by
  /// ``prefetchWalks(_:_:)`` when forced, or from ``walkAheadThreshold``).
  @inline(__always)
  func withBatchGroups(
    count: Int, _ url: (Int) -> UnsafeBufferPointer<UInt8>, prefetching: Bool?,
    _ body: (_ first: Int, _ views: UnsafeBufferPointer<URLView?>, _ prefetched: Bool) -> Void
  ) {
    let width = Self.batchWidth
    let prefetches = prefetching ?? self.prefetches
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
          let keys = (scratch.baseAddress! + URLScanner.scratchBytes).bindMemory(
            to: SegmentKey.self, capacity: URLScanner.maxSegments)
          var view = URLScanner.scan(url(first + member), scratch: scratch, keys: keys)
          if view != nil { prepare(&view!, keys) }
          (views + member).initialize(to: view)
        }
        if prefetches {
          if prefetching == true || byteCount >= Self.walkAheadThreshold {
            prefetchWalks(UnsafeBufferPointer(start: views, count: group), probes)
          } else {
            for member in 0..<group where views[member] != nil { prefetchPaths(views[member]!) }
          }
        }
        body(first, UnsafeBufferPointer(start: views, count: group), prefetches)
        views.deinitialize(count: group)
        first += group
      }
    }
  }

  /// One URL's likely path through one trie, as the prefetch pass follows it.
  struct Probe {
    /// The URL's segment keys and segments.
    var keys: UnsafePointer<SegmentKey>
    var segments: UnsafePointer<ByteSlice>
    var segmentCount: Int32
    /// The segment the node's children are looked up by; `segmentCount` at the path's end.
    var segment: Int32
    /// The node reached, and its path hash.
    var node: Int32
    var path: UInt64
  }

  /// Follows each prepared view's most likely path through its scheme's trie and the global
  /// trie, one level at a time across all views: each round reads the entries the round
  /// before prefetched, finds the next node (the literal child, else the least specific typed
  /// one) and prefetches the places its children will be searched, or at the path's end the
  /// terminals and route data ranking will read.
  func prefetchWalks(_ views: UnsafeBufferPointer<URLView?>, _ probes: UnsafeMutablePointer<Probe>)
  {
    var live = 0
    for view in views {
      guard let view, let keys = view.keys, let segments = view.segments.baseAddress else {
        continue
      }
      let count = Int32(view.segments.count)
      if view.schemePosition >= 0 {
        let scheme = schemes[Int(view.schemePosition)]
        probes[live] = Probe(
          keys: keys, segments: segments, segmentCount: count, segment: 0, node: scheme.root,
          path: scheme.path)
        live += 1
      }
      probes[live] = Probe(
        keys: keys, segments: segments, segmentCount: count, segment: 0, node: globalRoot,
        path: Self.globalPath)
      live += 1
    }
    // The first round's entries (the roots) are few and stay cached.
    for position in 0..<live { aim(probes[position]) }
    while live > 0 {
      var kept = 0
      for position in 0..<live {
        var probe = probes[position]
        guard probe.segment < probe.segmentCount else { continue }
        let key = probe.keys[Int(probe.segment)]
        let literalPath = Self.step(probe.path, key.hash)
        let edge = entries[Int(probe.node)].edge
        var next =
          edge & Edge.literalChildren == 0
          ? -1
          : literalChild(
            literalPath, of: probe.node, key, probe.segments[Int(probe.segment)].bytes)
        var nextPath = literalPath
        if next < 0 {
          let typed = edge & Edge.childMask
          guard typed != 0 else { continue }
          let kind =
            typed & Edge.childBit(Edge.string) != 0
            ? Edge.string
            : typed & Edge.childBit(Edge.uuid) != 0
              ? Edge.uuid : typed & Edge.childBit(Edge.float) != 0 ? Edge.float : Edge.int
          nextPath = Self.step(probe.path, Edge.hash(kind))
          next = child(nextPath, of: probe.node, word: 0, kind: kind)
          guard next >= 0 else { continue }
        }
        probe.node = next
        probe.path = nextPath
        probe.segment += 1
        aim(probe)
        if probe.segment < probe.segmentCount {
          probes[kept] = probe
          kept += 1
        }
      }
      live = kept
    }
  }

  /// Prefetches what the next round reads for a probe: where its node's literal and typed
  /// children are searched, or at the path's end, the node's terminal list (or the route data
  /// of its one inline terminal, when that has a domain or query constraints).
  @inline(__always)
  private func aim(_ probe: Probe) {
    let base = entries.baseAddress!
    let entry = entries[Int(probe.node)]
    if probe.segment == probe.segmentCount {
      if entry.edge & Edge.inline != 0 {
        let terminal = entry.inlineTerminal
        if terminal.flags & Terminal.domainFlag != 0 || terminal.constraints > 0 {
          appshell_prefetch(routeInfo.baseAddress! + Int(terminal.route))
        }
      } else if entry.endCount > 0 {
        appshell_prefetch(terminals.baseAddress! + Int(entry.terminalStart))
      } else if entry.restCount > 0 {
        appshell_prefetch(
          terminals.baseAddress! + Int(entry.terminalStart + entry.pathCount))
      }
      return
    }
    if entry.edge & Edge.literalChildren != 0 {
      let key = probe.keys[Int(probe.segment)]
      appshell_prefetch(base + home(Self.step(probe.path, key.hash)))
    }
    let typed = entry.edge & Edge.childMask
    if typed != 0 {
      for kind in [Edge.int, Edge.float, Edge.uuid, Edge.string]
      where typed & Edge.childBit(kind) != 0 {
        appshell_prefetch(base + home(Self.step(probe.path, Edge.hash(kind))))
      }
    }
  }
}
