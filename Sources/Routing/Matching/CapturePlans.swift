/// Where each route's parameters come from, per expansion of its optional groups: one flat
/// table read when a match is made, so making one does not walk the route's pattern.
struct CapturePlans: Sendable {
  /// One parameter to take from the URL.
  struct Step: Sendable {
    enum Source: UInt8, Sendable {
      /// A typed path segment at `position`.
      case segment
      /// The segments from `position` on, joined with `/`.
      case path
      /// The segments from `position` on, as an array.
      case rest
      /// The query item whose key is `keyBytes[position..<position + keyLength]`.
      case query
    }
    var source: Source
    var type: CaptureType
    var position: Int32
    var keyLength: Int32
    var name: String
  }

  private(set) var steps: ContiguousArray<Step> = []
  /// Query-constraint keys, back to back.
  private(set) var keyBytes: ContiguousArray<UInt8> = []
  /// Per plan (route and expansion), where its steps start; one more entry marks the end.
  private var stepStart: ContiguousArray<Int32> = [0]
  /// Per route, the plan of its expansion 0; its other expansions follow.
  private var firstPlan: ContiguousArray<Int32> = []

  init(_ routes: [Router.Route]) {
    firstPlan.reserveCapacity(routes.count)
    for route in routes {
      let pattern = route.pattern
      firstPlan.append(Int32(stepStart.count - 1))
      for expansion in 0..<(1 << pattern.groups.count) {
        addSteps(pattern, expansion)
        stepStart.append(Int32(steps.count))
      }
    }
  }

  /// The steps for one route and expansion: query-constraint captures first, then path
  /// captures, so path captures win (ROUTING.md 5).
  func steps(route: Int, expansion: Int) -> Range<Int> {
    let plan = Int(firstPlan[route]) + expansion
    return Int(stepStart[plan])..<Int(stepStart[plan + 1])
  }

  private mutating func addSteps(_ pattern: RoutePattern, _ expansion: Int) {
    for constraint in pattern.constraints {
      guard case .capture(let type, let name) = constraint.value else { continue }
      let key = Array(constraint.key.utf8)
      steps.append(
        Step(
          source: .query, type: type, position: Int32(keyBytes.count),
          keyLength: Int32(key.count), name: name))
      keyBytes.append(contentsOf: key)
    }
    var position: Int32 = 0
    for segment in pattern.expansion(expansion) {
      switch segment.kind {
      case .literal:
        break
      case .capture(let type):
        if let name = segment.name {
          steps.append(
            Step(source: .segment, type: type, position: position, keyLength: 0, name: name))
        }
      case .path:
        steps.append(
          Step(
            source: .path, type: .path, position: position, keyLength: 0,
            name: segment.name ?? "path"))
      case .rest:
        steps.append(
          Step(source: .rest, type: .string, position: position, keyLength: 0, name: "*"))
      }
      position += 1
    }
  }
}

extension CaptureType {
  /// The typed value of a captured slice the matcher has already checked, or nil when it
  /// does not fit after all.
  @inline(__always)
  func value(of slice: ByteSlice) -> ParamValue? {
    switch self {
    case .string, .path: return .string(slice.string)
    case .int: return intValue(slice.bytes).map(ParamValue.int)
    case .float, .uuid: return value(of: slice.string)
    }
  }
}
