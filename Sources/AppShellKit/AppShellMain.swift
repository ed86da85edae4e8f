import AppRuntime
import AppShellCLI

/// The whole `appshell` command line for a team's own app, from its own executable target:
/// the terminal app, `replay`, `resolve`, `routes`, `init`, `openurl` and the rest behave as
/// for `appshell`, with the app's Swift screens, actions and guards registered.
public enum AppShellMain {
  /// Runs the command line `arguments` (without the program name) for the app in
  /// `directory` (the default of `--screens`) and returns the exit status.
  ///
  /// ```swift
  /// var setup = AppSetup()
  /// setup.screen("product", params: ["id": ScreenParameter(.int)]) { input in
  ///   ScreenContent(title: "Product \(input.params["id"]!)")
  /// }
  /// exit(AppShellMain.run(directory: "App", setup: setup))
  /// ```
  public static func run(
    directory: String, setup: AppSetup,
    arguments: [String] = Array(CommandLine.arguments.dropFirst())
  ) -> Int32 {
    AppHost.directory = directory
    AppHost.registry = setup.registry
    if let invocation = CommandLine.arguments.first, !invocation.isEmpty {
      AppHost.invocation = invocation
      if let program = invocation.split(separator: "/").last { AppHost.program = String(program) }
    }
    return AppShellCommand.run(arguments)
  }
}
