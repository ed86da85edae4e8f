import AppShellCLI
import Demo

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// The raw bytes of each argument, so a URL that is not UTF-8 reaches the router unchanged.
let rawArguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
  guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
  return Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map {
    UInt8(bitPattern: $0)
  }
}
// The shipped demo's Swift screens and actions, for the app named as `Screens/app.json` names it.
DemoApp.register()
exit(AppShellCommand.run(rawArguments: rawArguments, invokedAs: CommandLine.arguments[0]))
