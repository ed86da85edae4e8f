import Foundation
import JSON
import RouteCodegen
import Routing
import Shell
import TestSupport
import Testing

@testable import AppRuntime
@testable import AppShellCLI

/// The typed-routes property, end to end: the enum generated for a table is compiled against
/// `Routing` in a scratch package and run; for random URLs, `Route(table.resolve(url))` agrees
/// with the resolution (target and parameters), and `url(in:)` of every value reached resolves
/// back to the same value. Tables: the demo's, `appshell init`'s, and random ones from the
/// differential test's generators. One scratch package holds them all, so `swift build` runs
/// once (tens of seconds the first time; the build directory is kept between runs).
@Suite struct TypedRoundTripTests {
  static let randomTables = 160
  static let urlsPerTable = 24

  /// One table to check: its JSON, the URLs to try, and the declared parameters of its data
  /// screens (a value that does not fit them makes `init?` nil).
  struct Case {
    var name: String
    var json: String
    var urls: [String]
    var declared: [String: [String: ParameterSpec]] = [:]
  }

  @Test func generatedEnumsRoundTripEveryURLTheyReach() throws {
    var cases = [try demoCase(), try initCase()]
    var random = RandomCases()
    cases += random.make(Self.randomTables)
    // Generation refused some random tables: each must be for two names that become one.
    for (table, error) in random.refused {
      #expect(error.contains("both become"), "table \(table): \(error)")
    }
    #expect(random.refused.count < Self.randomTables / 4, "\(random.refused.count) refused")
    // Every pattern kind is in some compiled table.
    let kinds = random.kinds
    for kind in [
      "int", "float", "uuid", "string", "valueSet", "regex", "path", "rest", "group", "query",
      "absent", "fragment", "wildcardDomain", "rename", "global", "caseInsensitive",
    ] {
      #expect(kinds[kind, default: 0] > 0, "no table has \(kind)")
    }

    let output = try ScratchPackage.run(cases)
    var failures: [String] = []
    var summary: [String: Int] = [:]
    for line in output.split(separator: "\n") {
      if line.hasPrefix("FAIL ") {
        failures.append(String(line))
      } else if line.hasPrefix("NIL ") {
        // `init?` was nil for a matched URL: only a parameter that does not convert may do that.
        let parts = line.split(separator: " ", maxSplits: 2)
        let table = cases[Int(parts[1])!]
        let url = table.urls[Int(parts[2])!]
        if !misfit(table, url) { failures.append("\(line): \(url.debugDescription)") }
      } else if line.hasPrefix("COUNT ") {
        let parts = line.split(separator: " ")
        summary[String(parts[1])] = Int(parts[2])!
      }
    }
    print("TypedRoundTrip: \(cases.count) tables, \(summary)")
    #expect(failures.isEmpty, Comment(rawValue: failures.prefix(10).joined(separator: "\n")))
    #expect(summary["tables"] == cases.count)
    #expect(summary["typed", default: 0] > summary["urls", default: 0] / 4)
    #expect(summary["back", default: 0] > summary["typed", default: 0] / 2)
    // A value no route can say back (a `*.` domain, a URL's own query item under a name the
    // written URL would give another value) is rare; in the demo and `init`'s app there is none.
    #expect(summary["unsayable", default: 0] < summary["typed", default: 0] / 10)
    #expect(summary["unsayable-0", default: 0] == 0)
    #expect(summary["unsayable-1", default: 0] == 0)
  }

  /// Whether the URL reaches a destination with a parameter that does not convert to its
  /// type (a declared type, or a URL's own query item under a parameter's name), or without a
  /// required one: the only reason `init?` may be nil for a matched URL.
  private func misfit(_ table: Case, _ url: String) -> Bool {
    guard let routes = try? RouteTable(json: table.json),
      case .matched(let entry, let params) = routes.resolve(url).outcome
    else { return false }
    let declared = table.declared.mapValues {
      $0.mapValues { DeclaredParameter(type: $0.type, required: $0.required) }
    }
    guard
      let destination = routes.destinations(declared: declared).first(where: {
        $0.target == entry.target
      })
    else { return false }
    return destination.parameters.contains { parameter in
      guard let value = params[parameter.name] else { return !parameter.isOptional }
      switch parameter.type {
      case .int: return value.intValue == nil
      case .double: return value.doubleValue == nil
      case .string: return value.stringValue == nil
      case .segments: return value.segmentsValue == nil
      case .valueSet(let values): return !values.contains { $0 == value.stringValue }
      }
    }
  }

  private func demoCase() throws -> Case {
    let directory = AppLoader.shippedScreensDirectory()
    return try appCase(name: "demo", directory: directory)
  }

