import Testing

@testable import Routing

/// `Parameters` is a small ordered list with dictionary semantics; every operation must behave
/// the same for few and many entries.
@Suite struct ParametersTests {
  /// Parameters `k0` ... `k(n-1)` with values 0 ... n-1, in that order.
  private func numbered(_ count: Int) -> Parameters {
    var parameters = Parameters()
    for number in 0..<count { parameters["k\(number)"] = .int(Int64(number)) }
    return parameters
  }

  @Test(arguments: [0, 1, 3, 4, 5, 9])
  func keepsOrderAndValues(count: Int) {
    let parameters = numbered(count)
    #expect(parameters.count == count)
    #expect(parameters.isEmpty == (count == 0))
    #expect(parameters.keys == (0..<count).map { "k\($0)" })
    #expect(parameters.map(\.value) == (0..<count).map { .int(Int64($0)) })
    for number in 0..<count { #expect(parameters["k\(number)"] == .int(Int64(number))) }
    #expect(parameters["k\(count)"] == nil)
  }

  @Test(arguments: [(5, 0), (5, 2), (5, 3), (5, 4), (9, 1), (9, 6), (9, 8), (4, 3), (1, 0)])
  func removingKeepsTheOthersInOrder(count: Int, removed: Int) {
    var parameters = numbered(count)
    parameters["k\(removed)"] = nil
    let kept = (0..<count).filter { $0 != removed }
    #expect(parameters.count == count - 1)
    #expect(parameters.keys == kept.map { "k\($0)" })
    #expect(parameters.map(\.value) == kept.map { .int(Int64($0)) })
    // Appending after a removal fills the freed place at the end.
    parameters["new"] = .string("x")
    #expect(parameters.keys == kept.map { "k\($0)" } + ["new"])
    #expect(parameters["new"] == .string("x"))
  }

  @Test func settingAnExistingKeyReplacesItsValueInPlace() {
    var parameters = numbered(6)
    parameters["k1"] = .string("one")
    parameters["k5"] = .strings(["a", "b"])
    #expect(parameters.keys == (0..<6).map { "k\($0)" })
    #expect(parameters["k1"] == .string("one"))
    #expect(parameters["k5"] == .strings(["a", "b"]))
    #expect(parameters.count == 6)
  }

  @Test func equalityAndHashingIgnoreOrder() {
    let forward = numbered(7)
    var backward = Parameters()
    for number in (0..<7).reversed() { backward["k\(number)"] = .int(Int64(number)) }
    #expect(forward == backward)
    #expect(forward.hashValue == backward.hashValue)
    var different = backward
    different["k6"] = .int(60)
    #expect(forward != different)
    #expect(forward != numbered(6))
    #expect(Parameters() == [:])
  }

  @Test func describesItselfInOrder() {
    let parameters: Parameters = ["b": .int(1), "a": .string("x"), "c": .float(1.5)]
    #expect(parameters.description == #"["b": int(1), "a": string("x"), "c": float(1.5)]"#)
    #expect(Parameters().description == "[:]")
  }
}
