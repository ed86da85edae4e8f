import Testing

@testable import Routing

/// `ShortASCIIString` writes strings in the standard library's inline form by hand; they must
/// be the very strings the ordinary initializers make, or it must make none. (Where the form
/// is not known it makes none, and only that is checked.)
@Suite(.enabled(if: ShortASCIIString.isSupported)) struct ShortASCIIStringTests {
  /// The string `ShortASCIIString` makes from `bytes`, read from memory that ends where they
  /// end, so that a read past the last byte would be caught by the address sanitizer.
  private func made(_ bytes: [UInt8]) -> String? {
    bytes.withUnsafeBufferPointer { ShortASCIIString.make($0.baseAddress, $0.count) }
  }

  private func bits(_ string: String) -> (UInt64, UInt64) {
    unsafeBitCast(string, to: (UInt64, UInt64).self)
  }

  @Test func everyLengthAndByteIsTheOrdinaryString() throws {
    var random = DifferentialRandom(seed: 0x5717)
    for count in 0...ShortASCIIString.maxCount {
      for round in 0..<256 {
        // In the even rounds every ASCII byte, NUL and DEL included, turns up at every
        // position (7 and 128 have no common factor); the odd rounds draw bytes at random.
        let bytes = (0..<count).map { UInt8(($0 + round / 2 * 7) % 128) }
        let drawn = round.isMultiple(of: 2) ? bytes : bytes.map { _ in UInt8(random.below(128)) }
        let ordinary = String(decoding: drawn, as: UTF8.self)
        let string = try #require(made(drawn), "\(drawn)")
        #expect(bits(string) == bits(ordinary), "\(drawn)")
        #expect(string == ordinary)
        #expect(Array(string.utf8) == drawn)
        #expect(string.utf8.count == count)
        #expect(string.hashValue == ordinary.hashValue)
      }
    }
  }

  @Test func madeStringsBehaveAsStrings() throws {
    var string = try #require(made(Array("user_id".utf8)))
    #expect(string.count == 7)
    #expect(string.hasPrefix("user"))
    #expect(Set([string, "user_id"]).count == 1)
    string += "=42"
    #expect(string == "user_id=42")
    #expect(string.uppercased() == "USER_ID=42")
    #expect(try #require(made([])).isEmpty)
  }

  @Test func refusesLongAndNonASCIIBytes() {
    #expect(made(Array(repeating: 0x61, count: ShortASCIIString.maxCount + 1)) == nil)
    for position in 0..<ShortASCIIString.maxCount {
      var bytes = Array(repeating: UInt8(0x61), count: ShortASCIIString.maxCount)
      bytes[position] = 0x80
      #expect(made(bytes) == nil, "high byte at \(position)")
      #expect(made(Array(bytes[...position])) == nil, "high last byte of \(position + 1)")
    }
    #expect(made([0xC3, 0xA9]) == nil)
  }

  @Test func byteSlicesGiveTheirBytesOnBothSidesOfTheLimit() {
    for count in [0, 1, 8, 15, 16, 40] {
      let bytes = (0..<count).map { UInt8(0x41 + $0 % 26) }
      bytes.withUnsafeBufferPointer { buffer in
        let slice = ByteSlice(start: buffer.baseAddress, count: count)
        #expect(slice.string == String(decoding: bytes, as: UTF8.self))
      }
    }
  }
}

/// Where the inline form is not known, nothing is made and every string comes the ordinary way.
@Suite(.enabled(if: !ShortASCIIString.isSupported)) struct ShortASCIIStringFallbackTests {
  @Test func makesNothing() {
    let bytes = Array("abc".utf8)
    #expect(bytes.withUnsafeBufferPointer { ShortASCIIString.make($0.baseAddress, 3) } == nil)
    bytes.withUnsafeBufferPointer { buffer in
      #expect(ByteSlice(start: buffer.baseAddress, count: 3).string == "abc")
    }
  }
}
