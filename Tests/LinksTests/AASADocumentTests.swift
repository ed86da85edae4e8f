import Testing

@testable import Links

/// An AASA file that cannot be used is refused, naming the member.
@Suite struct AASADocumentTests {
  func error(_ text: String) -> String? {
    do {
      _ = try AASADocument(bytes: Array(text.utf8))
      return nil
    } catch {
      return error.description
    }
  }

  @Test func wronglyTypedMembersAreNamed() {
    let cases: [(String, String)] = [
      ("[]", "must be a JSON object, not an array"),
      (#"{"applinks":[]}"#, "applinks: must be an object, not an array"),
      (
        #"{"applinks":{"details":{"A.b":{"paths":["*"]}}}}"#,
        "applinks.details: must be an array (the object keyed by app ID is the old iOS 9 form), not an object"
      ),
      (
        #"{"applinks":{"details":[{"components":[]}]}}"#,
        "applinks.details[0]: needs appIDs (or appID)"
      ),
      (
        #"{"applinks":{"details":[{"appIDs":"A.b"}]}}"#,
        "applinks.details[0].appIDs: must be an array of strings"
      ),
      (
        #"{"applinks":{"details":[{"appID":"A.b","components":[{},{},{"?":3}]}]}}"#,
        #"applinks.details[0].components[2]."?": must be a string or an object"#
      ),
      (
        #"{"applinks":{"details":[{"appID":"A.b","components":[{"/":true}]}]}}"#,
        #"applinks.details[0].components[0]."/": must be a string, not a boolean"#
      ),
      (
        #"{"applinks":{"details":[{"appID":"A.b","components":[{"/":"/$(food)"}]}]}}"#,
        #"applinks.details[0].components[0]."/": "/$(food)": $(food) is not a predefined variable nor one of substitutionVariables"#
      ),
      (
        ##"{"applinks":{"details":[{"appID":"A.b","components":[{"#":"$(lang"}]}]}}"##,
        ##"applinks.details[0].components[0]."#": "$(lang": unclosed $("##
      ),
      (
        #"{"applinks":{"details":[{"appID":"A.b","components":[{"?":{"q":"$(a-b)"}}]}]}}"#,
        #"applinks.details[0].components[0]."?".q: "$(a-b)": $(a-b) is not a predefined variable nor one of substitutionVariables"#
      ),
      (
        #"{"applinks":{"details":[{"appID":"A.b","components":[{"exclude":"yes"}]}]}}"#,
        "applinks.details[0].components[0].exclude: must be true or false"
      ),
      (
        #"{"applinks":{"defaults":{"caseSensitive":1},"details":[]}}"#,
        "applinks.defaults.caseSensitive: must be true or false"
      ),
      (
        #"{"applinks":{"substitutionVariables":{"food":"taco"},"details":[]}}"#,
        "applinks.substitutionVariables.food: must be an array of strings"
      ),
      (
        #"{"applinks":{"details":[{"appID":"A.b","paths":[1]}]}}"#,
        "applinks.details[0].paths[0]: must be a string"
      ),
    ]
    for (text, expected) in cases {
      #expect(error(text) == expected, "\(text)")
    }
    #expect(error("{") != nil)
    #expect(error("{")?.hasPrefix("invalid JSON") == true)
  }

  @Test func unnamedKeysAreIgnored() {
    #expect(
      error(#"{"webcredentials":{"apps":[]},"applinks":{"apps":[],"extra":1,"details":[]}}"#)
        == nil)
    #expect(error(#"{"webcredentials":{"apps":[]}}"#) == nil)
  }

  /// Every variable's values are checked when the file is read, used or not.
  @Test func substitutionVariableValuesAreCheckedAtLoad() {
    #expect(
      error(#"{"applinks":{"substitutionVariables":{"v":["a","$(zz)"]},"details":[]}}"#)
        == #"applinks.substitutionVariables.v[1]: "$(zz)": $(zz) is not a predefined variable nor one of substitutionVariables"#
    )
    #expect(
      error(
        #"{"applinks":{"substitutionVariables":{"v":["$(zz)"]},"details":[{"appID":"A.b","components":[{"/":"$(v)"}]}]}}"#
      )?.hasPrefix("applinks.substitutionVariables.v[0]: ") == true)
    #expect(
      error(#"{"applinks":{"substitutionVariables":{"v":["a*","b?"]},"details":[]}}"#) == nil)
  }

  @Test func variableNamesAreCaseSensitive() {
    #expect(
      error(
        #"{"applinks":{"substitutionVariables":{"Food":["a"]},"details":[{"appID":"A.b","components":[{"/":"$(food)"}]}]}}"#
      )
        != nil)
  }
}
