/// The method and field names nearly every request carries, spelled as clients send them: a
/// head that uses these exact spellings gets the constant strings instead of a new `String`
/// made and validated from its bytes (two to four per request). Any other spelling is made
/// from the bytes as before, so a name keeps the spelling it was received with.
enum KnownTokens {
    /// The method in `bytes`, when it is one of the usual ones.
    static func method(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 3:
            if matches(bytes, "GET") { return "GET" }
            if matches(bytes, "PUT") { return "PUT" }
        case 4:
            if matches(bytes, "POST") { return "POST" }
            if matches(bytes, "HEAD") { return "HEAD" }
        case 6: if matches(bytes, "DELETE") { return "DELETE" }
        default: break
        }
        return nil
    }

    /// The field name in `bytes`, when it is one of the usual ones in its usual spelling.
    static func fieldName(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 4: if matches(bytes, "Host") { return "Host" }
        case 6: if matches(bytes, "Accept") { return "Accept" }
        case 10:
            if matches(bytes, "User-Agent") { return "User-Agent" }
            if matches(bytes, "Connection") { return "Connection" }
        case 11: if matches(bytes, "Parley-Core") { return "Parley-Core" }
        case 12:
            if matches(bytes, "Content-Type") { return "Content-Type" }
            if matches(bytes, "X-Request-Id") { return "X-Request-Id" }
        case 13:
            if matches(bytes, "Authorization") { return "Authorization" }
            if matches(bytes, "If-None-Match") { return "If-None-Match" }
        case 14: if matches(bytes, "Content-Length") { return "Content-Length" }
        case 15:
            if matches(bytes, "Accept-Language") { return "Accept-Language" }
            if matches(bytes, "Idempotency-Key") { return "Idempotency-Key" }
        default: break
        }
        return nil
    }

    /// The field value in `bytes`, when it is one that many requests carry and a `String` could
    /// not hold in place: `application/json` (16 bytes, one more than a small string holds), the
    /// `Content-Type` of every JSON write, was a heap string made, validated and freed per request.
    static func fieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        bytes.count == 16 && matches(bytes, "application/json") ? "application/json" : nil
    }

    /// Whether `bytes` are exactly `token`'s (same length checked by the caller's switch).
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ token: StaticString) -> Bool {
        guard bytes.count == token.utf8CodeUnitCount else { return false }
        let expected = token.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }
}
