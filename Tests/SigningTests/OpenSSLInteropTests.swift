import Foundation
import Platform
import TestSupport
import Testing

@testable import Signing

/// Checks against the `openssl` command-line tool, which is installed on the build machines.
@Suite struct OpenSSLInteropTests {
  let message = Array("{\"version\": 7, \"routes\": []}\n".utf8)

  @Test func opensslSignatureVerifiesWithOurs() throws {
    let scratch = try Scratch()
    defer { withExtendedLifetime(scratch) {} }
    try scratch.openssl(["genpkey", "-algorithm", "ed25519", "-out", scratch.path("key.pem")])
    try scratch.write("routes.json", message)
    try scratch.openssl([
      "pkeyutl", "-sign", "-rawin", "-inkey", scratch.path("key.pem"),
      "-in", scratch.path("routes.json"), "-out", scratch.path("routes.json.sig"),
    ])
    try scratch.openssl([
      "pkey", "-in", scratch.path("key.pem"), "-pubout", "-out", scratch.path("public.pem"),
    ])

    let sigFile = try scratch.read("routes.json.sig")
    #expect(sigFile.count == 64)
    let signature = try DetachedSignature.decode(sigFile)
    let publicKey = try Ed25519PublicKey(pem: scratch.read("public.pem"))
    #expect(publicKey.verify(signature: signature, message: message))
    #expect(!publicKey.verify(signature: signature, message: message + [0x0A]))

    // Our reading of OpenSSL's private key signs the same bytes (Ed25519 is deterministic) and
    // writes the same PEM texts.
    let privateKey = try Ed25519PrivateKey(pem: scratch.read("key.pem"))
    #expect(try privateKey.sign(message) == signature)
    #expect(privateKey.publicKey == publicKey)
    #expect(Array(privateKey.pem.utf8) == (try scratch.read("key.pem")))
    #expect(Array(publicKey.pem.utf8) == (try scratch.read("public.pem")))
  }

  @Test func ourSignatureVerifiesWithOpenSSL() throws {
    let scratch = try Scratch()
    defer { withExtendedLifetime(scratch) {} }
    let key = try Ed25519PrivateKey.generate()
    let signature = try key.sign(message)
    try scratch.write("public.pem", Array(key.publicKey.pem.utf8))
    try scratch.write("routes.json", message)
    try scratch.write("routes.json.sig", signature)
    let verify = [
      "pkeyutl", "-verify", "-pubin", "-inkey", scratch.path("public.pem"), "-rawin",
      "-in", scratch.path("routes.json"), "-sigfile", scratch.path("routes.json.sig"),
    ]
    let output = try scratch.openssl(verify)
    #expect(output.contains("Signature Verified Successfully"))

    // The same check must fail for a damaged signature, or it proves nothing.
    var damaged = signature
    damaged[10] ^= 0x04
    try scratch.write("routes.json.sig", damaged)
    #expect(throws: OpenSSLFailed.self) { try scratch.openssl(verify) }

    // OpenSSL reads our private key PEM too, and signs the same bytes.
    try scratch.write("key.pem", Array(key.pem.utf8))
    try scratch.openssl([
      "pkeyutl", "-sign", "-rawin", "-inkey", scratch.path("key.pem"),
      "-in", scratch.path("routes.json"), "-out", scratch.path("openssl.sig"),
    ])
    #expect(try scratch.read("openssl.sig") == signature)
  }

  @Test(arguments: [
    (["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"], "RSA"),
    (["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], "EC"),
    (["-algorithm", "ed448"], "Ed448"),
    (["-algorithm", "x25519"], "X25519"),
  ])
  func otherKeyTypesAreRefusedByName(genpkey: [String], type: String) throws {
    let scratch = try Scratch()
    defer { withExtendedLifetime(scratch) {} }
    try scratch.openssl(["genpkey"] + genpkey + ["-out", scratch.path("key.pem")])
    try scratch.openssl([
      "pkey", "-in", scratch.path("key.pem"), "-pubout", "-out", scratch.path("public.pem"),
    ])
    let refusal = SigningError("the key is \(type), not Ed25519")
    #expect(throws: refusal) { try Ed25519PrivateKey(pem: scratch.read("key.pem")) }
    #expect(throws: refusal) { try Ed25519PublicKey(pem: scratch.read("public.pem")) }
  }

  @Test func traditionalRSAKeyFilesAreRefusedByName() throws {
    let scratch = try Scratch()
    defer { withExtendedLifetime(scratch) {} }
    try scratch.openssl([
      "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024",
      "-out", scratch.path("key.pem"),
    ])
    // "-----BEGIN RSA PRIVATE KEY-----" and "-----BEGIN RSA PUBLIC KEY-----" (PKCS#1).
    try scratch.openssl([
      "pkey", "-in", scratch.path("key.pem"), "-traditional", "-out", scratch.path("rsa.pem"),
    ])
    try scratch.openssl([
      "rsa", "-in", scratch.path("key.pem"), "-RSAPublicKey_out",
      "-out", scratch.path("rsa-public.pem"),
    ])
    #expect(try scratch.read("rsa.pem").starts(with: Array("-----BEGIN RSA PRIVATE KEY".utf8)))
    let refusal = SigningError("the key is RSA, not Ed25519")
    #expect(throws: refusal) { try Ed25519PrivateKey(pem: scratch.read("rsa.pem")) }
    #expect(throws: refusal) { try Ed25519PublicKey(pem: scratch.read("rsa-public.pem")) }
  }

  @Test func encryptedPrivateKeysAreRefusedWithoutAPrompt() throws {
    let scratch = try Scratch()
    defer { withExtendedLifetime(scratch) {} }
    try scratch.openssl([
      "genpkey", "-algorithm", "ed25519", "-aes-128-cbc", "-pass", "pass:secret",
      "-out", scratch.path("key.pem"),
    ])
    #expect(throws: SigningError("the private key is encrypted; give an unencrypted PKCS#8 key")) {
      try Ed25519PrivateKey(pem: scratch.read("key.pem"))
    }
  }
}

/// `openssl` exited with a failure status.
struct OpenSSLFailed: Error, CustomStringConvertible {
  let description: String
}

/// A temporary directory for one test, and `openssl` runs in it.
struct Scratch {
  /// OpenSSL's command on the PATH (version 3: Ed25519 keys), or nil.
  static let openssl = ChildProcess.find("openssl")

  /// The directory, removed with the last copy of this.
  private let temporary: TemporaryDirectory
  var directory: URL { temporary.url }

  /// Makes the directory; requires the `openssl` command, which the build machines have.
  init() throws {
    try #require(Scratch.openssl != nil, "these tests run the openssl command-line tool")
    temporary = try TemporaryDirectory("SigningTests")
  }

  func path(_ name: String) -> String {
    directory.appendingPathComponent(name).path
  }

  func write(_ name: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: directory.appendingPathComponent(name))
  }

  func read(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: directory.appendingPathComponent(name)))
  }

  /// Runs `openssl arguments` and returns its combined output; throws if it fails.
  @discardableResult
  func openssl(_ arguments: [String]) throws -> String {
    let result = try runProcess(
      try #require(Scratch.openssl), arguments, environment: ProcessInfo.processInfo.environment,
      in: directory.path)
    let output = result.stdout + result.stderr
    guard result.status == 0 else {
      throw OpenSSLFailed(
        description: "openssl \(arguments.joined(separator: " ")) exited with "
          + "\(result.status): \(output)")
    }
    return output
  }
}