  private func initCase() throws -> Case {
    let scratch = try TemporaryDirectory("appshell-typed-init")
    defer { withExtendedLifetime(scratch) {} }
    let directory = scratch.path
    for (path, text) in StarterApp.files(name: "Typed", scheme: "typed") {
      let file = directory + "/" + path
      try FileManager.default.createDirectory(
        atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try text.write(toFile: file, atomically: true, encoding: .utf8)
    }
    return try appCase(name: "init", directory: directory)
  }

  /// An app directory's table, its data screens' declarations, and URLs aimed at each route.
  private func appCase(name: String, directory: String) throws -> Case {
    let json = try String(contentsOfFile: directory + "/routes.json", encoding: .utf8)
    let table = try RouteTable(json: json)
    var declared: [String: [String: ParameterSpec]] = [:]
    for screen in try AppLoader.loadScreens(
      directory: directory, excluding: AppLoader.linkFiles(directory: directory))
    {
      declared[screen.name] = screen.params
    }
    var urls = URLGenerator(random: SeededGenerator(seed: 0x7E5E_D000))
    var list: [String] = []
    for entry in table.entries {
      for _ in 0..<6 { list.append(urls.url(aimingAt: GeneratedRoute(entry.pattern)).text) }
    }
    return Case(name: name, json: json, urls: list, declared: declared)
  }
}

extension GeneratedRoute {
  /// A compiled pattern as the URL generator wants it.
  init(_ pattern: RoutePattern, priority: Int = 0) {
    self.init(
      text: pattern.text, priority: priority, scheme: pattern.scheme, domain: pattern.domain,
      segments: pattern.segments, groups: pattern.groups, constraints: pattern.constraints,
      caseSensitive: pattern.caseSensitive, fragment: pattern.fragment)
  }
}

/// Random tables from the differential test's generator, with random destinations (screens,
/// actions and notifications, some sharing a name) and renames.
struct RandomCases {
  var routes = RouteGenerator(random: SeededGenerator(seed: 0x7195_0000))
  var urls = URLGenerator(random: SeededGenerator(seed: 0x7195_0001))
  /// Tables the generator refused, by number, with the error.
  var refused: [(Int, String)] = []
  /// How many usable tables have each pattern kind.
  var kinds: [String: Int] = [:]

  static let targets = [
    ("screen", "home"), ("screen", "order-detail"), ("screen", "item"), ("action", "item"),
    ("action", "like"), ("notification", "Ping"),
  ]

  mutating func make(_ count: Int) -> [TypedRoundTripTests.Case] {
    var cases: [TypedRoundTripTests.Case] = []
    var number = 0
    while cases.count + refused.count < count {
      number += 1
      let generated = routes.table()
      var entries: [String] = []
      for route in generated {
        let (field, name) = routes.random.pick(Self.targets)
        var entry =
          "{\"pattern\":\(JSON.quote(route.text)),\"\(field)\":\(JSON.quote(name)),"
          + "\"priority\":\(route.priority)"
        if !route.caseSensitive { entry += ",\"caseSensitive\":false" }
        let names = (route.segments + route.groups.flatMap { $0 }).compactMap(\.name)
        if let first = names.first, routes.random.chance(15) {
          entry += ",\"rename\":{\(JSON.quote(first)):\"renamed\"}"
        }
        entries.append(entry + "}")
      }
      let json = "{\"version\":\(number),\"routes\":[" + entries.joined(separator: ",") + "]}"
      guard let table = try? RouteTable(json: json) else { continue }  // conflicting routes
      do {
        _ = try SwiftEmitter(tableName: "t.json").source(for: table)
      } catch {
        refused.append((number, error.description))
        continue
      }
      tally(table)
      var list: [String] = []
      for _ in 0..<TypedRoundTripTests.urlsPerTable {
        let aimed = urls.random.chance(85) ? urls.random.pick(generated) : nil
        list.append(urls.url(aimingAt: aimed).text)
      }
      cases.append(.init(name: "random \(number)", json: json, urls: list))
    }
    return cases
  }

  private mutating func tally(_ table: RouteTable) {
    var found: Set<String> = []
    for entry in table.entries {
      let pattern = entry.pattern
      var segments = pattern.segments + pattern.groups.flatMap { $0 }
      if case .segments(let list)? = pattern.fragment { segments += list }
      for segment in segments {
        switch segment.kind {
        case .capture(let type): found.insert(type.rawValue)
        case .oneOf: found.insert("valueSet")
        case .regex: found.insert("regex")
        case .path: found.insert("path")
        case .rest: found.insert("rest")
        case .literal: break
        }
      }
      if !pattern.groups.isEmpty { found.insert("group") }
      if !pattern.constraints.isEmpty { found.insert("query") }
      if pattern.constraints.contains(where: { $0.value == .absent }) { found.insert("absent") }
      if pattern.fragment != nil { found.insert("fragment") }
      if pattern.domainIsWildcard { found.insert("wildcardDomain") }
      if !entry.rename.isEmpty { found.insert("rename") }
      if pattern.scheme == nil { found.insert("global") }
      if !pattern.caseSensitive { found.insert("caseInsensitive") }
    }
    for kind in found { kinds[kind, default: 0] += 1 }
  }
}
