/// A compiled, immutable set of route patterns that finds and ranks the routes matching a URL
/// (ROUTING.md sections 3 to 5).
///
/// Patterns are compiled once into one segment trie per scheme plus one for global patterns,
/// so the cost of a lookup depends on the URL and the routes it could match, not on how many
/// routes there are.
public struct Router: Sendable {
  /// One route: a pattern and its priority. Its index in ``routes`` identifies it in matches.
  public struct Route: Sendable, Equatable {
    /// The compiled pattern.
    public var pattern: RoutePattern
    /// Higher wins (ROUTING.md section 4, rule 1).
    public var priority: Int

    /// Makes a route.
    public init(pattern: RoutePattern, priority: Int = 0) {
      self.pattern = pattern
      self.priority = priority
    }
  }

  /// The routes, in the order they were listed.
  public let routes: [Route]
  private let index: RouterIndex
  private let plans: CapturePlans

  /// Compiles routes; two routes (or two expansions of one) that no URL can tell apart are a
  /// ``RouteConflict``.
  public init(_ routes: [Route]) throws(RouteConflict) {
    self.routes = routes
    var refuse: [RouteConflict]? = nil
    var plans = CapturePlans(capacity: routes.count)
    index = try RouterIndex(routes: routes, collecting: &refuse, plans: &plans)
    self.plans = plans
  }

  /// Compiles routes without refusing conflicts, for inspecting a table (`appshell routes
  /// --lint`): every pair of routes that no URL can tell apart is returned in `conflicts`
  /// (later route first, in the order found, each pair once; a route paired with itself when
  /// two of its expansions are the same), and both are kept, so a URL they both match goes to
  /// the route listed first (ROUTING.md section 4, rule 6).
  public init(_ routes: [Route], conflicts: inout [RouteConflict]) {
    self.routes = routes
    var found: [RouteConflict]? = []
    var plans = CapturePlans(capacity: routes.count)
    do {
      index = try RouterIndex(routes: routes, collecting: &found, plans: &plans)
    } catch {
      preconditionFailure("a router that collects conflicts threw \(error)")
    }
    self.plans = plans
    var seen: Set<RouteConflict> = []
    for conflict in found ?? [] where seen.insert(conflict).inserted {
      conflicts.append(conflict)
    }
  }

  /// The best route for `url`, with its parameters, or nil when none matches.
  public func match(_ url: RouteURL) -> RouteMatch? {
    url.withView { view in
      let best = decide(view)
      return best.route < 0 ? nil : makeMatch(best, view)
    }
  }

  /// Every route that matches `url`, best first, each once (with its best expansion) and with
  /// its parameters.
  public func matches(_ url: RouteURL) -> [RouteMatch] {
    url.withView { view in
      var all: [RouterIndex.Candidate] = []
      withUnsafeMutablePointer(to: &all) { all in
        var sink = RouterIndex.Sink(all: all)
        index.walkAll(view, &sink)
      }
      var seen: Set<Int32> = []
      return all.sorted(by: index.isRankedBefore).filter { seen.insert($0.route).inserted }
        .map { makeMatch($0, view) }
    }
  }

  /// The index of the best route for the URL in `bytes`, or nil when none matches or the URL
  /// cannot be read. Reads the bytes in place: no allocation for ordinary ASCII URLs.
  public func decide(bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    if let route = index.decide(bytes) {
      return route < 0 ? nil : Int(route)
    }
    guard let url = try? RouteURL(bytes: Array(bytes)) else { return nil }
    return url.withView { view in
      let route = decide(view).route
      return route < 0 ? nil : Int(route)
    }
  }

