import Foundation
import Interface
import Routing
import Shell
import Signing

extension AppLoader {
  /// The console of the app at start-up and where its table comes from: the screens (default:
  /// the shipped ones), the table (`routes`: a file or an http(s) URL; default: the screens
  /// directory's `routes.json`) and the key remote tables must be signed with (default: the
  /// shipped `Screens/routes-key.pem`). Notes about the table (a cache used, a download
  /// refused) are in the status line and the log; `tableSource` says where the table in force
  /// came from.
  package static func loadConsole(
    screens: String?, routes: String?, key keyPath: String?, size: Size
  )
    throws(LoadError) -> (Console, TableSource, tableSource: String)
  {
    let directory = screens ?? shippedScreensDirectory()
    let maker = try appMaker(directory: directory)
    let shippedTable = directory + "/routes.json"
    let location: TableSource.Location
    if let routes, let url = URL(string: routes),
      ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    {
      location = .remote(url)
    } else {
      location = .file(routes ?? shippedTable, shipped: routes == nil && screens == nil)
    }
    var key: Ed25519PublicKey?
    if case .remote = location {
      let path = keyPath ?? shippedScreensDirectory() + "/routes-key.pem"
      guard let data = FileManager.default.contents(atPath: path) else {
        throw LoadError("\(path): cannot read the route-table key")
      }
      do {
        key = try Ed25519PublicKey(pem: [UInt8](data))
      } catch {
        throw LoadError("\(path): \(error)")
      }
    }
    var source = TableSource(
      location: location, key: key, cache: TableCache.current(), shippedPath: shippedTable)
    source.appDirectory = directory
    let (candidate, note) = try source.initial(
      make: source.isOwnTable ? maker.own : maker.callAsFunction)
    var console = Console(app: candidate.app, size: size)
    if let note { console.send(.noted(note, isProblem: true)) }
    return (console, source, candidate.description)
  }
}
