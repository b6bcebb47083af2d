/// A request that carried an `Idempotency-Key`: the key and what identifies its body.
struct IdempotentRequest: Sendable {
    let key: String
    let fingerprint: [UInt8]
}
