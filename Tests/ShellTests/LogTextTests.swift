import Routing
import Testing

@testable import Shell

/// The event log's wording, which the log pane, the socket's replies and `HeadlessSession.log`
/// all take from `LogEntry`.
@Suite struct LogTextTests {
  /// Each outcome: the log pane's text, the one-line summary's, and whether it is a problem.
  static let outcomes: [(LogEntry.Outcome, String, String, Bool)] = [
    (.pushed("product"), "pushed product", "pushed product", false),
    (.presented("login"), "presented login", "presented login", false),
    (.alreadyShown("cart"), "already showing cart", "already showing cart", false),
    (.handled(action: "like", status: "Liked"), "handled like: Liked", "like: Liked", false),
    (.started(action: "lookup"), "started lookup", "started lookup", false),
    (.notified("Ping"), "notified Ping", "posted Ping", false),
    (.guarded("signed-in"), "guarded by signed-in", "guarded by signed-in", false),
    (.restored, "restored state", "restored the state", false),
    (.refused("no"), "refused: no", "refused: no", true),
    (.failed(title: "No route", message: "x"), "No route: x", "No route: x", true),
    (
      .notDelivered(opens: "safari", reason: "excluded"), "opened in Safari: excluded",
      "opened in Safari: excluded", true
    ),
    (
      .notDelivered(opens: "nothing", reason: "no app"), "nothing opens it: no app",
      "nothing opens it: no app", true
    ),
  ]

  @Test func eachOutcomeHasItsWords() {
    for (outcome, text, summary, isProblem) in Self.outcomes {
      #expect(outcome.text == text)
      #expect(outcome.summary == summary)
      #expect(outcome.isProblem == isProblem, "\(outcome)")
    }
  }

  @Test func anEntryReadsAsTwoLinesOrOne() {
    let entry = LogEntry(
      origin: .external, url: "myapp://o/7", pattern: "myapp://orders/<int:id>",
      params: ["orderid": .int(7), "from": .string("mail")], redirects: ["myapp://orders/7"],
      outcome: .pushed("order-detail"), landing: "switched to Orders")
    #expect(entry.headline == "[external] myapp://o/7")
    #expect(
      entry.detail
        == "⇒ myapp://orders/7 ~ myapp://orders/<int:id> {from=mail orderid=7} → switched to Orders, pushed order-detail"
    )
    #expect(entry.summary == "external myapp://o/7 -> pushed order-detail")
  }

  @Test func anEntryWithNothingMatchedIsItsOutcomeAlone() {
    let entry = LogEntry(
      origin: .coldStart, url: "x://y", pattern: nil, params: [:], redirects: [],
      outcome: .failed(title: "No route", message: "No route for x://y"))
    #expect(entry.headline == "[cold-start] x://y")
    #expect(entry.detail == "→ No route: No route for x://y")
  }
}
