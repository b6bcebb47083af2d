import COpenSSL

/// Comparisons whose time does not depend on where inputs differ, for
/// secrets such as token hashes and digests (OpenSSL `CRYPTO_memcmp`).
public enum ConstantTime {
    /// Whether `lhs` and `rhs` are equal. Lengths are not secret: different
    /// lengths return `false` at once; equal lengths are compared in constant time.
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isEmpty { return true }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}
