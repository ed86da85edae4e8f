import Foundation

/// Runs work on several threads and hands the results back in the order of the items, each
/// as soon as it and every one before it are done.
enum ParallelRunner {
  static func run<Item: Sendable, Output: Sendable>(
    _ items: [Item], jobs: Int, work: @escaping @Sendable (Item) -> Output,
    each: (Output) -> Void
  ) {
    let shared = Shared<Output>(count: items.count)
    let group = DispatchGroup()
    for _ in 0..<min(max(1, jobs), max(1, items.count)) {
      DispatchQueue.global().async(group: group) {
        while let index = shared.take() {
          shared.put(work(items[index]), at: index)
        }
      }
    }
    for index in items.indices { each(shared.wait(for: index)) }
    group.wait()
  }

  /// The next item to take and the results so far, behind a condition lock.
  private final class Shared<Output: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var next = 0
    private var results: [Output?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    /// The index of the next item to run; nil when none is left.
    func take() -> Int? {
      condition.lock()
      defer { condition.unlock() }
      guard next < results.count else { return nil }
      next += 1
      return next - 1
    }

    func put(_ output: Output, at index: Int) {
      condition.lock()
      results[index] = output
      condition.broadcast()
      condition.unlock()
    }

    /// Blocks until the result at `index` is in.
    func wait(for index: Int) -> Output {
      condition.lock()
      defer { condition.unlock() }
      while results[index] == nil { condition.wait() }
      return results[index]!
    }
  }
}
