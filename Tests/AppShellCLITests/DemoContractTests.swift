import Foundation
import TestSupport
import Testing

@testable import AppShellCLI

/// The shipped demo's flows and link contract (`Screens/flows/`), run by `appshell test` as a
/// team's CI runs its own: the tour, routes, redirects, refusals, and who gets a URL from
/// outside.
@Suite struct DemoContractTests {
  static let contract = GoldenScripts.screens + "/flows/demo.links.json"

  @Test func theDemoKeepsItsLinkContract() throws {
    let run = CapturedRun.run(["test", "--screens", GoldenScripts.screens, Self.contract])
    #expect(run.status == 0, "\(run.stdout)")
    #expect(run.stdout.hasSuffix("\n19 passed, 0 failed\n"), "\(run.stdout)")
  }

  /// `appshell test` with no PATH, as at the repository's root: the demo's `flows/`.
  @Test func theDemoPassesItsOwnFlows() throws {
    let run = CapturedRun.run(["test", "--screens", GoldenScripts.screens])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    #expect(run.stdout.contains("ok   \(GoldenScripts.screens)/flows/tour.keys\n"), "\(run.stdout)")
    #expect(run.stdout.hasSuffix("\n20 passed, 0 failed\n"), "\(run.stdout)")
  }

  /// A directory without `flows/` says so as docs/testing.md does, and exits 2.
  @Test func anAppWithoutFlowsSaysThereIsNothingToTest() throws {
    let directories = try PrivateDirectories()
    let directory = try AppDirectoryTests.write(AppDirectoryTests.shop, in: directories)
    let run = CapturedRun.run(["test", "--screens", directory])
    #expect(run.status == 2)
    #expect(
      run.stderr
        == "appshell test: no flows or link contracts in \(directory)/flows: no such directory (name a PATH)\n"
    )
  }
}
