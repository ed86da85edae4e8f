// swift-tools-version: 6.1
import PackageDescription

// A shop built on AppShell: its app directory (App/), a Swift screen and action, an executable
// that runs the whole `appshell` command line for it, and tests through the headless session.
let package = Package(
  name: "Shop",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "AppShell", path: "../..")],
  targets: [
    // `routes.json` (a link to App/routes.json) becomes the `AppRoute` enum through the plugin.
    .target(
      name: "ShopApp",
      dependencies: [
        .product(name: "AppShellKit", package: "AppShell"),
        .product(name: "Routing", package: "AppShell"),
      ],
      plugins: [.plugin(name: "RoutesPlugin", package: "AppShell")]),
    .executableTarget(
      name: "shop",
      dependencies: ["ShopApp", .product(name: "AppShellKit", package: "AppShell")]),
    .testTarget(
      name: "ShopAppTests",
      dependencies: ["ShopApp", .product(name: "AppShellKit", package: "AppShell")]),
  ],
  swiftLanguageModes: [.v6]
)
