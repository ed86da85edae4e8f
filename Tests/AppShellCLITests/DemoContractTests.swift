import Foundation
import Testing

@testable import AppShellCLI

/// The shipped demo's link contract (`Contracts/demo.links.json`), run by `appshell test` as a
/// team's CI runs its own: routes, redirects, refusals, and who gets a URL from outside.
@Suite struct DemoContractTests {
  static let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Contracts/demo.links.json").path

  @Test func theDemoKeepsItsLinkContract() throws {
    let run = CapturedRun.run(["test", "--screens", GoldenScripts.screens, Self.contract])
    #expect(run.status == 0, "\(run.text)")
    #expect(run.text.hasSuffix("\n19 passed, 0 failed\n"), "\(run.text)")
  }
}
