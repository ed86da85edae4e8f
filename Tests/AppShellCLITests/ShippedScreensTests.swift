import Demo
import Foundation
import JSON
import Routing
import Shell
import TestSupport
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// The shipped `Screens/` directory of this checkout, found from this file.
private func shippedScreens(filePath: String = #filePath) -> String {
  // Tests/AppShellCLITests/ShippedScreensTests.swift -> the package root.
  URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Screens").path
}

/// A sample value of a declared type, as a route would give it.
private func sample(_ type: CaptureType) -> ParamValue {
  switch type {
  case .int: return .int(2_015_032_688)
  case .float: return .float(2.5)
  case .uuid: return .string("123E4567-E89B-12D3-A456-426614174000")
  case .string, .path: return .string("sample")
  }
}

/// The shipped app files: they load, and every route and link in them goes somewhere.
@Suite struct ShippedScreensTests {
  private func load() throws -> ShellApp {
    DemoApp.register()
    do {
      return try AppLoader.loadApp(screens: shippedScreens(), routes: nil)
    } catch {
      Issue.record("the shipped Screens/ did not load: \(error)")
      throw error
    }
  }

  /// Every shipped screen, made with sample parameters (all declared ones, typed).
  private func everyScreen(of app: ShellApp) -> [Screen] {
    app.catalog.factories.keys.sorted().compactMap { name in
      let factory = app.catalog.factories[name]!
      var params: Parameters = [:]
      for (param, spec) in factory.params { params[param] = sample(spec.type) }
      switch app.catalog.make(
        name, params: params, url: nil, session: Session(), table: app.table)
      {
      case .success(let screen): return screen
      case .failure(let problem):
        Issue.record("\(name) could not be made with \(params): \(problem)")
        return nil
      }
    }
  }

