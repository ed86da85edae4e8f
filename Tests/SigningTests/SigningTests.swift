import Foundation
import Testing

@testable import Signing

@Suite struct SignatureTests {
  let message = Array("{\"routes\": [{\"pattern\": \"/home\", \"screen\": \"Home\"}]}\n".utf8)

  @Test func signThenVerifyRoundTrips() throws {
    let key = try Ed25519PrivateKey.generate()
    let signature = try key.sign(message)
    #expect(signature.count == 64)
    #expect(key.publicKey.verify(signature: signature, message: message))
    // Ed25519 is deterministic.
    #expect(try key.sign(message) == signature)
  }

  @Test func signsAndVerifiesTheEmptyMessage() throws {
    let key = try Ed25519PrivateKey.generate()
    let signature = try key.sign([])
    #expect(key.publicKey.verify(signature: signature, message: []))
    #expect(!key.publicKey.verify(signature: signature, message: [0]))
  }

  @Test func aChangedMessageByteFails() throws {
    let key = try Ed25519PrivateKey.generate()
    let signature = try key.sign(message)
    for index in [0, message.count / 2, message.count - 1] {
      var changed = message
      changed[index] ^= 0x01
      #expect(!key.publicKey.verify(signature: signature, message: changed))
    }
    #expect(!key.publicKey.verify(signature: signature, message: message + [0]))
    #expect(!key.publicKey.verify(signature: signature, message: Array(message.dropLast())))
  }

  @Test func aChangedSignatureByteFails() throws {
    let key = try Ed25519PrivateKey.generate()
    let signature = try key.sign(message)
    for index in [0, 31, 32, 63] {
      var changed = signature
      changed[index] ^= 0x80
      #expect(!key.publicKey.verify(signature: changed, message: message))
    }
  }

  @Test func aWrongKeyFails() throws {
    let key = try Ed25519PrivateKey.generate()
    let other = try Ed25519PrivateKey.generate()
    #expect(key.publicKey != other.publicKey)
    let signature = try key.sign(message)
    #expect(!other.publicKey.verify(signature: signature, message: message))
    #expect(other.publicKey.verify(signature: try other.sign(message), message: message))
  }

  @Test(arguments: [0, 1, 63, 65, 128])
  func aSignatureOfTheWrongLengthIsFalse(length: Int) throws {
    let key = try Ed25519PrivateKey.generate()
    let signature = try key.sign(message)
    let resized = Array((signature + signature).prefix(length))
    #expect(!key.publicKey.verify(signature: resized, message: message))
  }
}

@Suite struct KeyTests {
  @Test func privateKeyPEMRoundTrips() throws {
    let key = try Ed25519PrivateKey.generate()
    let pem = key.pem
    #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
    #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
    let parsed = try Ed25519PrivateKey(pem: Array(pem.utf8))
    #expect(parsed.pem == pem)
    #expect(parsed.publicKey == key.publicKey)
    let message = Array("table".utf8)
    #expect(try parsed.sign(message) == key.sign(message))
  }

  @Test func publicKeyPEMRoundTrips() throws {
    let key = try Ed25519PrivateKey.generate().publicKey
    let pem = key.pem
    #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
    #expect(pem.hasSuffix("-----END PUBLIC KEY-----\n"))
    let parsed = try Ed25519PublicKey(pem: Array(pem.utf8))
    #expect(parsed.raw == key.raw)
    #expect(parsed.raw.count == 32)
    #expect(parsed.pem == pem)
  }

  @Test func publicKeyFromRawBytes() throws {
    let key = try Ed25519PrivateKey.generate().publicKey
    #expect(try Ed25519PublicKey(raw: key.raw) == key)
    #expect(throws: SigningError("an Ed25519 public key must be 32 bytes; got 31 bytes")) {
      try Ed25519PublicKey(raw: Array(key.raw.dropLast()))
    }
  }

  @Test func fingerprintIsTheStartOfTheKeysSHA256() throws {
    let key = try Ed25519PublicKey(raw: Array(0..<32))
    #expect(key.fingerprint == "630dcd2966c43366")
    #expect(Digest.sha256Hex(Array(0..<32)).hasPrefix(key.fingerprint))
  }

  @Test func generatedKeysDiffer() throws {
    let first = try Ed25519PrivateKey.generate()
    let second = try Ed25519PrivateKey.generate()
    #expect(first.pem != second.pem)
    #expect(first.publicKey != second.publicKey)
  }

  @Test func privateKeyDescriptionHidesTheSeed() throws {
    let key = try Ed25519PrivateKey.generate()
    #expect("\(key)" == "Ed25519PrivateKey(public key \(key.publicKey.fingerprint))")
  }

  @Test(arguments: [
    ("", "not a PEM public key"),
    ("hello", "not a PEM public key"),
    (
      "-----BEGIN PUBLIC KEY-----\nnot base64 at all!\n-----END PUBLIC KEY-----\n",
      "not a PEM public key: the PUBLIC KEY block does not decode"
    ),
    (
      "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n",
      "not a PEM public key: the PUBLIC KEY block does not decode"
    ),
    (
      "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
      "not a PEM public key: found a CERTIFICATE block"
    ),
    (
      "-----BEGIN RSA PUBLIC KEY-----\nAAAA\n-----END RSA PUBLIC KEY-----\n",
      "the key is RSA, not Ed25519"
    ),
  ])
  func garbagePublicPEMIsRefused(text: String, error: String) {
    #expect(throws: SigningError(error)) { try Ed25519PublicKey(pem: Array(text.utf8)) }
  }

  @Test(arguments: [
    ("", "not a PEM private key"),
    ("-----BEGIN", "not a PEM private key"),
    (
      "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
      "not a PEM private key: the PRIVATE KEY block does not decode"
    ),
    (
      "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n",
      "the private key is encrypted; give an unencrypted PKCS#8 key"
    ),
  ])
  func garbagePrivatePEMIsRefused(text: String, error: String) {
    #expect(throws: SigningError(error)) { try Ed25519PrivateKey(pem: Array(text.utf8)) }
  }

  @Test func binaryGarbageIsRefused() {
    let bytes: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
    #expect(throws: SigningError("not a PEM public key")) { try Ed25519PublicKey(pem: bytes) }
    #expect(throws: SigningError("not a PEM private key")) { try Ed25519PrivateKey(pem: bytes) }
  }

  @Test func aPublicKeyIsNotAPrivateKeyNorTheOtherWayRound() throws {
    let key = try Ed25519PrivateKey.generate()
    #expect(throws: SigningError("this is a public key; signing needs the private key")) {
      try Ed25519PrivateKey(pem: Array(key.publicKey.pem.utf8))
    }
    #expect(
      throws: SigningError("this is a private key; give the public key (openssl pkey -pubout)")
    ) {
      try Ed25519PublicKey(pem: Array(key.pem.utf8))
    }
  }
}

