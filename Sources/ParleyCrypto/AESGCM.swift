import COpenSSL

/// AES-256-GCM (NIST SP 800-38D) through OpenSSL's EVP interface: the encryption of sensitive
/// answers at rest. A sealed box is `nonce (12) ‖ ciphertext ‖ tag (16)`; the nonce is random per
/// seal (96 bits from the system CSPRNG, so a key may seal far more values than Parley ever
/// stores before a collision matters), and the associated data binds a box to where it belongs.
public enum AESGCM {
    /// Key length in bytes.
    public static let keyByteCount = 32
    /// Nonce length in bytes.
    public static let nonceByteCount = 12
    /// Authentication tag length in bytes.
    public static let tagByteCount = 16

    /// Encrypts `plaintext` under `key`, authenticating `associatedData` with it.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8]) throws(CryptoError)
        -> [UInt8]
    {
        guard key.count == keyByteCount else { throw .invalidKey("an AES-256 key is 32 bytes, got \(key.count)") }
        var nonce = [UInt8](repeating: 0, count: nonceByteCount)
        guard RAND_bytes(&nonce, Int32(nonceByteCount)) == 1 else { throw .library("RAND_bytes") }
        guard let context = EVP_CIPHER_CTX_new() else { throw .library("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        var ciphertext = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: tagByteCount)
        var length: Int32 = 0
        var total: Int32 = 0
        guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceByteCount), nil) == 1,
            EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1,
            associatedData.isEmpty
                || EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1,
            plaintext.isEmpty || EVP_EncryptUpdate(context, &ciphertext, &total, plaintext, Int32(plaintext.count)) == 1
        else { throw .library("AES-256-GCM encryption") }
        let finished = ciphertext.withUnsafeMutableBufferPointer { buffer in
            EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(total), &length)
        }
        guard finished == 1, EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagByteCount), &tag) == 1
        else { throw .library("AES-256-GCM encryption") }
        return nonce + ciphertext.prefix(Int(total + length)) + tag
    }

    /// Decrypts a box from ``seal(_:key:associatedData:)``; throws `decryptionFailed` when the key,
    /// the associated data or any byte of the box differs from what was sealed.
    public static func open(_ box: [UInt8], key: [UInt8], associatedData: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count == keyByteCount else { throw .invalidKey("an AES-256 key is 32 bytes, got \(key.count)") }
        guard box.count >= nonceByteCount + tagByteCount else {
            throw .decryptionFailed("a sealed box is at least \(nonceByteCount + tagByteCount) bytes")
        }
        let nonce = Array(box.prefix(nonceByteCount))
        var tag = Array(box.suffix(tagByteCount))
        let ciphertext = Array(box.dropFirst(nonceByteCount).dropLast(tagByteCount))
        guard let context = EVP_CIPHER_CTX_new() else { throw .library("EVP_CIPHER_CTX_new") }
        defer { EVP_CIPHER_CTX_free(context) }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length: Int32 = 0
        var total: Int32 = 0
        guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceByteCount), nil) == 1,
            EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1,
            associatedData.isEmpty
                || EVP_DecryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1,
            ciphertext.isEmpty
                || EVP_DecryptUpdate(context, &plaintext, &total, ciphertext, Int32(ciphertext.count)) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagByteCount), &tag) == 1
        else {
            _ = CryptoError.drainErrors()
            throw .decryptionFailed("the sealed box is malformed")
        }
        let verified = plaintext.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(total), &length)
        }
        guard verified == 1 else {
            _ = CryptoError.drainErrors()
            throw .decryptionFailed("authentication failed: wrong key, wrong associated data or altered bytes")
        }
        return Array(plaintext.prefix(Int(total + length)))
    }
}
