import CMemory

// Walking the index: reading a URL's segments down its scheme's trie and the global one,
// depth first in the order of ROUTING.md section 4, and ranking what ends there.

extension RouterIndex {
  /// A (route, expansion) that matches, with its order of specificity within its trie
  /// (ROUTING.md section 4, rule 4): lower is more specific.
  struct Candidate {
    /// The route (-1: none) and which expansion of its optional groups matched.
    var route: Int32 = -1
    var expansion: Int32 = 0
    /// The order in which its terminal list was reached in its trie's walk.
    var specificity: Int32 = 0
    /// What ``Terminal`` says of the route: priority rank, flags, constraint count.
    var priority: Int32 = 0
    var flags: UInt8 = 0
    var constraints: UInt8 = 0
  }

  /// Where a walk puts what it finds: the best so far, or every candidate instead when `all`
  /// is set.
  struct Sink {
    /// The best candidate so far (route -1: none).
    var best = Candidate()
    /// The best candidate's ``Edge/rankKey(priority:flags:)`` (-1: none yet, or collecting
    /// all): subtrees whose bound is no higher hold nothing better and are skipped.
    var bestKey: Int32 = -1
    /// Where every candidate goes instead, when set (a pointer, so a sink stays a plain value
    /// that costs nothing to make or drop).
    var all: UnsafeMutablePointer<[Candidate]>?
  }

  /// The best route for raw URL bytes read in place (-1: none), or nil when the URL needs the
  /// full reader.
  @inline(__always)
  func decide(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
    URLScanner.scan(bytes) { view -> Int32 in
      var sink = Sink()
      walkAll(view, &sink)
      return sink.best.route
    }
  }

  /// Walks the URL's scheme trie, then the global one; fetches the entries of both literal
  /// paths first when the index is big (a batch has done both already).
  @inline(__always)
  func walkAll(_ view: URLView, _ sink: inout Sink) {
    if view.schemePosition != URLView.schemeNotLookedUp, let keys = view.keys {
      walkAll(view, keys, &sink)
      return
    }
    if let keys = view.keys {
      var prepared = view
      lookUpScheme(&prepared)
      if prefetches { prefetchPaths(prepared) }
      walkAll(prepared, keys, &sink)
      return
    }
    var prepared = view
    withUnsafeTemporaryAllocation(of: SegmentKey.self, capacity: max(1, view.segments.count)) {
      keys in
      prepare(&prepared, keys.baseAddress!)
      if prefetches { prefetchPaths(prepared) }
      walkAll(prepared, UnsafePointer(keys.baseAddress!), &sink)
    }
  }

  /// Fills in a view's segment keys (room for one per segment at `keys`), unless the reader
  /// has made them, and its scheme.
  @inline(__always)
  func prepare(_ view: inout URLView, _ keys: UnsafeMutablePointer<SegmentKey>) {
    if view.keys == nil {
      for position in view.segments.indices {
        keys[position] = SegmentKey(view.segments[position].bytes)
      }
      view.keys = UnsafePointer(keys)
    }
    lookUpScheme(&view)
  }

  /// Sets a view's place in the scheme list (-1: no scheme, or one with no routes).
  @inline(__always)
  private func lookUpScheme(_ view: inout URLView) {
    view.schemePosition = view.scheme.map { schemePosition($0.bytes) } ?? -1
  }

  /// Prefetches the entries along a prepared view's literal paths, in its scheme's trie and
  /// the global one: where each is, or where the search for it ends.
  @inline(__always)
  func prefetchPaths(_ view: URLView) {
    guard let keys = view.keys else { return }
    let base = entries.baseAddress!
    var global = Self.globalPath
    if view.schemePosition >= 0 {
      var path = schemes[Int(view.schemePosition)].path
      for position in view.segments.indices {
        path = Self.step(path, keys[position].hash)
        global = Self.step(global, keys[position].hash)
        appshell_prefetch(base + home(path))
        appshell_prefetch(base + home(global))
      }
    } else {
      for position in view.segments.indices {
        global = Self.step(global, keys[position].hash)
        appshell_prefetch(base + home(global))
      }
    }
  }

