import COpenSSL

/// Short-lived OpenSSL `EVP_PKEY` handles, created for one operation and
/// freed at once, so the public key types stay plain `Sendable` values.
enum OpenSSLKey {
    /// Runs `body` with a fresh key and frees it afterwards.
    static func with<T>(
        _ key: OpaquePointer, _ body: (OpaquePointer) throws(CryptoError) -> T
    ) throws(CryptoError) -> T {
        defer { EVP_PKEY_free(key) }
        return try body(key)
    }

    static func privateKey(raw: [UInt8]) throws(CryptoError) -> OpaquePointer {
        guard let key = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, raw, raw.count) else {
            throw .invalidKey("not a 32-byte Ed25519 private key: \(CryptoError.drainErrors())")
        }
        return key
    }

    static func publicKey(raw: [UInt8]) throws(CryptoError) -> OpaquePointer {
        guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, raw, raw.count) else {
            throw .invalidKey("not a 32-byte Ed25519 public key: \(CryptoError.drainErrors())")
        }
        return key
    }

    static func rawPrivate(_ key: OpaquePointer) throws(CryptoError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 32)
        var length = buffer.count
        guard EVP_PKEY_get_raw_private_key(key, &buffer, &length) == 1, length == 32 else {
            throw .library("EVP_PKEY_get_raw_private_key")
        }
        return buffer
    }

    static func rawPublic(_ key: OpaquePointer) throws(CryptoError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 32)
        var length = buffer.count
        guard EVP_PKEY_get_raw_public_key(key, &buffer, &length) == 1, length == 32 else {
            throw .library("EVP_PKEY_get_raw_public_key")
        }
        return buffer
    }

    /// Checks that a key read from PEM is Ed25519.
    static func requireEd25519(_ key: OpaquePointer, _ what: String) throws(CryptoError) {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else {
            throw .invalidKey("\(what) is not an Ed25519 key")
        }
    }

    /// Writes PEM through a memory BIO.
    static func pem(_ write: (OpaquePointer) -> Int32) throws(CryptoError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .library("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw .library("PEM write") }
        var data: UnsafeMutablePointer<CChar>?
        let length = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &data)
        guard let data, length > 0 else { throw .library("BIO_get_mem_data") }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    /// Reads one key from PEM text through a memory BIO.
    static func read(
        pem: String, what: String, _ read: (OpaquePointer) -> OpaquePointer?
    ) throws(CryptoError) -> OpaquePointer {
        let bytes = Array(pem.utf8)
        let key: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return read(bio)
        }
        guard let key else {
            throw .invalidKey("\(what) is not a PEM \(what): \(CryptoError.drainErrors())")
        }
        return key
    }
}
