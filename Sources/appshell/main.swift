import AppShellCLI
import Glibc

exit(AppShellCommand.run(Array(CommandLine.arguments.dropFirst())))
