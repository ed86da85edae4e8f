import CMemory

/// Where each route's parameters come from, per expansion of its optional groups: a flat
/// table read when a match is made, so making one does not walk the route's pattern.
///
/// Only routes with at most ``maxStoredGroups`` optional groups are planned ahead (a route
/// stands for 2^groups expansions, so storing every one of 8 groups could take 256 copies of
/// a long route); the others are planned when they match.
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
      /// The query item whose key is `key`.
      case query
    }
    var source: Source
    var type: CaptureType
    var position: Int32
    var name: String
    /// The query key, for `.query`.
    var key: String = ""
  }

  /// Routes with more optional groups than this are planned when they match.
  static let maxStoredGroups = 2

  private(set) var steps: ContiguousArray<Step> = []
  /// Per plan (route and expansion), where its steps start; one more entry marks the end.
  private var stepStart: ContiguousArray<Int32> = [0]
  /// Per route, the plan of its expansion 0 (its other expansions follow), or -1 when the
  /// route is planned when it matches.
  private var firstPlan: ContiguousArray<Int32> = []

  /// No plans yet, with room for `capacity` routes'.
  init(capacity: Int) {
    firstPlan.reserveCapacity(capacity)
  }

  /// Adds the plans of the next route.
  mutating func add(_ pattern: RoutePattern) {
    guard pattern.groups.count <= Self.maxStoredGroups else {
      firstPlan.append(-1)
      return
    }
    firstPlan.append(Int32(stepStart.count - 1))
    for expansion in 0..<(1 << pattern.groups.count) {
      Self.addSteps(pattern, expansion, to: &steps)
      stepStart.append(Int32(steps.count))
    }
  }

  /// The stored steps for one route and expansion (indices into ``steps``), or nil when the
  /// route is planned when it matches (``steps(of:expansion:)``).
  func storedSteps(route: Int, expansion: Int) -> Range<Int>? {
    let first = firstPlan[route]
    guard first >= 0 else { return nil }
    let plan = Int(first) + expansion
    return Int(stepStart[plan])..<Int(stepStart[plan + 1])
  }

  /// Prefetches the stored steps of the winners of a batch, in three rounds (each route's
  /// plan, the plan's start, the steps), so that the reads of one round overlap.
  func prefetch(_ winners: UnsafeBufferPointer<RouterIndex.Candidate>) {
    firstPlan.withUnsafeBufferPointer { firstPlan in
      for winner in winners where winner.route >= 0 {
        appshell_prefetch(firstPlan.baseAddress! + Int(winner.route))
      }
      stepStart.withUnsafeBufferPointer { stepStart in
        for winner in winners where winner.route >= 0 && firstPlan[Int(winner.route)] >= 0 {
          appshell_prefetch(
            stepStart.baseAddress! + Int(firstPlan[Int(winner.route)] + winner.expansion))
        }
        steps.withUnsafeBufferPointer { steps in
          for winner in winners where winner.route >= 0 && firstPlan[Int(winner.route)] >= 0 {
            let start = stepStart[Int(firstPlan[Int(winner.route)] + winner.expansion)]
            if Int(start) < steps.count { appshell_prefetch(steps.baseAddress! + Int(start)) }
          }
        }
      }
    }
  }

  /// The steps of one expansion of `pattern`, made now.
  static func steps(of pattern: RoutePattern, expansion: Int) -> ContiguousArray<Step> {
    var steps: ContiguousArray<Step> = []
    addSteps(pattern, expansion, to: &steps)
    return steps
  }

  /// Query-constraint captures first, then path captures, so path captures win (ROUTING.md 5).
  private static func addSteps(
    _ pattern: RoutePattern, _ expansion: Int, to steps: inout ContiguousArray<Step>
  ) {
    for constraint in pattern.constraints {
      guard case .capture(let type, let name) = constraint.value else { continue }
      steps.append(Step(source: .query, type: type, position: 0, name: name, key: constraint.key))
    }
    var position: Int32 = 0
    for segment in pattern.expansion(expansion) {
      switch segment.kind {
      case .literal:
        break
      case .capture(let type):
        if let name = segment.name {
          steps.append(Step(source: .segment, type: type, position: position, name: name))
        }
      case .path:
        steps.append(
          Step(source: .path, type: .path, position: position, name: segment.name ?? "path"))
      case .rest:
        steps.append(Step(source: .rest, type: .string, position: position, name: "*"))
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
    case .float:
      if let value = exactFloatValue(slice.bytes) { return .float(value) }
      return value(of: slice.string)
    case .uuid:
      guard bytesAreUUID(slice.bytes) else { return nil }
      return .string(uppercaseASCII(slice.bytes))
    }
  }
}

/// The value of a float segment without an exponent and with at most 15 digits, which needs
/// no general parser: the digits as an integer (exact below 2^53) divided by an exact power
/// of ten, one correctly rounded division, the same Double as `Double(text)`; nil for any
/// other text (the caller then parses it in full).
@inline(__always)
func exactFloatValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
  var index = 0
  let negative = !bytes.isEmpty && bytes[0] == 0x2D
  if !bytes.isEmpty && (bytes[0] == 0x2D || bytes[0] == 0x2B) { index = 1 }
  var mantissa: Int64 = 0
  var digits = 0
  var fractionDigits = 0
  var seenPoint = false
  while index < bytes.count {
    let byte = bytes[index]
    if byte == 0x2E && !seenPoint {
      seenPoint = true
    } else if byte.isASCIIDigit {
      mantissa = mantissa &* 10 &+ Int64(byte &- 0x30)
      digits += 1
      if seenPoint { fractionDigits += 1 }
    } else {
      return nil
    }
    index += 1
  }
  guard digits > 0, digits <= 15 else { return nil }
  let value = Double(mantissa) / exactPowersOfTen[fractionDigits]
  return negative ? -value : value
}

/// 10^0 to 10^15, each exact as a Double.
private let exactPowersOfTen: [Double] = (0...15).map { power in
  (0..<power).reduce(1.0) { value, _ in value * 10 }
}

/// ASCII bytes as a string with the letters in uppercase.
@inline(__always)
func uppercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
  String(unsafeUninitializedCapacity: bytes.count) { buffer in
    for offset in 0..<bytes.count {
      let byte = bytes[offset]
      buffer[offset] = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
    }
    return bytes.count
  }
}
