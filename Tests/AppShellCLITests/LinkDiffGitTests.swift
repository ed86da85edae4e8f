import Foundation
import Platform
import TestSupport
import Testing

@testable import AppShellCLI

/// `appshell links diff git:REV[:PATH] ...`: revisions of a repository made in the test (in a
/// private directory, with its own HOME and no global git configuration), read without a
/// checkout, by the built binary run in the repository.
@Suite struct LinkDiffGitTests {
  /// Runs `program ARGUMENTS` in `directory` with the private environment; status, stdout,
  /// stderr.
  static func run(
    _ program: String, _ arguments: [String], in directory: String,
    environment: [String: String]
  ) throws -> (Int32, String, String) {
    let result = try runProcess(program, arguments, environment: environment, in: directory)
    return (result.status, result.stdout, result.stderr)
  }

  /// The built `appshell`, beside the test bundle or in `.build/debug`.
  static func appshell() throws -> String {
    try #require(builtExecutable("appshell"), "run `swift build` first")
  }

  @Test func revisionsAreReadWithoutACheckout() throws {
    guard let gitPath = ChildProcess.findGit() else { return }
    let apps = try SurfaceApps()
    let repository = apps.root + "/repo"
    try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
    var environment = apps.directories.environment
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
    func git(_ arguments: [String]) throws {
      let (status, _, stderr) = try Self.run(
        gitPath, ["-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments,
        in: repository, environment: environment)
      #expect(status == 0, "git \(arguments): \(stderr)")
    }
    try git(["init", "-q"])
    let app = try apps.app("repo/app", routes: [LinkDiffTests.item])
    try Data(#"{"routes":[{"pattern":"t://x/:id","screen":"x"}]}"#.utf8).write(
      to: URL(fileURLWithPath: repository + "/table.json"))
    try git(["add", "-A"])
    try git(["commit", "-q", "-m", "first"])
    try apps.app("repo/app", routes: [])
    let binary = try Self.appshell()

    // git:REV with the app directory of the other operand.
    let (status, out, err) = try Self.run(
      binary, ["links", "diff", "git:HEAD", "app", "--format", "json"], in: repository,
      environment: environment)
    #expect(status == 1, "\(err)")
    #expect(out.contains(#""kind":"removed""#))
    #expect(out.contains(#""url":"t://items/x1""#))
    // The working tree is untouched: the removal is still there.
    #expect(!(try String(contentsOfFile: app + "/routes.json", encoding: .utf8)).contains("items"))

    // git:REV:PATH for a directory and for a table file; both sides from git.
    let same = try Self.run(
      binary, ["links", "diff", "git:HEAD:app", "git:HEAD:./app"], in: repository,
      environment: environment)
    #expect(same.0 == 0, "\(same.2)")
    #expect(same.1.hasPrefix("0 breaking, 0 warning, 0 info; "))
    let table = try Self.run(
      binary, ["links", "diff", "git:HEAD:table.json", "table.json"], in: repository,
      environment: environment)
    #expect(table.0 == 0, "\(table.2)")

    // A revision that does not exist, and a path not in the revision.
    let missing = try Self.run(
      binary, ["links", "diff", "git:no-such-branch", "app"], in: repository,
      environment: environment)
    #expect(missing.0 == 2)
    #expect(
      missing.2.contains("OLD cannot be used: git:no-such-branch: no revision 'no-such-branch'"))
    let noPath = try Self.run(
      binary, ["links", "diff", "app", "git:HEAD:nowhere"], in: repository,
      environment: environment)
    #expect(noPath.0 == 2)
    #expect(
      noPath.2.contains("NEW cannot be used: git:HEAD:nowhere: 'nowhere' is not in revision 'HEAD'")
    )
  }

  /// Without `:PATH`, the revision is read in the repository around the other operand, from
  /// its top, a subdirectory or outside it; a tree without routes.json is named as such.
  @Test func theOtherOperandNamesTheRepositoryAndThePath() throws {
    guard let gitPath = ChildProcess.findGit() else { return }
    let apps = try SurfaceApps()
    var environment = apps.directories.environment
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
    func git(_ arguments: [String], in directory: String) throws {
      let (status, _, stderr) = try Self.run(
        gitPath, ["-c", "user.name=Test", "-c", "user.email=test@example.com"] + arguments,
        in: directory, environment: environment)
      #expect(status == 0, "git \(arguments): \(stderr)")
    }
    // An app that is its repository's top directory, and one in a subdirectory.
    let top = try apps.app("top", routes: [LinkDiffTests.item])
    try apps.app("nested/app", routes: [LinkDiffTests.item])
    let nested = apps.root + "/nested"
    for repository in [top, nested] {
      try git(["init", "-q"], in: repository)
      try git(["add", "-A"], in: repository)
      try git(["commit", "-q", "-m", "first"], in: repository)
    }
    try apps.app("top", routes: [])
    try apps.app("nested/app", routes: [])
    let binary = try Self.appshell()
    func diff(_ old: String, _ new: String, in directory: String) throws -> (Int32, String) {
      let (status, out, err) = try Self.run(
        binary, ["links", "diff", old, new, "--format", "json"], in: directory,
        environment: environment)
      return (status, out + err)
    }
    let runs = [
      (top, "git:HEAD", "."), (top, "git:HEAD:.", "."), (nested + "/app", "git:HEAD", "."),
      (apps.root, "git:HEAD", top), (apps.root, "git:HEAD", nested + "/app"),
    ]
    for (directory, old, new) in runs {
      let (status, out) = try diff(old, new, in: directory)
      #expect(status == 1, "\(old) \(new) in \(directory): \(out)")
      #expect(out.contains(#""url":"t://items/x1""#), "\(old) \(new) in \(directory)")
    }
    let notAnApp = try diff("git:HEAD", ".", in: nested)
    #expect(notAnApp.0 == 2)
    #expect(
      notAnApp.1.contains(
        "OLD cannot be used: git:HEAD: the top directory in revision 'HEAD' has no routes.json"),
      "\(notAnApp.1)")
  }
}

extension ChildProcess {
  /// `git` on PATH, if installed.
  fileprivate static func findGit() -> String? { find("git") }
}
