import ParleyCrypto

/// Standard Webhooks signing: `whsec_` secrets and `v1,<base64 HMAC-SHA256("id.timestamp.body")>`
/// keyed with the secret's base64-decoded bytes.
enum WebhookSignature {
    /// A fresh secret: `whsec_` and the base64 of 24 random bytes.
    static func newSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return "whsec_" + Base64.encode((0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The `webhook-signature` value for a message.
    static func sign(id: String, timestamp: Int, body: [UInt8], secret: String) throws -> String {
        let key = try Base64.decode(String(secret.dropFirst("whsec_".count)))
        let message = Array("\(id).\(timestamp).".utf8) + body
        return "v1," + Base64.encode(HMACSHA256.authenticationCode(for: message, key: key))
    }
}
