// Placing a built trie's nodes in the index's hash table, and flattening their route lists.

extension RouterIndex.Builder {
  fileprivate typealias Entry = RouterIndex.Entry
  fileprivate typealias Edge = RouterIndex.Edge

  /// Places every node in the index's hash table at the first free place from its path
  /// hash's home (parents before children, so each parent's place is known), with half the
  /// table left free so that a search for a missing child ends soon; then flattens the
  /// terminal lists.
  mutating func finish() -> RouterIndex.Tables {
    let capacity = max(16, nodes.count * 2)
    index.entries = Array(repeating: Entry(), count: capacity)
    var places = [Int32](repeating: -1, count: nodes.count)
    var paths = [UInt64](repeating: 0, count: nodes.count)
    var totalDistance = 0
    var rootNumber: UInt64 = 0
    index.terminals.reserveCapacity(entries.count)
    let bounds = subtreeBounds()
    for position in nodes.indices {
      let node = nodes[position]
      var entry = Entry()
      if node.parent < 0 {
        paths[position] = position == 0 ? RouterIndex.globalPath : schemePath(position)
        entry.parent = -2
        entry.word = rootNumber
        rootNumber += 1
      } else {
        paths[position] = RouterIndex.step(paths[Int(node.parent)], node.hash)
        entry.parent = places[Int(node.parent)]
        entry.word = node.word
        if node.kind == Edge.longLiteral {
          let start = UInt64(index.text.count)
          withUnsafeBytes(of: UInt32(node.textCount).littleEndian) { index.text += $0 }
          index.text += literalText[Int(node.textStart)..<Int(node.textStart + node.textCount)]
          entry.word = UInt64(UInt32(truncatingIfNeeded: node.word)) | start << 32
        }
      }
      entry.edge = node.kind
      if node.int >= 0 { entry.edge |= Edge.childBit(Edge.int) }
      if node.float >= 0 { entry.edge |= Edge.childBit(Edge.float) }
      if node.uuid >= 0 { entry.edge |= Edge.childBit(Edge.uuid) }
      if node.string >= 0 { entry.edge |= Edge.childBit(Edge.string) }
      if node.hasLiterals { entry.edge |= Edge.literalChildren }
      let counts = (count(node.ends), count(node.paths), count(node.rests))
      if entry.edge & Edge.childMask != 0 || counts.1 + counts.2 > 0 {
        entry.edge |= Edge.branches
      }
      entry.edge |= bounds[position] << Edge.boundShift
      if counts == (1, 0, 0) {
        entry.setInline(entries[Int(node.ends.first)].terminal)
      } else {
        entry.lists = (Int32(index.terminals.count), counts.0, counts.1, counts.2)
        for list in 0..<3 {
          var next = node[list: list].first
          while next >= 0 {
            index.terminals.append(entries[Int(next)].terminal)
            next = entries[Int(next)].next
          }
        }
      }
      var place = Int(truncatingIfNeeded: ((paths[position] >> 32) &* UInt64(capacity)) >> 32)
      var distance = 0
      while index.entries[place].parent != -1 {
        place = place + 1 == capacity ? 0 : place + 1
        distance += 1
      }
      totalDistance += distance
      index.placement.longest = max(index.placement.longest, distance)
      index.entries[place] = entry
      places[position] = Int32(place)
    }
    index.placement.mean = Double(totalDistance) / Double(nodes.count)
    index.globalRoot = places[0]
    for scheme in index.schemes.indices {
      index.schemes[scheme].root = places[Int(index.schemes[scheme].root)]
    }
    index.text.append(0)  // never empty, so a base address always exists
    return index
  }

  /// Each node's bound (``Edge/bound(_:)``): the highest rank key of the terminals at or
  /// below it. Children come after their parents, so one pass from the end carries each
  /// node's bound up to its parent.
  private func subtreeBounds() -> [UInt32] {
    var bounds = [UInt32](repeating: 0, count: nodes.count)
    for position in nodes.indices.reversed() {
      let node = nodes[position]
      var bound = bounds[position]
      for list in 0..<3 {
        var next = node[list: list].first
        while next >= 0 {
          let terminal = entries[Int(next)].terminal
          bound = max(
            bound,
            terminal.priority > Edge.maxBoundPriority
              ? Edge.unbounded
              : UInt32(Edge.rankKey(priority: terminal.priority, flags: terminal.flags)))
          next = entries[Int(next)].next
        }
      }
      bounds[position] = bound
      if node.parent >= 0 {
        bounds[Int(node.parent)] = max(bounds[Int(node.parent)], bound)
      }
    }
    return bounds
  }

  /// The path hash of the scheme root that is node `node`.
  private func schemePath(_ node: Int) -> UInt64 {
    index.schemes.first { $0.root == Int32(node) }!.path
  }

  /// How many terminals a linked list holds.
  private func count(_ list: List) -> Int32 {
    var count: Int32 = 0
    var next = list.first
    while next >= 0 {
      count += 1
      next = entries[Int(next)].next
    }
    return count
  }
}
