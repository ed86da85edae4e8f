import Testing

@testable import Routing

// Helpers for the matching tests: build a router, and ask for winners, rankings, parameters.

func makeRouter(_ patterns: [String], priorities: [Int] = []) throws -> Router {
  var routes: [Router.Route] = []
  for (index, text) in patterns.enumerated() {
    let priority = index < priorities.count ? priorities[index] : 0
    routes.append(Router.Route(pattern: try RoutePattern(text), priority: priority))
  }
  return try Router(routes)
}

/// The index of the route that wins for `url`, or nil.
func winner(_ patterns: [String], _ url: String, priorities: [Int] = []) throws -> Int? {
  try makeRouter(patterns, priorities: priorities).match(RouteURL(url))?.route
}

/// The indexes of every route that matches `url`, best first.
func ranking(_ patterns: [String], _ url: String, priorities: [Int] = []) throws -> [Int] {
  try makeRouter(patterns, priorities: priorities).matches(RouteURL(url)).map(\.route)
}

/// The parameters of the winning match of `url` among `patterns`, or nil when nothing matches.
func params(_ patterns: [String], _ url: String) throws -> Parameters? {
  try makeRouter(patterns).match(RouteURL(url))?.params
}

/// The conflict that `patterns` are refused with, or nil when they compile.
func conflict(_ patterns: [String], priorities: [Int] = []) throws -> RouteConflict? {
  var routes: [Router.Route] = []
  for (index, text) in patterns.enumerated() {
    let priority = index < priorities.count ? priorities[index] : 0
    routes.append(Router.Route(pattern: try RoutePattern(text), priority: priority))
  }
  do {
    _ = try Router(routes)
    return nil
  } catch {
    return error
  }
}

/// `formatPositional` inputs and the text docs/routing.md asks for.
let formatCases: [(Double, String)] = [
  (8.0, "8"), (2.5, "2.5"), (0.5, "0.5"), (1000, "1000"), (-0.0, "0"), (0, "0"),
  (1e21, "1000000000000000000000"), (1e-7, "0.0000001"), (0.1 + 0.2, "0.30000000000000004"),
  (-2.5, "-2.5"), (-1e-7, "-0.0000001"), (100, "100"), (0.001, "0.001"), (123.456, "123.456"),
  (1e16, "10000000000000000"), (1.5e300, "15" + String(repeating: "0", count: 299)),
  (Double.leastNonzeroMagnitude, "0." + String(repeating: "0", count: 323) + "5"),
  (1.0 / 3.0, "0.3333333333333333"), (-1234.5, "-1234.5"),
  (9_007_199_254_740_992, "9007199254740992"),
]

/// Values whose positional text must read back as the same double.
let roundTripValues: [Double] = [
  2.5, 0.1 + 0.2, 1e21, 1e-7, Double.leastNonzeroMagnitude, 1.7976931348623157e308, 1.0 / 3.0,
  -123.25,
]

/// docs/routing.md: typed values, matching, ranking, parameters, conflicts.
