import Foundation
import RouteCodegen
import Routing

// `appshell-routegen TABLE OUTPUT [TYPE]`: writes the `TypedRoute` enum for the route table
// TABLE to OUTPUT (the RoutesPlugin runs it for each table of a target). TYPE defaults to the
// table file's name: `AppRoute` for `routes.json`, `ShopRoute` for `shop.routes.json`. A table
// that cannot be used is an error naming the file, exit 1.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 || arguments.count == 3 else {
  FileHandle.standardError.write(Data("usage: appshell-routegen TABLE OUTPUT [TYPE]\n".utf8))
  exit(2)
}
let input = arguments[arguments.startIndex]
let output = arguments[arguments.startIndex + 1]

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("\(input): error: \(message)\n".utf8))
  exit(1)
}

let fileName = URL(fileURLWithPath: input).lastPathComponent
guard
  let typeName = arguments.count == 3 ? arguments.last! : SwiftEmitter.typeName(forFile: fileName)
else {
  fail("no type name for the file name '\(fileName)' (routes.json or NAME.routes.json)")
}
guard let data = FileManager.default.contents(atPath: input) else { fail("cannot be read") }
do {
  let table = try RouteTable(json: [UInt8](data))
  let source = try SwiftEmitter(typeName: typeName, tableName: fileName).source(for: table)
  // Written only when it changed, so an unchanged table does not rebuild the target.
  if FileManager.default.contents(atPath: output) != Data(source.utf8) {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output))
  }
} catch {
  fail("\(error)")
}
