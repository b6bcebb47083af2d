import COpenSSL

/// An Ed25519 (RFC 8032) verification key.
public struct Ed25519PublicKey: Sendable, Hashable {
    /// Length of an Ed25519 signature in bytes.
    public static let signatureByteCount = 64

    private let raw: [UInt8]

    /// Wraps the 32-byte public key.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == 32 else {
            throw .invalidKey("an Ed25519 public key has 32 bytes, found \(rawRepresentation.count)")
        }
        raw = rawRepresentation
    }

    /// Wraps the 32-byte public key given as base64 (as `parley keygen` prints it).
    public init(base64: String) throws(CryptoError) {
        try self.init(rawRepresentation: try Base64.decode(base64))
    }

    /// Reads an SPKI PEM public key (`-----BEGIN PUBLIC KEY-----`).
    public init(pem: String) throws(CryptoError) {
        let key = try OpenSSLKey.read(pem: pem, what: "public key") { PEM_read_bio_PUBKEY($0, nil, nil, nil) }
        raw = try OpenSSLKey.with(key) { key throws(CryptoError) in
            try OpenSSLKey.requireEd25519(key, "the public key")
            return try OpenSSLKey.rawPublic(key)
        }
    }

    /// The 32-byte public key.
    public var rawRepresentation: [UInt8] { raw }

    /// SPKI PEM.
    public var pemRepresentation: String {
        get throws(CryptoError) {
            try OpenSSLKey.with(try OpenSSLKey.publicKey(raw: raw)) { key throws(CryptoError) in
                try OpenSSLKey.pem { PEM_write_bio_PUBKEY($0, key) }
            }
        }
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by this
    /// key. Any malformed input (wrong length, invalid point) is simply `false`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == Self.signatureByteCount, let key = try? OpenSSLKey.publicKey(raw: raw) else {
            return false
        }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else {
            _ = CryptoError.drainErrors()
            return false
        }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { input in
                EVP_DigestVerify(context, sig.baseAddress, sig.count, input.baseAddress, input.count)
            }
        }
        _ = CryptoError.drainErrors()
        return result == 1
    }
}
