import AppShellKit
import Foundation
import ShopApp

// `swift run shop` opens the shop in the terminal; `swift run shop replay ...`, `routes --lint`
// and the other subcommands work as for `appshell`.
exit(AppShellMain.run(directory: Shop.directory, setup: Shop.setup))