  /// The best route for the URL in `bytes`, with its parameters, or nil when none matches or
  /// the URL cannot be read.
  public func match(bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch? {
    switch fastMatch(bytes) {
    case .some(let result): return result
    case .none: return (try? RouteURL(bytes: Array(bytes))).flatMap(match)
    }
  }

  /// Decides `count` URLs, the URL at each index given by `url`, and calls `body` with each
  /// index and its route (nil when none matches or the URL cannot be read), in order.
  ///
  /// The answers are those of ``decide(bytes:)``; on a big table they come faster per URL,
  /// because URLs are read in groups and the memory each one's lookup needs is fetched while
  /// the others are read.
  public func decide(
    count: Int, url: (Int) -> UnsafeBufferPointer<UInt8>, _ body: (Int, Int?) -> Void
  ) {
    decide(count: count, url: url, prefetching: nil, body)
  }

  /// ``decide(count:url:_:)``, prefetching or not as told (nil: when the index is big).
  func decide(
    count: Int, url: (Int) -> UnsafeBufferPointer<UInt8>, prefetching: Bool?,
    _ body: (Int, Int?) -> Void
  ) {
    eachBatchGroup(count: count, url: url, prefetching: prefetching) { first, views, best, _ in
      for member in views.indices {
        let route =
          views[member] == nil
          ? decide(bytes: url(first + member))
          : best[member].route < 0 ? nil : Int(best[member].route)
        body(first + member, route)
      }
    }
  }

  /// Matches `count` URLs, the URL at each index given by `url`, and calls `body` with each
  /// index and its best match (nil when none matches or the URL cannot be read), in order.
  ///
  /// The answers are those of ``match(bytes:)``, faster per URL on a big table, as with
  /// ``decide(count:url:_:)``.
  public func match(
    count: Int, url: (Int) -> UnsafeBufferPointer<UInt8>, _ body: (Int, RouteMatch?) -> Void
  ) {
    match(count: count, url: url, prefetching: nil, body)
  }

  /// ``match(count:url:_:)``, prefetching or not as told (nil: when the index is big).
  func match(
    count: Int, url: (Int) -> UnsafeBufferPointer<UInt8>, prefetching: Bool?,
    _ body: (Int, RouteMatch?) -> Void
  ) {
    // One list of parameters serves every match whose caller did not keep it: refilled in
    // place, it costs no allocation and no freeing per URL.
    var reused = Parameters()
    eachBatchGroup(count: count, url: url, prefetching: prefetching) {
      first, views, best, prefetched in
      if prefetched { plans.prefetch(best) }
      for member in views.indices {
        guard let view = views[member] else {
          body(first + member, match(bytes: url(first + member)))
          continue
        }
        guard best[member].route >= 0 else {
          body(first + member, nil)
          continue
        }
        body(first + member, makeMatch(best[member], view, into: &reused, reusing: true))
      }
    }
  }

  /// Each group of a batch (``RouterIndex/withBatchGroups(count:_:prefetching:_:)``) with the
  /// best candidate of each URL the in-place reader took (route -1: none, or not read).
  private func eachBatchGroup(
    count: Int, url: (Int) -> UnsafeBufferPointer<UInt8>, prefetching: Bool?,
    _ body: (
      _ first: Int, _ views: UnsafeBufferPointer<URLView?>, _ best: UnsafeBufferPointer<Candidate>,
      _ prefetched: Bool
    ) -> Void
  ) {
    withUnsafeTemporaryAllocation(of: Candidate.self, capacity: RouterIndex.batchWidth) { best in
      index.withBatchGroups(count: count, url, prefetching: prefetching) {
        first, views, prefetched in
        for member in views.indices {
          // Not `views[member].map(decide)`: a partially applied method copies the router.
          var candidate = Candidate()
          if let view = views[member] { candidate = decide(view) }
          (best.baseAddress! + member).initialize(to: candidate)
        }
        body(first, views, UnsafeBufferPointer(rebasing: best[..<views.count]), prefetched)
      }
    }
  }

  /// Bytes the compiled index holds; lookups prefetch from 1 MiB, where it stops fitting a
  /// core's own cache.
  public var indexByteCount: Int { index.byteCount }

  /// How far the index's entries sit past where their searches start (mean and longest).
  package var indexPlacement: (mean: Double, longest: Int) { index.placement }

  /// The best match read in place: `.some(nil)` when no route matches, nil when the URL needs
  /// the full reader (``RouteURL``) to decide.
  func fastMatch(_ bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch?? {
    URLScanner.scan(bytes) { view -> RouteMatch? in
      let best = decide(view)
      return best.route < 0 ? nil : makeMatch(best, view)
    }
  }

  /// The best candidate for a view (route -1 when none).
  @inline(__always)
  private func decide(_ view: URLView) -> RouterIndex.Candidate {
    var sink = RouterIndex.Sink()
    index.walkAll(view, &sink)
    return sink.best
  }

  private typealias Candidate = RouterIndex.Candidate

  // MARK: - Parameters

  private func makeMatch(_ candidate: Candidate, _ view: URLView) -> RouteMatch {
    var params = Parameters()
    return makeMatch(candidate, view, into: &params, reusing: false)
  }

  /// A match with its parameters made in `params`: a new list, or, `reusing`, `params`
  /// emptied first (its storage kept when no other value shares it).
  @inline(__always)
  private func makeMatch(
    _ candidate: Candidate, _ view: URLView, into params: inout Parameters, reusing: Bool
  ) -> RouteMatch {
    let route = Int(candidate.route)
    let expansion = Int(candidate.expansion)
    let stored = plans.storedSteps(route: route, expansion: expansion)
    let planned =
      stored == nil
      ? CapturePlans.steps(of: routes[route].pattern, expansion: expansion) : []
    let query = view.query
    let stepCount = stored?.count ?? planned.count
    // Room for every query item and capture at once, so the list is not regrown.
    if reusing {
      params.removeAll(reservingCapacity: query.count + stepCount)
    } else {
      params = Parameters(minimumCapacity: query.count + stepCount)
    }
    if query.contains(where: { $0.key.bytes.contains { $0 >= 0x80 } }) {
      // Keys are Swift strings: canonically equivalent keys are one key, their values merged.
      var order: [String] = []
      var values: [String: [String]] = [:]
      for item in query {
        let key = item.key.string
        if values[key] == nil { order.append(key) }
        values[key, default: []].append(item.value.string)
      }
      for key in order {
        let all = values[key]!
        params.append(key, all.count == 1 ? .string(all[0]) : .strings(all))
      }
    } else {
      addASCIIQuery(query, to: &params)
    }
    // A pattern's names are unique (`RoutePattern` refuses a repeat), so without query
    // parameters every capture is a new key, appended without a search.
    let fresh = params.isEmpty
    if let stored {
      for index in stored { addCapture(plans.steps[index], view, to: &params, fresh: fresh) }
    } else {
      for step in planned { addCapture(step, view, to: &params, fresh: fresh) }
    }
    return RouteMatch(route: route, expansion: Int(candidate.expansion), params: params)
  }

  /// Query items with ASCII keys as parameters: byte equality is key equality.
  private func addASCIIQuery(_ query: UnsafeBufferPointer<QueryPiece>, to params: inout Parameters)
  {
    for position in query.indices {
      let item = query[position]
      // Each key once, at its first appearance; a repeated key gives all its values.
      var repeated = false
      for earlier in 0..<position where query[earlier].key.equals(item.key) {
        repeated = true
        break
      }
      if repeated { continue }
      var values: [String] = []
      for later in query[(position + 1)...] where later.key.equals(item.key) {
        if values.isEmpty { values.append(item.value.string) }
        values.append(later.value.string)
      }
      params.append(item.key.string, values.isEmpty ? .string(item.value.string) : .strings(values))
    }
  }

  /// Segments joined by `/`, as one string made in place.
  private static func joined(_ segments: Slice<UnsafeBufferPointer<ByteSlice>>) -> String {
    let count = segments.reduce(max(0, segments.count - 1)) { $0 + $1.count }
    return String(unsafeUninitializedCapacity: count) { buffer in
      var offset = 0
      for (number, segment) in segments.enumerated() {
        if number > 0 {
          buffer[offset] = 0x2F
          offset += 1
        }
        if segment.count > 0 {
          (buffer.baseAddress! + offset).initialize(from: segment.start!, count: segment.count)
          offset += segment.count
        }
      }
      return offset
    }
  }

  /// One capture (query-constraint captures come first, then path captures, which win);
  /// `fresh`: the parameters so far are only this plan's earlier steps, none with this name.
  @inline(__always)
  private func addCapture(
    _ step: CapturePlans.Step, _ view: URLView, to params: inout Parameters, fresh: Bool
  ) {
    let segments = view.segments
    let position = Int(step.position)
    let value: ParamValue?
    switch step.source {
    case .segment:
      value = step.type.value(of: segments[position])
    case .path:
      value = .string(Self.joined(segments[position...]))
    case .rest:
      // A closure, not a key path: a key path is made at run time, on every call.
      value = .strings(segments[position...].map { $0.string })
    case .query:
      var key = step.key
      let found = key.withUTF8 { key in
        view.query.first { $0.key.equals(ByteSlice(start: key.baseAddress, count: key.count)) }
      }
      value = found.flatMap { step.type.value(of: $0.value) }
    }
    guard let value else { return }
    if fresh {
      params.append(step.name, value)
    } else {
      params[step.name] = value
    }
  }
}

/// One route that matched a URL, with the URL's parameters (before any `rename`).
public struct RouteMatch: Sendable, Equatable {
  /// The index of the route in ``Router/routes``.
  public var route: Int
  /// Which expansion of the route's optional groups matched (see ``RoutePattern/expansions``).
  public var expansion: Int
  /// Query parameters, then query-constraint captures, then path captures (ROUTING.md 5).
  public var params: Parameters

  /// Makes a match.
  public init(route: Int, expansion: Int, params: Parameters) {
    self.route = route
    self.expansion = expansion
    self.params = params
  }
}

/// Two routes that can never be told apart; `route == other` when two expansions of one
/// route's optional groups are the same.
public struct RouteConflict: Error, Sendable, Hashable {
  /// The later route.
  public var route: Int
  /// The earlier route it cannot be told apart from (or itself).
  public var other: Int

  /// Makes a conflict between a later route and an earlier one (or itself).
  public init(route: Int, other: Int) {
    self.route = route
    self.other = other
  }
}

extension QueryConstraint {
  /// Whether the URL has this key exactly once, with a fitting value.
  func accepts(_ url: RouteURL) -> Bool {
    var found: String?
    for item in url.query where item.key.isExactly(key) {
      if found != nil { return false }
      found = item.value
    }
    guard let found else { return false }
    switch value {
    case .literal(let literal): return found.isExactly(literal)
    case .capture(let type, _): return type.value(of: found) != nil
    }
  }
}
