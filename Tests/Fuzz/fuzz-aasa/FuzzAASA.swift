// libFuzzer target: AASA files (apple-app-site-association) as the links' loader reads them
// (see Tests/Fuzz/run).
//
// Invariants: any bytes either read or give an error naming a member that places it in the
// file; a file that reads decides URLs made from its own patterns, and a few fixed ones,
// without trapping.
import JSON
import Links
import Routing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAASA(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let located = try? JSON.parseLocated(bytes, maxDepth: 32) else { return 0 }
  let document: AASADocument
  do {
    document = try AASADocument(json: located.value)
  } catch {
    let message = located.located(error.description, file: "aasa.json")
    guard message.hasPrefix("aasa.json:") else { fatalError("\(error) placed as \(message)") }
    return 0
  }
  // URLs from the file's own strings, so matching goes past the first component.
  var texts = ["/", "/buy/shoes", "/a?b=c#d", "/%E4%B8%AD?q=1&q=2"]
  if case .array(let details)? = located.value["applinks"]?["details"],
    case .array(let components)? = details.first?["components"],
    case .string(let text)? = components.first?["/"]
  {
    texts.append(text.replacing("*", with: "x").replacing("?", with: "y"))
  }
  for text in texts {
    guard let url = try? LinkURL("https://example.com" + (text.hasPrefix("/") ? text : "/" + text))
    else { continue }
    for appID in ["ABCDE12345.com.example.app", "T.shop"] {
      _ = document.decide(url, appID: appID, explain: true)
    }
  }
  return 0
}
