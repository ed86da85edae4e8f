// libFuzzer target: property lists, XML and binary (`bplist00`), as Info.plist is read for
// its URL schemes (see Tests/Fuzz/run).
//
// Invariants: any bytes either read or give an error; a list that reads gives its schemes or
// an error, without trapping.
import Links

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let list = try? PropertyList.read(bytes) else { return 0 }
  _ = list.kindDescription
  _ = try? LinksDefinition.schemes(infoPlist: list)
  return 0
}
