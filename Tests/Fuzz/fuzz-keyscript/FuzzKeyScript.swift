// libFuzzer target: key-script parsing (see Tests/Fuzz/run).
//
// Invariants: any text either parses or gives an error of the form `FILE:LINE:COL: message`
// with a line inside the text; a parsed script written back (`KeyScript.text`) parses to the
// same steps (the expectations' places aside, as the text is one line) and to the same text.
import Replay

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let script: KeyScript
  do {
    script = try KeyScript(parsing: text, file: "fuzz.keys")
  } catch {
    let parts = error.description.split(separator: ":", maxSplits: 3)
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
    guard parts.count == 4, parts[0] == "fuzz.keys", let line = Int(parts[1]),
      let column = Int(parts[2]),
      line >= 1, line <= max(lines, 1), column >= 1
    else { fatalError("error without a place: \(error.description.debugDescription)") }
    return 0
  }
  let written = script.text
  guard let again = try? KeyScript(parsing: written, file: "fuzz.keys"),
    again.steps.count == script.steps.count, again.text == written,
    zip(again.steps, script.steps).allSatisfy({ same($0, $1) })
  else {
    fatalError("script does not parse back the same from \(written.debugDescription)")
  }
  return 0
}

/// Equal steps, an expectation's place aside.
func same(_ a: KeyScript.Step, _ b: KeyScript.Step) -> Bool {
  if case .expect(let x) = a, case .expect(let y) = b { return x.kind == y.kind }
  return a == b
}
