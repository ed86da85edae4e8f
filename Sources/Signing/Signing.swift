import CCrypto

/// Why a key or signature could not be read, or a message could not be signed.
///
/// The message says what is wrong ("the key is RSA, not Ed25519"); the caller adds which file.
package struct SigningError: Error, Sendable, CustomStringConvertible, Equatable {
  /// The human explanation, without a file name.
  package let message: String

  /// Makes an error that explains itself with `message`.
  package init(_ message: String) {
    self.message = message
  }

  /// The message, for printing.
  package var description: String { message }
}

/// An Ed25519 public key, used to check that a downloaded route table was signed by its owner.
package struct Ed25519PublicKey: Sendable, Hashable {
  /// The 32 raw key bytes (RFC 8032 encoding).
  package let raw: [UInt8]

  /// Reads a SubjectPublicKeyInfo PEM ("-----BEGIN PUBLIC KEY-----"), as
  /// `openssl pkey -pubout` writes it; refuses other key types, naming them, and anything else.
  package init(pem: [UInt8]) throws(SigningError) {
    guard let key = readPEMKey(pem, isPrivate: false) else {
      throw SigningError(explainUnreadablePEM(pem, wanted: "PUBLIC KEY"))
    }
    defer { EVP_PKEY_free(key) }
    try requireEd25519(key)
    guard let raw = rawBytes(of: key, isPrivate: false) else {
      throw SigningError("the Ed25519 public key has no raw 32-byte form")
    }
    self.raw = raw
  }

  /// Takes the 32 raw key bytes; any other length is an error.
  package init(raw: [UInt8]) throws(SigningError) {
    guard raw.count == keyLength else {
      throw SigningError("an Ed25519 public key must be 32 bytes; got \(raw.count) bytes")
    }
    self.raw = raw
  }

  /// The key as SubjectPublicKeyInfo PEM text ("-----BEGIN PUBLIC KEY-----"), ending in a newline.
  package var pem: String {
    guard let text = withKey(raw, isPrivate: false, { pemText(of: $0, isPrivate: false) }) else {
      // Encoding 32 valid bytes can fail only when memory runs out, where Swift traps anyway.
      fatalError("OpenSSL could not write an Ed25519 public key as PEM")
    }
    return text
  }

  /// Whether `signature` is this key's Ed25519 signature of `message`.
  ///
  /// A signature that is not 64 bytes is simply false; this never traps.
  package func verify(signature: [UInt8], message: [UInt8]) -> Bool {
    guard signature.count == signatureLength else { return false }
    let valid =
      withKey(raw, isPrivate: false) { key -> Bool? in
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        // Ed25519 hashes internally, so there is no separate digest (NULL).
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return nil }
        let status = withBytes(message) { text, count in
          signature.withUnsafeBufferPointer {
            EVP_DigestVerify(context, $0.baseAddress, $0.count, text, count)
          }
        }
        return status == 1
      } ?? false
    if !valid { ERR_clear_error() }
    return valid
  }

  /// The first 16 hex digits of the SHA-256 of the raw key, to name the key in messages.
  package var fingerprint: String {
    String(Digest.sha256Hex(raw).prefix(16))
  }
}

