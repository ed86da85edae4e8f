import Shell

/// Delayed work from effects (`finishLater`, `cancelWork`), kept against a clock of the
/// caller's choosing: real time in the terminal, virtual time in `replay`.
package struct WorkScheduler<Instant: Comparable & Sendable>: Sendable {
  private var queue: [(due: Instant, token: Int, event: ShellEvent)] = []

  /// Makes an empty scheduler.
  package init() {}

  /// When the next work is due, if any.
  package var nextDue: Instant? { queue.min(by: { $0.due < $1.due })?.due }

  /// Schedules and cancels work as the effects ask; `now + delay` gives a due time.
  package mutating func apply(
    _ effects: [Effect], now: Instant, adding: (Instant, Duration) -> Instant
  ) {
    for effect in effects {
      switch effect {
      case .finishLater(let token, let delay, let result):
        queue.append((adding(now, delay), token, .workFinished(token: token, result: result)))
      case .cancelWork(let token):
        queue.removeAll { $0.token == token }
      case .expireBanner(let id, let delay):
        queue.append((adding(now, delay), id, .bannerExpired(id: id)))
      case .reload:
        break
      }
    }
  }

  /// Removes and returns the earliest event due by `now`, if any.
  package mutating func popDue(now: Instant) -> ShellEvent? {
    guard let index = queue.indices.min(by: { queue[$0].due < queue[$1].due }),
      queue[index].due <= now
    else { return nil }
    return queue.remove(at: index).event
  }
}
