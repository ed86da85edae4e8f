import Foundation
import Platform
import Routing

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Nanoseconds `body` takes, best of `rounds` (the least disturbed run).
func bestTime(rounds: Int, _ body: () -> Void) -> Double {
  var best = UInt64.max
  for _ in 0..<rounds {
    let start = now()
    body()
    best = min(best, now() - start)
  }
  return Double(best)
}

/// The memory the process holds, in bytes: resident on Linux, in use by malloc on macOS
/// (``CurrentProcess/memoryInUse()``); 0 if unknown.
func residentBytes() -> Int { CurrentProcess.memoryInUse() ?? 0 }

/// Keeps a value alive so the optimizer cannot drop the work that made it.
@inline(never)
func consume<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// The floor: one pass over each URL's bytes finding split points (`/`, `?`, `&`, `=`) and
/// whether a `%` is present, with no allocation; what any router must at least do.
///
/// How fast this small loop runs depends on where its machine code lands: on this machine the
/// same code ran 20% slower in some builds (49 ns a URL instead of 41 at 10,000 routes; in one
/// such build its hot loop straddled a 64-byte boundary), so every ratio to the floor moved
/// with the layout of unrelated code. The loop is therefore compiled once for each of
/// ``floorCopies``, each copy distinct (`Copy` only sets the starting total, taken off again),
/// so the copies land at different places, and the floor is the fastest of them. That the
/// places differ enough is not guaranteed, only seen: in the builds checked, the four copies
/// started at four different offsets within a 64-byte line.
@inline(never)
func floorPass<Copy: FloorCopy>(_ corpus: URLCorpus, _: Copy.Type) -> Int {
  var total = Copy.start
  corpus.eachURL { url in
    var splits = 0
    var percent = false
    for byte in url {
      switch byte {
      case 0x2F, 0x3F, 0x26, 0x3D: splits &+= 1
      case 0x25: percent = true
      default: break
      }
    }
    total &+= splits &+ (percent ? 1 : 0)
  }
  return total &- Copy.start
}

/// What makes each compiled copy of ``floorPass(_:_:)`` distinct.
protocol FloorCopy { static var start: Int { get } }
enum FloorCopyA: FloorCopy { static var start: Int { 0x1111 } }
enum FloorCopyB: FloorCopy { static var start: Int { 0x2222 } }
enum FloorCopyC: FloorCopy { static var start: Int { 0x3333 } }
enum FloorCopyD: FloorCopy { static var start: Int { 0x4444 } }

/// The copies of the floor's loop: each pass over the corpus, by itself.
let floorCopies: [@Sendable (URLCorpus) -> Int] = [
  { floorPass($0, FloorCopyA.self) }, { floorPass($0, FloorCopyB.self) },
  { floorPass($0, FloorCopyC.self) }, { floorPass($0, FloorCopyD.self) },
]

/// Nanoseconds of each copy of the floor's loop, one pass each.
func floorTimes(_ corpus: URLCorpus) -> [Double] {
  floorCopies.map { copy in bestTime(rounds: 1) { consume(copy(corpus)) } }
}

/// Resident bytes per route that compiling a workload's patterns and building its router
/// keep (freed scratch memory is handed back to the system before each reading), and the
/// compiled routes.
func memoryPerRoute(of workload: Workload) -> (Double, [Router.Route]) {
  let texts = workload.patterns
  CurrentProcess.releaseFreeMemory()
  let before = residentBytes()
  let routes = texts.map {
    Router.Route(pattern: try! RoutePattern($0.text), priority: $0.priority)
  }
  let router = try! Router(routes)
  CurrentProcess.releaseFreeMemory()
  let after = residentBytes()
  consume(router)
  return (Double(after - before) / Double(texts.count), routes)
}