  /// Walks a prepared view through its scheme's trie, then the global one.
  @inline(__always)
  private func walkAll(_ view: URLView, _ keys: UnsafePointer<SegmentKey>, _ sink: inout Sink) {
    if view.schemePosition >= 0 {
      let scheme = schemes[Int(view.schemePosition)]
      walkTrie(scheme.root, scheme.path, view, keys, &sink)
    }
    walkTrie(globalRoot, Self.globalPath, view, keys, &sink)
  }

  /// Walks one trie from its root: the first nodes, as long as they have nothing but a
  /// literal child to try, are followed here, and ``walk(_:_:_:_:_:_:_:)`` is called only
  /// from the first node with more (or the path's end). A URL that leaves the trie early, as
  /// most do in a trie that is not theirs, then costs no call.
  @inline(__always)
  private func walkTrie(
    _ root: Int32, _ rootPath: UInt64, _ view: URLView, _ keys: UnsafePointer<SegmentKey>,
    _ sink: inout Sink
  ) {
    let base = entries.baseAddress!
    var node = root
    var path = rootPath
    var segment = 0
    while segment < view.segments.count {
      let edge = base[Int(node)].edge
      if Edge.bound(edge) <= sink.bestKey { return }
      if edge & Edge.branches != 0 { break }
      guard edge & Edge.literalChildren != 0 else { return }
      let (literal, literalPath) = literalStep(node, path, segment, view, keys)
      guard literal >= 0 else { return }
      node = literal
      path = literalPath
      segment += 1
    }
    var order: Int32 = 0
    walk(node, path, segment, view, keys, &order, &sink)
  }

  /// Rules 1 to 6 of ROUTING.md section 4.
  @inline(__always)
  func isRankedBefore(_ a: Candidate, _ b: Candidate) -> Bool {
    if a.priority != b.priority { return a.priority > b.priority }
    let flagsA = Terminal.flagRank(a.flags)
    let flagsB = Terminal.flagRank(b.flags)
    if flagsA != flagsB { return flagsA > flagsB }
    if a.specificity != b.specificity { return a.specificity < b.specificity }
    if a.constraints != b.constraints { return a.constraints > b.constraints }
    if a.route != b.route { return a.route < b.route }
    return a.expansion < b.expansion
  }

  /// Depth-first walk that visits children from the most to the least specific kind, so the
  /// order in which terminal lists are reached is the specificity order of rule 4. A chain of
  /// nodes with nothing but a literal child to try is followed in a loop; a subtree whose
  /// routes cannot outrank the best found so far (``Edge/bound(_:)``) is skipped.
  private func walk(
    _ start: Int32, _ startPath: UInt64, _ startSegment: Int, _ view: URLView,
    _ keys: UnsafePointer<SegmentKey>, _ order: inout Int32, _ sink: inout Sink
  ) {
    let base = entries.baseAddress!
    let segments = view.segments
    var node = start
    var path = startPath
    var segment = startSegment
    while true {
      let entry = base + Int(node)
      let edge = entry.pointee.edge
      if Edge.bound(edge) <= sink.bestKey { return }
      if segment == segments.count {
        if edge & Edge.inline != 0 {
          order += 1
          consider(entry.pointee.inlineTerminal, view, order, &sink)
          return
        }
        let lists = entry.pointee.lists
        collect(lists.0, lists.1, view, &order, &sink)
        collect(lists.0 + lists.1 + lists.2, lists.3, view, &order, &sink)
        return
      }
      if edge & Edge.literalChildren != 0 {
        let (literal, literalPath) = literalStep(node, path, segment, view, keys)
        if literal >= 0 {
          if edge & Edge.branches == 0 {
            node = literal
            path = literalPath
            segment += 1
            continue
          }
          walk(literal, literalPath, segment + 1, view, keys, &order, &sink)
        }
      }
      guard edge & Edge.branches != 0 else { return }
      if edge & Edge.childMask != 0 {
        let text = segments[segment].bytes
        if edge & Edge.childBit(Edge.int) != 0, bytesAreInt(text) {
          walkTyped(Edge.int, node, path, segment, view, keys, &order, &sink)
        }
        if edge & Edge.childBit(Edge.float) != 0, bytesAreFloat(text) {
          walkTyped(Edge.float, node, path, segment, view, keys, &order, &sink)
        }
        if edge & Edge.childBit(Edge.uuid) != 0, bytesAreUUID(text) {
          walkTyped(Edge.uuid, node, path, segment, view, keys, &order, &sink)
        }
        if edge & Edge.childBit(Edge.string) != 0 {
          walkTyped(Edge.string, node, path, segment, view, keys, &order, &sink)
        }
      }
      guard edge & Edge.inline == 0 else { return }
      let lists = entry.pointee.lists
      collect(lists.0 + lists.1, lists.2, view, &order, &sink)
      collect(lists.0 + lists.1 + lists.2, lists.3, view, &order, &sink)
      return
    }
  }

