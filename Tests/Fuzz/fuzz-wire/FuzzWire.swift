// libFuzzer target: the socket message decoder (see Tests/Fuzz/run).
//
// Invariants: any line either decodes to a request or gives an error; a decoded request
// encodes to a line that decodes to the same request; every error reply is one line of JSON
// that decodes as a failure.
import Remote
import Routing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let line = Array(UnsafeBufferPointer(start: data, count: size))
  do {
    let request = try WireRequest.decode(line)
    let encoded = request.encoded
    guard let again = try? WireRequest.decode(encoded), again == request else {
      fatalError(
        "request does not decode back the same from \(String(decoding: encoded, as: UTF8.self))")
    }
  } catch {
    let reply = WireReply.failure(error.description)
    let encoded = reply.encoded
    guard !encoded.dropLast().contains(0x0A), (try? WireReply.decode(encoded)) != nil else {
      fatalError("error reply is not one line of JSON: \(String(decoding: encoded, as: UTF8.self))")
    }
  }
  _ = try? PushPayload(text: line)
  return 0
}
