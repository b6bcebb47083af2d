import ParleyCrypto

/// The bucket of a subject in a rollout, reproducible by any server (README "Staged rollouts"):
/// the first 8 bytes of SHA-256 over the UTF-8 of `flow`, LF, the rollout's first release id in
/// decimal, LF, the subject (a session id or `Parley-Subject`), read as an unsigned big-endian
/// integer, modulo 100. A subject gets the rollout's version when its bucket is below the percentage.
enum RolloutBucket {
    static func bucket(flow: String, rolloutId: Int, subject: String) -> Int {
        let digest = SHA256.hash(Array("\(flow)\n\(rolloutId)\n\(subject)".utf8))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % 100)
    }
}