  /// The literal child of `node` for the view's segment at `segment` (-1: none) and its path
  /// hash.
  @inline(__always)
  private func literalStep(
    _ node: Int32, _ path: UInt64, _ segment: Int, _ view: URLView,
    _ keys: UnsafePointer<SegmentKey>
  ) -> (node: Int32, path: UInt64) {
    let key = keys[segment]
    let literalPath = Self.step(path, key.hash)
    return (literalChild(literalPath, of: node, key, view.segments[segment].bytes), literalPath)
  }

  /// Walks on from `node`'s typed child of `kind` (which exists).
  @inline(__always)
  private func walkTyped(
    _ kind: UInt32, _ node: Int32, _ path: UInt64, _ segment: Int, _ view: URLView,
    _ keys: UnsafePointer<SegmentKey>, _ order: inout Int32, _ sink: inout Sink
  ) {
    let childPath = Self.step(path, Edge.hash(kind))
    let child = child(childPath, of: node, word: 0, kind: kind)
    if child >= 0 { walk(child, childPath, segment + 1, view, keys, &order, &sink) }
  }

  /// Considers each terminal of a list, all with one specificity order.
  @inline(__always)
  private func collect(
    _ start: Int32, _ count: Int32, _ view: URLView, _ order: inout Int32, _ sink: inout Sink
  ) {
    guard count > 0 else { return }
    order += 1
    for position in Int(start)..<Int(start + count) {
      consider(terminals[position], view, order, &sink)
    }
  }

  /// Checks a route's domain and query constraints, then hands it to the sink.
  @inline(__always)
  private func consider(
    _ terminal: Terminal, _ view: URLView, _ order: Int32, _ sink: inout Sink
  ) {
    if terminal.flags & Terminal.domainFlag != 0 || terminal.constraints > 0 {
      let info = routeInfo[Int(terminal.route)]
      if info.domainCount >= 0 {
        guard let domain = view.domain,
          equalsTextIgnoringASCIICase(info.domainStart, info.domainCount, domain.bytes)
        else { return }
      }
      if info.constraintCount > 0 && !acceptsConstraints(info, view) { return }
    }
    let candidate = Candidate(
      route: terminal.route, expansion: Int32(terminal.expansion), specificity: order,
      priority: terminal.priority, flags: terminal.flags, constraints: terminal.constraints)
    if let all = sink.all {
      all.pointee.append(candidate)
    } else if sink.best.route < 0 || isRankedBefore(candidate, sink.best) {
      sink.best = candidate
      sink.bestKey = Edge.rankKey(priority: candidate.priority, flags: candidate.flags)
    }
  }

  /// Whether every query constraint of the route holds: its key once, with a fitting value.
  private func acceptsConstraints(_ info: RouteInfo, _ view: URLView) -> Bool {
    let start = Int(info.constraintStart)
    for position in start..<start + Int(info.constraintCount) {
      let constraint = constraints[position]
      var found: ByteSlice?
      for item in view.query
      where equalsText(constraint.keyStart, constraint.keyCount, item.key.bytes) {
        if found != nil { return false }
        found = item.value
      }
      guard let value = found else { return false }
      if constraint.literalCount >= 0 {
        guard equalsText(constraint.literalStart, constraint.literalCount, value.bytes) else {
          return false
        }
      } else if !constraint.type.accepts(value.bytes) {
        return false
      }
    }
    return true
  }
}

/// Byte-wise equality of two memory ranges.
@inline(__always)
func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var offset = 0
  while offset + 8 <= count {
    let x = UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self)
    let y = UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self)
    if x != y { return false }
    offset += 8
  }
  while offset < count {
    if a[offset] != b[offset] { return false }
    offset += 1
  }
  return true
}
