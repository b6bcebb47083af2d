import COpenSSL

/// HMAC-SHA256 (RFC 2104), the MAC Standard Webhooks signatures use.
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    public static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        let result = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                HMAC(
                    SHA256.digestMethod.pointer, keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress,
                    messageBytes.count, &code, &length)
            }
        }
        // HMAC fails only on allocation failure; a wrong MAC would be a silent security bug.
        precondition(result != nil && length == UInt32(SHA256.byteCount), "HMAC-SHA256 failed")
        return code
    }
}
