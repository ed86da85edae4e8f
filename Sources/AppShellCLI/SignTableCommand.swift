import Foundation
import Routing
import Signing

/// `appshell sign-table --key PRIVATE.pem TABLE [--output FILE]`: writes the detached Ed25519
/// signature a remote table must be served with.
enum SignTableCommand {
  /// The usage of `sign-table`.
  static let usage = Usage(
    command: "sign-table",
    forms: ["appshell sign-table --key PRIVATE.pem [--output FILE] TABLE"],
    summary: "Write the Ed25519 signature a remote route table is served with.")

  static let help = """
    OVERVIEW: Sign a route table so an appshell will accept it over the network.

    \(usage.section)

    ARGUMENTS:
      TABLE               The route table (JSON); it must be valid and carry a "version".

    OPTIONS:
      --key PRIVATE.pem   The Ed25519 private key (openssl genpkey -algorithm ed25519).
      --output FILE       Where the signature goes (default: TABLE.sig).
      -h, --help          Show this help.

    Serve the table and TABLE.sig side by side; start the app with --routes URL and
    --routes-key PUBLIC.pem (openssl pkey -in PRIVATE.pem -pubout).

    """

  static func run(_ arguments: [[UInt8]], io: CommandIO) -> Int32 {
    var options = Options(arguments, command: "sign-table")
    var keyPath: String?
    var output: String?
    var tablePath: String?
    while let argument = options.next() {
      switch argument {
      case "-h", "--help":
        io.write(Array(help.utf8))
        return 0
      case "--key":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        keyPath = value
      case "--output":
        guard let value = options.value(for: argument) else { return options.fail(io) }
        output = value
      default:
        if argument.hasPrefix("-") && !options.ended {
          return options.fail(io, Options.unknown(argument, help: help))
        }
        guard tablePath == nil else { return options.fail(io, "more than one TABLE") }
        tablePath = argument
      }
    }
    guard let keyPath else { return options.fail(io, "missing --key PRIVATE.pem") }
    guard let tablePath else { return options.fail(io, "missing TABLE") }
    func failure(_ message: String) -> Int32 {
      io.writeError("appshell sign-table: \(message)\n")
      return 1
    }
    guard let keyData = FileManager.default.contents(atPath: keyPath) else {
      return failure("\(keyPath): cannot read the key")
    }
    guard let tableData = FileManager.default.contents(atPath: tablePath) else {
      return failure("\(tablePath): cannot read the table")
    }
    let table: RouteTable
    do {
      table = try RouteTable(json: [UInt8](tableData))
    } catch {
      return failure("\(tablePath): \(error)")
    }
    guard let version = table.version else {
      return failure("\(tablePath): a remote table must carry a \"version\"")
    }
    let signature: [UInt8]
    let key: Ed25519PrivateKey
    do {
      key = try Ed25519PrivateKey(pem: [UInt8](keyData))
      signature = try key.sign([UInt8](tableData))
    } catch {
      return failure("\(keyPath): \(error)")
    }
    let destination = output ?? tablePath + ".sig"
    guard
      FileManager.default.createFile(
        atPath: destination, contents: Data(DetachedSignature.encode(signature).utf8))
    else {
      return failure("\(destination): cannot write the signature")
    }
    io.write(
      Array(
        "signed \(tablePath) (v\(version), \(table.entries.count) routes) with key \(key.publicKey.fingerprint) -> \(destination)\n"
          .utf8))
    return 0
  }
}
