import Foundation
import Platform
import Testing

@testable import AppRuntime
@testable import AppShellCLI

// The HTTP client's TLS side, against `openssl s_server -WWW` with a certificate made for the
// test: refused while the certificate is not trusted, accepted once it is (SSL_CERT_FILE,
// which OpenSSL's default trust paths honour), and refused for a host name it does not name.
// Readiness is waited for by reading the server's `ACCEPT` with a deadline, never by sleeping.

@Suite(.serialized) struct HTTPSFetchTests {
  /// A TLS file server on loopback serving `directory`, with its certificate.
  private final class TLSServer {
    let directory: String
    let port: Int
    let certificate: String
    private let process: Process
    /// The server's standard output, kept open while it runs.
    private var output: Pipe?

    init() throws {
      let openssl = try #require(ChildProcess.find("openssl"), "openssl is needed")
      directory =
        FileManager.default.temporaryDirectory
        .appendingPathComponent("appshell-tls-\(UUID().uuidString.prefix(8))").path
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      certificate = directory + "/cert.pem"
      let make = try runProcess(
        openssl,
        [
          "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
          "-keyout", directory + "/key.pem", "-out", certificate, "-days", "1", "-subj",
          "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
        ], environment: ProcessInfo.processInfo.environment)
      try #require(make.status == 0, "openssl req: \(make.stderr)")
      // A free port: bind to 0, read it, let it go (s_server binds it next).
      let probe = try #require(Sockets.loopbackListener(backlog: nil), "no free port")
      port = Int(probe.port)
      close(probe.descriptor)
      process = Process()
      process.executableURL = URL(fileURLWithPath: openssl)
      process.arguments = [
        "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key",
        directory + "/key.pem", "-WWW",
      ]
      process.currentDirectoryURL = URL(fileURLWithPath: directory)
      // It prints `ACCEPT` once it listens; little else follows, so the pipe never fills.
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      let descriptor = output.fileHandleForReading.fileDescriptor
      let deadline = ContinuousClock.now + .seconds(20)
      var said: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 256)
      while !String(decoding: said, as: UTF8.self).contains("ACCEPT") {
        let left = ContinuousClock.now.duration(to: deadline).components
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard left.seconds >= 0, poll(&poller, 1, Int32(left.seconds * 1000) + 1) > 0 else {
          throw HeadlessError("openssl s_server did not start on port \(port)")
        }
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else {
          throw HeadlessError("openssl s_server ended: \(String(decoding: said, as: UTF8.self))")
        }
        said += buffer[..<count]
      }
      self.output = output
    }

    func stop() {
      // SIGKILL: a child of the test runner inherits its blocked signals, SIGTERM included.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  @Test func anUntrustedCertificateIsRefusedAndATrustedOneWorks() throws {
    let server = try TLSServer()
    defer { server.stop() }
    try Data("{\"version\":1,\"routes\":[]}".utf8).write(
      to: URL(fileURLWithPath: server.directory + "/routes.json"))
    let url = try #require(URL(string: "https://localhost:\(server.port)/routes.json"))

    unsetenv("SSL_CERT_FILE")
    guard case .failure(let untrusted) = HTTPFetcher.fetch(url) else {
      Issue.record("a self-signed certificate was accepted")
      return
    }
    #expect(untrusted.description.contains("not trusted"), "\(untrusted)")

    setenv("SSL_CERT_FILE", server.certificate, 1)
    defer { unsetenv("SSL_CERT_FILE") }
    switch HTTPFetcher.fetch(url) {
    case .success(let body):
      #expect(String(decoding: body, as: UTF8.self).contains("\"routes\":[]"))
    case .failure(let error):
      Issue.record("the trusted server was refused: \(error)")
    }

    // The certificate names localhost, not 127.0.0.1: the host name check refuses it.
    let byAddress = try #require(URL(string: "https://127.0.0.1:\(server.port)/routes.json"))
    guard case .failure(let wrongHost) = HTTPFetcher.fetch(byAddress) else {
      Issue.record("a certificate for another host name was accepted")
      return
    }
    #expect(wrongHost.description.contains("not trusted"), "\(wrongHost)")
  }

  @Test func plainHTTPErrorsSayWhatFailed() throws {
    // Nothing listens on port 1 of loopback.
    let url = try #require(URL(string: "http://127.0.0.1:1/routes.json"))
    guard case .failure(let error) = HTTPFetcher.fetch(url) else {
      Issue.record("a closed port answered")
      return
    }
    #expect(error.description.contains("cannot connect to 127.0.0.1:1"), "\(error)")
    let ftp = try #require(URL(string: "ftp://example.com/routes.json"))
    guard case .failure(let scheme) = HTTPFetcher.fetch(ftp) else {
      Issue.record("ftp was fetched")
      return
    }
    #expect(scheme.description.contains("only http and https"), "\(scheme)")
  }
}

/// A loopback server that answers every connection with the same raw bytes, then closes:
/// for responses a well-behaved server would never send.
private final class RawHTTPServer: @unchecked Sendable {
  let port: Int
  private let listener: Int32
  private let response: [UInt8]

  init(response: String) throws {
    self.response = Array(response.utf8)
    guard let (listener, port) = Sockets.loopbackListener(backlog: 4) else {
      throw HeadlessError("cannot listen")
    }
    self.listener = listener
    self.port = Int(port)
    let thread = Thread { [self] in serve() }
    thread.start()
  }

  private func serve() {
    while true {
      let client = Sockets.accept(listener)
      guard client >= 0 else { return }
      var buffer = [UInt8](repeating: 0, count: 4096)
      _ = recv(client, &buffer, buffer.count, 0)
      _ = response.withUnsafeBytes { Sockets.send(client, $0) }
      close(client)
    }
  }

  func stop() { shutdown(listener, Int32(SHUT_RDWR)) }
}

/// Responses a server should never send, each answered with a clear error, never a crash.
let hostileResponses: [(String, String)] = [
  ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "bad Content-Length"),
  ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\nx", "larger than"),
  ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\nxx", "larger than"),
  ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nxx", "bad chunk size"),
  ("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:1/x\r\n\r\n", "cannot connect"),
  ("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n", "HTTP status 404"),
  ("SSH-2.0-OpenSSH\r\n\r\n", "not an HTTP response"),
  ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "ended early"),
]

@Suite struct HostileHTTPResponseTests {
  private func fetch(_ response: String) throws -> Result<[UInt8], FetchError> {
    let server = try RawHTTPServer(response: response)
    defer { server.stop() }
    let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/routes.json"))
    return HTTPFetcher.fetch(url)
  }

  @Test(arguments: hostileResponses)
  func aHostileResponseIsAnErrorNotACrash(response: String, message: String) throws {
    guard case .failure(let error) = try fetch(response) else {
      Issue.record("accepted: \(response.debugDescription)")
      return
    }
    #expect(error.description.contains(message), "\(error)")
  }

  @Test func chunkedAndCloseDelimitedBodiesAreRead() throws {
    let chunked = try fetch(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n")
    #expect((try? chunked.get()) == Array("abcde".utf8))
    let closed = try fetch("HTTP/1.0 200 OK\r\n\r\nwhole body")
    #expect((try? closed.get()) == Array("whole body".utf8))
  }
}