@Suite struct DetachedSignatureTests {
  let signature: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 200) }

  @Test func encodesAsBase64AndANewline() {
    let text = DetachedSignature.encode(signature)
    #expect(text == Data(signature).base64EncodedString() + "\n")
    #expect(text.utf8.count == 89)
  }

  @Test func decodesBase64WithANewline() throws {
    let file = Array(DetachedSignature.encode(signature).utf8)
    #expect(try DetachedSignature.decode(file) == signature)
  }

  @Test func decodesBase64WithWhitespaceAroundAndLineBreaksInside() throws {
    var text = Data(signature).base64EncodedString()
    text.insert("\n", at: text.index(text.startIndex, offsetBy: 64))
    #expect(try DetachedSignature.decode(Array(" \t\r\n\(text)\r\n\n ".utf8)) == signature)
  }

  @Test func decodesRaw64Bytes() throws {
    #expect(try DetachedSignature.decode(signature) == signature)
    let whitespace = [UInt8](repeating: 0x0A, count: 64)
    #expect(try DetachedSignature.decode(whitespace) == whitespace)
  }

  @Test func refuses63RawBytes() {
    #expect(
      throws: SigningError("a signature must be 64 bytes or their base64; got 63 bytes")
    ) {
      try DetachedSignature.decode(Array(signature.dropLast()))
    }
  }

  @Test func refusesInvalidBase64() {
    let text = Data(signature).base64EncodedString()
    let broken = "!" + text.dropFirst() + "\n"
    #expect(
      throws: SigningError(
        "a signature must be 64 bytes or their base64; got 89 bytes of text that is not base64"
          + " ('!' at offset 0)")
    ) {
      try DetachedSignature.decode(Array(broken.utf8))
    }
  }

  @Test func refusesBase64Of65Bytes() {
    let text = Data(signature + [1]).base64EncodedString() + "\n"
    #expect(
      throws: SigningError("a signature must be 64 bytes or their base64; got base64 of 65 bytes")
    ) {
      try DetachedSignature.decode(Array(text.utf8))
    }
  }

  @Test func refusesEmptyAndBlankFiles() {
    #expect(
      throws: SigningError("a signature must be 64 bytes or their base64; got an empty file")
    ) {
      try DetachedSignature.decode([])
    }
    #expect(
      throws: SigningError("a signature must be 64 bytes or their base64; got only whitespace")
    ) {
      try DetachedSignature.decode(Array(" \n\n".utf8))
    }
  }
}

@Suite struct Base64Tests {
  @Test func encodeAndDecodeAgreeWithFoundation() throws {
    for length in 0...70 {
      let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ length) }
      let expected = Data(bytes).base64EncodedString()
      #expect(Base64.encode(bytes) == expected, "length \(length)")
      #expect(try Base64.decode(Array(expected.utf8)) == bytes, "length \(length)")
    }
  }

  @Test(arguments: [
    ("QUJD=", "its length 5 is not a multiple of 4"),
    ("QU=D", "a misplaced '=' at offset 2"),
    ("Q===", "a misplaced '=' at offset 1"),
    ("QU J", "' ' at offset 2"),
    ("QUJ=", "the bits before the '=' padding are not zero"),
    ("QR==", "the bits before the '=' padding are not zero"),
  ])
  func decodeIsStrict(text: String, reason: String) {
    #expect(throws: Base64.Invalid(description: reason)) { try Base64.decode(Array(text.utf8)) }
  }
}

@Suite struct DigestTests {
  @Test(arguments: [
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
  ])
  func sha256HexMatchesKnownVectors(text: String, hex: String) {
    #expect(Digest.sha256Hex(Array(text.utf8)) == hex)
  }
}
