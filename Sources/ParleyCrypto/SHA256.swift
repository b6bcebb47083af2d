import COpenSSL

/// SHA-256 (FIPS 180-4) through OpenSSL's EVP interface.
public enum SHA256 {
    /// Length of a digest in bytes.
    public static let byteCount = 32

    /// OpenSSL's SHA-256 implementation, fetched once. `EVP_sha256()` is a legacy handle that
    /// OpenSSL 3 resolves to its provider's implementation on every digest (a name lookup under
    /// a lock); a fetched one is used as is. Every request hashes (tokens, session ids).
    static let digestMethod = DigestMethod(EVP_MD_fetch(nil, "SHA256", nil) ?? EVP_sha256())

    /// The digest of `bytes`.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBufferPointer { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, digestMethod.pointer, nil)
        }
        // EVP_Digest with SHA-256 fails only on allocation failure; a wrong digest would be a silent
        // security bug, so stop rather than return garbage.
        precondition(ok == 1 && length == UInt32(byteCount), "SHA-256 failed: \(CryptoError.drainErrors())")
        return digest
    }

    /// The digest of a string's UTF-8 bytes.
    public static func hash(_ text: String) -> [UInt8] { hash(Array(text.utf8)) }

    /// The digest as lowercase hex.
    public static func hexDigest(_ bytes: [UInt8]) -> String { Hex.encode(hash(bytes)) }
}
