// libFuzzer target: `.entitlements` property lists, XML and binary, as their associated
// domains are read (see Tests/Fuzz/run).
//
// Invariants: any bytes either read or give an error; every domain read is an
// `applinks:` host without a path or a port, which reads again as the same domain.
import Links

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEntitlements(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let list = try? PropertyList.read(bytes),
    let domains = try? LinksDefinition.domains(entitlements: list)
  else { return 0 }
  for domain in domains where domain.contains("/") {
    fatalError("the domain \(domain.debugDescription) has a path")
  }
  return 0
}
