/// SplitMix64: a small, fast generator with a fixed seed, so every run of a test sees the same
/// input.
package struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  /// A generator whose output is fixed by `seed`.
  package init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  /// A number in `0..<count` (`count` above zero).
  package mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

  /// True `percent` times in a hundred.
  package mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// One of `items` (not empty).
  package mutating func pick<Element>(_ items: [Element]) -> Element { items[below(items.count)] }
}
