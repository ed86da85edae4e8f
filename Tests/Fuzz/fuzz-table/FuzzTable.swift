// libFuzzer target: route-table loading from JSON (see Tests/Fuzz/run).
//
// Invariants: any bytes either load or give an error; JSON that parses writes back to text
// that parses to the same document; a table that loads resolves URLs made from its own
// patterns without trapping, within the redirect limit.
import JSON
import Routing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTable(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let document = try? JSON.parse(bytes) {
    let written = document.serialized
    guard let again = try? JSON.parse(written), again == document else {
      fatalError("JSON does not read back the same from \(written.debugDescription)")
    }
  }
  guard let table = try? RouteTable(json: bytes) else { return 0 }
  guard table.entries.count == table.router.routes.count else {
    fatalError("\(table.entries.count) entries but \(table.router.routes.count) routes")
  }
  for entry in table.entries.prefix(8) {
    let pattern = entry.pattern
    var url = pattern.scheme.map { $0 + "://" } ?? "/"
    if let domain = pattern.domain { url += domain + "/" }
    url += pattern.segments.map { segment -> String in
      if case .literal(let word) = segment.kind { return word }
      return "7"
    }.joined(separator: "/")
    let resolution = table.resolve(url)
    guard resolution.redirects.count <= RouteTable.maxRedirects + 1 else {
      fatalError("\(url): \(resolution.redirects.count) redirects")
    }
  }
  return 0
}
