import COpenSSL

/// An Ed25519 (RFC 8032) signing key. A plain value: the 32-byte seed is kept
/// in memory and an OpenSSL key is made per operation.
public struct Ed25519PrivateKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    private let raw: [UInt8]

    /// Wraps a 32-byte seed.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == 32 else {
            throw .invalidKey("an Ed25519 private key has 32 bytes, found \(rawRepresentation.count)")
        }
        raw = rawRepresentation
    }

    /// A new random key from OpenSSL's key generator.
    public static func generate() throws(CryptoError) -> Ed25519PrivateKey {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else { throw .library("EVP_PKEY_CTX_new_id") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw .library("Ed25519 key generation")
        }
        return try OpenSSLKey.with(key) { key throws(CryptoError) in
            try Ed25519PrivateKey(rawRepresentation: try OpenSSLKey.rawPrivate(key))
        }
    }

    /// Reads a PKCS #8 PEM private key (`-----BEGIN PRIVATE KEY-----`), as written by ``pemRepresentation``
    /// or `openssl genpkey -algorithm ed25519`.
    public init(pem: String) throws(CryptoError) {
        let key = try OpenSSLKey.read(pem: pem, what: "private key") { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
        raw = try OpenSSLKey.with(key) { key throws(CryptoError) in
            try OpenSSLKey.requireEd25519(key, "the private key")
            return try OpenSSLKey.rawPrivate(key)
        }
    }

    /// The 32-byte seed.
    public var rawRepresentation: [UInt8] { raw }

    /// Unencrypted PKCS #8 PEM; store it with file mode 0600.
    public var pemRepresentation: String {
        get throws(CryptoError) {
            try OpenSSLKey.with(try OpenSSLKey.privateKey(raw: raw)) { key throws(CryptoError) in
                try OpenSSLKey.pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
            }
        }
    }

    /// The matching public key.
    public var publicKey: Ed25519PublicKey {
        get throws(CryptoError) {
            try OpenSSLKey.with(try OpenSSLKey.privateKey(raw: raw)) { key throws(CryptoError) in
                try Ed25519PublicKey(rawRepresentation: try OpenSSLKey.rawPublic(key))
            }
        }
    }

    /// The 64-byte Ed25519 signature of `message` (pure Ed25519, no prehash).
    public func signature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        try OpenSSLKey.with(try OpenSSLKey.privateKey(raw: raw)) { key throws(CryptoError) in
            guard let context = EVP_MD_CTX_new() else { throw .library("EVP_MD_CTX_new") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else { throw .library("EVP_DigestSignInit") }
            var signature = [UInt8](repeating: 0, count: Ed25519PublicKey.signatureByteCount)
            var length = signature.count
            let ok = message.withUnsafeBufferPointer { input in
                EVP_DigestSign(context, &signature, &length, input.baseAddress, input.count)
            }
            guard ok == 1, length == Ed25519PublicKey.signatureByteCount else { throw .library("EVP_DigestSign") }
            return signature
        }
    }

    /// Redacted, so a key never reaches a log by accident.
    public var description: String { "Ed25519PrivateKey(redacted)" }

    /// Redacted, so a key never reaches a log by accident.
    public var debugDescription: String { description }
}
