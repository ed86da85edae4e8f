// libFuzzer target: `app.json` and data screen files, as an app directory is loaded (see
// Tests/Fuzz/run).
//
// Invariants: any bytes either read as an app definition or a screen, or give an error whose
// member places it in the file; a screen that reads renders with no parameters and with odd
// ones, without trapping.
import JSON
import Routing
import Shell

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzApp(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let located = try? JSON.parseLocated(bytes) else { return 0 }
  do {
    _ = try AppDefinition(json: located.value)
  } catch {
    _ = located.located(error.member, file: "app.json")
  }
  do {
    let screen = try ScreenDefinition(json: located.value)
    _ = screen.make(params: [:], url: nil)
    _ = screen.make(params: ["id": .int(7), "q": .strings(["a", "{{x}}"])], url: "x://y")
  } catch {
    _ = located.located("\(error)", file: "screen.json")
  }
  return 0
}