  @Test func theShippedScreensLoad() throws {
    let app = try load()
    #expect(app.tabs.map(\.title) == ["Home", "Orders", "Me"])
    #expect(app.tabs.map(\.root) == ["home", "order-list", "personal-center"])
    #expect(app.table.entries.count > 10)
    let model = app.initialModel()
    #expect(
      model.shell.tabs.map { $0.stack.map(\.name) } == [
        ["home"], ["order-list"], ["personal-center"],
      ])
  }

  /// Home's text about its links holds: it calls them routers only as far as they are.
  @Test func homeSaysWhichOfItsLinksAreRouters() throws {
    let text = try String(contentsOfFile: GoldenScripts.screens + "/home.json", encoding: .utf8)
    let home = try JSON.parse(text)
    guard case .array(let body)? = home["body"], case .array(let links)? = home["links"] else {
      Issue.record("home.json has no body or links")
      return
    }
    let routers = ["navigateApp", "URLNavigator", "XYWdispatcher", "CCFURLResponder", "JLRoutes"]
    let labels = links.compactMap { link -> String? in
      if case .string(let label)? = link["label"] { label } else { nil }
    }
    let routerLinks = labels.filter { label in routers.contains { label.contains("(\($0)") } }
    #expect(routerLinks.count > labels.count / 2 && routerLinks.count < labels.count)
    let claims = body.map(\.serialized).joined(separator: " ")
    #expect(!claims.contains("Each link"), "\(claims)")
    #expect(claims.contains("Most links"), "\(claims)")
  }

  @Test func theContractsScreenNamesExist() throws {
    let app = try load()
    for name in [
      "home", "personal-center", "order-list", "order-detail", "user-profile", "login",
      "notifications", "settings", "about",
    ] {
      #expect(app.catalog.has(name), "no factory \(name)")
    }
    #expect(app.catalog.factories["order-detail"]?.params["orderid"]?.required == true)
    #expect(app.catalog.factories["user-profile"]?.params["username"]?.required == true)
  }

  @Test func everyRoutesScreenExistsInTheCatalog() throws {
    let app = try load()
    for entry in app.table.entries {
      switch entry.target {
      case .screen(let name):
        #expect(app.catalog.has(name), "routes[\(entry.index)] names the screen \(name)")
      case .action(let name):
        #expect(app.actions[name] != nil, "routes[\(entry.index)] names the action \(name)")
      case .notification, .redirect:
        break
      }
    }
  }

  @Test func everyParentEndsOnAScreenRoute() throws {
    let app = try load()
    for entry in app.table.entries {
      guard let parent = entry.parent else { continue }
      guard case .matched(let route, _) = app.table.resolve(parent).outcome else {
        Issue.record("routes[\(entry.index)].parent \(parent) does not resolve")
        continue
      }
      guard case .screen = route.target else {
        Issue.record("routes[\(entry.index)].parent \(parent) is not a screen route")
        continue
      }
    }
  }

  @Test func everyLinkOnEveryShippedScreenResolvesToARoute() throws {
    let app = try load()
    let screens = everyScreen(of: app)
    #expect(screens.count == app.catalog.factories.count)
    var checked = 0
    for screen in screens {
      for link in screen.links {
        switch link.action {
        case .open(let url), .openForResult(let url, _):
          checked += 1
          let resolution = app.table.resolve(url)
          #expect(
            resolution.isMatched,
            "\(screen.name): link \(link.label) -> \(url): \(resolution.outcome)")
        case .finish:
          break
        }
      }
    }
    #expect(checked > 20)
  }

  @Test(arguments: ["order-detail", "about", "notifications", "pk-detail"])
  func theSwiftScreensAreInTheShippedCatalog(name: String) throws {
    let app = try load()
    let screen = try #require(everyScreen(of: app).first { $0.name == name })
    for link in screen.links {
      if case .open(let url) = link.action {
        #expect(app.table.canOpen(url), "\(name): \(url)")
      }
      if case .openForResult(let url, _) = link.action {
        #expect(app.table.canOpen(url), "\(name): \(url)")
      }
    }
  }

  @Test func homeLinksOpenWithoutAnAlertExceptTheUpgradeOne() throws {
    let app = try load()
    let home = app.initialModel().shell.tabs[0].stack[0]
    #expect(!home.links.isEmpty)
    for (index, link) in home.links.enumerated() {
      var model = app.initialModel()
      _ = app.reduce(&model, .linkFollowed(index))
      if link.label.contains("newer app") {
        #expect(model.shell.alert?.title == "Upgrade required", "\(link.label)")
      } else {
        #expect(model.shell.alert == nil, "\(link.label): \(String(describing: model.shell.alert))")
      }
    }
  }

  @Test func aScreenFileWithABadPlaceholderIsRefusedWithTheFileFieldAndProblem() throws {
    let fileManager = FileManager.default
    let scratch = try TemporaryDirectory("appshell-screens")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    // Every file, with the link files app.json names (Info.plist, entitlements, aasa/).
    for file in try fileManager.contentsOfDirectory(atPath: shippedScreens()) {
      try fileManager.copyItem(
        atPath: shippedScreens() + "/" + file, toPath: directory.appendingPathComponent(file).path)
    }
    // The copy loads as the original does (with the shipped table: the copy has no Swift
    // screens, which its own table would name).
    let table = shippedScreens() + "/routes.json"
    #expect(throws: Never.self) { try AppLoader.loadApp(screens: directory.path, routes: table) }
    let bad = #"{"name":"settings","title":"Settings","body":["Hello {{nobody}}"]}"#
    try Data(bad.utf8).write(to: directory.appendingPathComponent("settings.json"))
    do {
      _ = try AppLoader.loadApp(screens: directory.path, routes: table)
      Issue.record("a screen file with an unknown placeholder was accepted")
    } catch {
      let message = error.description
      #expect(message.contains("settings.json"), "\(message)")
      #expect(message.contains("body"), "\(message)")
      #expect(message.contains("unknown placeholder {{nobody}}"), "\(message)")
    }
  }

  @Test func aScreenFileNamedAfterAnotherScreenIsRefused() throws {
    let scratch = try TemporaryDirectory("appshell-screens")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.url
    try Data(#"{"name":"other","title":"T"}"#.utf8).write(
      to: directory.appendingPathComponent("home.json"))
    do {
      _ = try AppLoader.loadScreens(directory: directory.path)
      Issue.record("a file whose name differs from its screen name was accepted")
    } catch {
      #expect(error.description.contains("home.json"))
      #expect(error.description.contains("name"))
    }
  }
}