/// An Ed25519 private key, used by `appshell sign-table` to sign route tables.
package struct Ed25519PrivateKey: Sendable, CustomStringConvertible {
  /// The 32-byte RFC 8032 seed the whole key derives from.
  private let seed: [UInt8]

  private init(seed: [UInt8]) {
    self.seed = seed
  }

  /// Reads a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"), as `openssl genpkey -algorithm ed25519`
  /// writes it; refuses public keys, encrypted keys and other key types with a clear message.
  package init(pem: [UInt8]) throws(SigningError) {
    guard let key = readPEMKey(pem, isPrivate: true) else {
      throw SigningError(explainUnreadablePEM(pem, wanted: "PRIVATE KEY"))
    }
    defer { EVP_PKEY_free(key) }
    try requireEd25519(key)
    guard let seed = rawBytes(of: key, isPrivate: true) else {
      throw SigningError("the Ed25519 private key has no raw 32-byte form")
    }
    self.seed = seed
  }

  /// Makes a new random key from OpenSSL's random generator.
  package static func generate() throws(SigningError) -> Ed25519PrivateKey {
    var key: OpaquePointer? = nil
    if let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) {
      if EVP_PKEY_keygen_init(context) != 1 || EVP_PKEY_keygen(context, &key) != 1 {
        EVP_PKEY_free(key)
        key = nil
      }
      EVP_PKEY_CTX_free(context)
    }
    guard let key else {
      ERR_clear_error()
      throw SigningError("OpenSSL could not generate an Ed25519 key")
    }
    defer { EVP_PKEY_free(key) }
    guard let seed = rawBytes(of: key, isPrivate: true) else {
      throw SigningError("OpenSSL generated an Ed25519 key without a raw 32-byte form")
    }
    return Ed25519PrivateKey(seed: seed)
  }

  /// The key as unencrypted PKCS#8 PEM text ("-----BEGIN PRIVATE KEY-----"), ending in a newline.
  package var pem: String {
    guard let text = withKey(seed, isPrivate: true, { pemText(of: $0, isPrivate: true) }) else {
      // Encoding a 32-byte seed can fail only when memory runs out, where Swift traps anyway.
      fatalError("OpenSSL could not write an Ed25519 private key as PEM")
    }
    return text
  }

  /// The matching public key, to hand out for verification.
  package var publicKey: Ed25519PublicKey {
    guard let raw = withKey(seed, isPrivate: true, { rawBytes(of: $0, isPrivate: false) }),
      let key = try? Ed25519PublicKey(raw: raw)
    else {
      // Every 32-byte seed is a valid key, so only running out of memory ends here.
      fatalError("OpenSSL could not derive an Ed25519 public key")
    }
    return key
  }

  /// The 64-byte Ed25519 signature of `message` (deterministic: same key and message, same bytes).
  package func sign(_ message: [UInt8]) throws(SigningError) -> [UInt8] {
    let signature = withKey(seed, isPrivate: true) { key -> [UInt8]? in
      guard let context = EVP_MD_CTX_new() else { return nil }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else { return nil }
      var signature = [UInt8](repeating: 0, count: signatureLength)
      var length = signature.count
      let status = withBytes(message) { text, count in
        signature.withUnsafeMutableBufferPointer {
          EVP_DigestSign(context, $0.baseAddress, &length, text, count)
        }
      }
      return status == 1 && length == signatureLength ? signature : nil
    }
    guard let signature else {
      ERR_clear_error()
      throw SigningError("OpenSSL could not sign with the Ed25519 key")
    }
    return signature
  }

  /// Names the key by its public fingerprint; never shows the seed.
  package var description: String {
    "Ed25519PrivateKey(public key \(publicKey.fingerprint))"
  }
}

/// Digests for naming things, such as the disk-cache file of a URL.
package enum Digest {
  /// The SHA-256 of `bytes` as 64 lowercase hex digits.
  package static func sha256Hex(_ bytes: [UInt8]) -> String {
    var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
    withBytes(bytes) { data, count in
      digest.withUnsafeMutableBufferPointer { _ = SHA256(data, count, $0.baseAddress) }
    }
    return hex(digest)
  }
}

/// The size of raw Ed25519 keys and seeds.
let keyLength = 32

/// The size of an Ed25519 signature.
let signatureLength = 64

/// Lowercase hex of `bytes`.
func hex(_ bytes: [UInt8]) -> String {
  let digits = Array("0123456789abcdef".utf8)
  var text: [UInt8] = []
  text.reserveCapacity(bytes.count * 2)
  for byte in bytes {
    text.append(digits[Int(byte >> 4)])
    text.append(digits[Int(byte & 0x0F)])
  }
  return String(decoding: text, as: UTF8.self)
}

/// Calls `body` with a pointer to `bytes` that is never NULL, even for an empty array, since
/// OpenSSL may treat a NULL input as an error.
private func withBytes<R>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>, Int) -> R) -> R {
  bytes.withUnsafeBufferPointer { buffer in
    if let base = buffer.baseAddress { return body(base, buffer.count) }
    let zero: UInt8 = 0
    return withUnsafePointer(to: zero) { body($0, 0) }
  }
}

/// Makes an OpenSSL Ed25519 key from raw public bytes or a raw seed, calls `body`, then frees it.
private func withKey<R>(
  _ raw: [UInt8], isPrivate: Bool, _ body: (OpaquePointer) -> R?
) -> R? {
  let key = raw.withUnsafeBufferPointer { buffer in
    isPrivate
      ? EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, buffer.baseAddress, buffer.count)
      : EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, buffer.baseAddress, buffer.count)
  }
  guard let key else {
    ERR_clear_error()
    return nil
  }
  defer { EVP_PKEY_free(key) }
  return body(key)
}

