import Testing

@testable import Routing

/// The quick checks of typed segments (on bytes, no value made) accept exactly the texts the
/// full parsers give a value for.
@Suite struct CaptureValueTests {
  private func inPlace(_ type: CaptureType, _ text: String) -> ParamValue? {
    type.accepts(text) ? type.value(of: text) ?? .string("accepted, but no value") : nil
  }

  @Test func floatsAreTheDoublesTheFullParserGives() {
    var texts = [
      "0", "-0", "+0", "0.0", "-0.0", "1.", ".5", "+.5", "-.5", "007.50", "1.5", "99.99",
      "123456789012345", "1234567890123456", "0.000000000000001", "0.1", "0.2", "0.3",
      "9007199254740993", "1e5", "1E-3", "-2.5e+10", ".", "-", "", "1.2.3", "1,5", "0x10",
      "999999999999999.9", "1" + String(repeating: "0", count: 400), "1e400",
    ]
    var state: UInt64 = 0x1234_5678
    for _ in 0..<2_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let digits = String(state >> 11 % 1_000_000_000_000_000)
      let point = Int(state % UInt64(digits.count + 1))
      let text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
      texts.append(state & 1 == 0 ? text : "-" + text)
    }
    for text in texts {
      let expected = CaptureType.float.value(of: text)
      #expect(inPlace(.float, text) == expected, "\(text.debugDescription)")
      if case .float(let value) = inPlace(.float, text), value == 0 {
        #expect(value.sign == Double(text)?.sign, "the sign of \(text.debugDescription)")
      }
    }
  }

  @Test func uuidsAreCheckedAsTheFullParserDoes() {
    for text in [
      "123e4567-e89b-12d3-a456-426614174000", "ABCDEFab-cdef-ABCD-efab-0123456789aB",
      "123e4567-e89b-12d3-a456-42661417400", "123e4567-e89b-12d3-a456-42661417400g",
      "123e4567+e89b-12d3-a456-426614174000", "",
    ] {
      #expect(inPlace(.uuid, text) == CaptureType.uuid.value(of: text), "\(text)")
    }
  }
}
