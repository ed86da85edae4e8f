// libFuzzer target: link contracts (`*.links.json`), as `appshell test` reads them (see
// Tests/Fuzz/run).
//
// Invariants: any text either reads as a contract or gives one `FILE:LINE:COL: ...` error;
// cases are numbered from 1 in order.
import AppShellCLI

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContract(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  do {
    let contract = try LinkContract(text: text, file: "c.links.json")
    for (index, item) in contract.cases.enumerated() where item.number != index + 1 {
      fatalError("case \(index) is numbered \(item.number)")
    }
  } catch {
    guard error.description.hasPrefix("c.links.json:"), !error.description.contains("\n") else {
      fatalError("the error is not one located line: \(error.description.debugDescription)")
    }
  }
  return 0
}