/// Parses the first public (SubjectPublicKeyInfo) or private key in `pem`; nil if there is none.
/// The caller frees the key. Encrypted keys are refused rather than prompting for a password.
private func readPEMKey(_ pem: [UInt8], isPrivate: Bool) -> OpaquePointer? {
  guard pem.count <= Int(Int32.max) else { return nil }
  let key = withBytes(pem) { data, count -> OpaquePointer? in
    guard let bio = BIO_new_mem_buf(data, Int32(count)) else { return nil }
    defer { BIO_free(bio) }
    return isPrivate
      ? PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
      : PEM_read_bio_PUBKEY(bio, nil, { _, _, _, _ in -1 }, nil)
  }
  if key == nil { ERR_clear_error() }
  return key
}

/// Throws unless `key` is an Ed25519 key, naming the type it is instead.
private func requireEd25519(_ key: OpaquePointer) throws(SigningError) {
  guard EVP_PKEY_is_a(key, "ED25519") != 1 else { return }
  let name = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "of an unknown type"
  throw SigningError("the key is \(readableKeyType(name)), not Ed25519")
}

/// OpenSSL's key type names, spelled as people write them.
private func readableKeyType(_ name: String) -> String {
  switch name.uppercased() {
  case "ED448": "Ed448"
  case "ED25519": "Ed25519"
  case "RSA-PSS", "RSASSA-PSS": "RSA-PSS"
  default: name
  }
}

/// The raw public bytes or seed of an Ed25519 key; nil if OpenSSL has none of 32 bytes.
private func rawBytes(of key: OpaquePointer, isPrivate: Bool) -> [UInt8]? {
  var raw = [UInt8](repeating: 0, count: keyLength)
  var length = raw.count
  let status = raw.withUnsafeMutableBufferPointer { buffer in
    isPrivate
      ? EVP_PKEY_get_raw_private_key(key, buffer.baseAddress, &length)
      : EVP_PKEY_get_raw_public_key(key, buffer.baseAddress, &length)
  }
  guard status == 1, length == keyLength else {
    ERR_clear_error()
    return nil
  }
  return raw
}

/// `key` as PEM: SubjectPublicKeyInfo for the public half, unencrypted PKCS#8 for the private.
private func pemText(of key: OpaquePointer, isPrivate: Bool) -> String? {
  guard let bio = BIO_new(BIO_s_mem()) else { return nil }
  defer { BIO_free(bio) }
  let status =
    isPrivate
    ? PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil)
    : PEM_write_bio_PUBKEY(bio, key)
  var data: UnsafeMutablePointer<CChar>? = nil
  // BIO_get_mem_data is a macro over BIO_ctrl(BIO_CTRL_INFO).
  let length = status == 1 ? BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data) : 0
  guard length > 0, let data else {
    ERR_clear_error()
    return nil
  }
  return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
}

/// Says why `pem` holds no readable key of the `wanted` PEM label ("PUBLIC KEY" or
/// "PRIVATE KEY"), from the labels of the blocks it does hold.
private func explainUnreadablePEM(_ pem: [UInt8], wanted: String) -> String {
  let expected = wanted == "PUBLIC KEY" ? "a PEM public key" : "a PEM private key"
  let labels = pemLabels(pem)
  if labels.contains(wanted) {
    return "not \(expected): the \(wanted) block does not decode"
  }
  if wanted == "PRIVATE KEY", labels.contains("ENCRYPTED PRIVATE KEY") {
    return "the private key is encrypted; give an unencrypted PKCS#8 key"
  }
  for label in labels {
    // "RSA PRIVATE KEY", "EC PUBLIC KEY" and the like name their type.
    for suffix in [" PRIVATE KEY", " PUBLIC KEY"] where label.hasSuffix(suffix) {
      let type = String(label.dropLast(suffix.count))
      if type != "ENCRYPTED" && !type.isEmpty {
        return "the key is \(readableKeyType(type)), not Ed25519"
      }
    }
  }
  if wanted == "PRIVATE KEY", labels.contains("PUBLIC KEY") {
    return "this is a public key; signing needs the private key"
  }
  if wanted == "PUBLIC KEY", labels.contains(where: { $0.hasSuffix("PRIVATE KEY") }) {
    return "this is a private key; give the public key (openssl pkey -pubout)"
  }
  if let label = labels.first {
    return "not \(expected): found a \(label) block"
  }
  return "not \(expected)"
}

/// The labels of the "-----BEGIN LABEL-----" lines in `pem`, in order.
private func pemLabels(_ pem: [UInt8]) -> [String] {
  let text = String(decoding: pem, as: UTF8.self)
  var labels: [String] = []
  var rest = text[...]
  while let begin = rest.firstRange(of: "-----BEGIN ") {
    rest = rest[begin.upperBound...]
    guard let end = rest.firstRange(of: "-----") else { break }
    let label = rest[..<end.lowerBound]
    if !label.contains("\n") { labels.append(String(label)) }
    rest = rest[end.upperBound...]
  }
  return labels
}
