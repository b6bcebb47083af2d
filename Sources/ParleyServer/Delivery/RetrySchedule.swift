/// When a failed delivery is tried again: exponential backoff from `base` seconds, capped at
/// `maximum`, each delay stretched by up to 25 % jitter so endpoints that fail together are not
/// retried together; after `attempts` tries the delivery is dead.
struct RetrySchedule: Sendable {
    let base: Double
    let maximum: Double
    let attempts: Int

    /// Seconds until the next try after failed attempt number `attempt` (1-based); nil: dead.
    func delay(afterAttempt attempt: Int, jitter: Double = Double.random(in: 0..<0.25)) -> Double? {
        guard attempt < attempts else { return nil }
        let exponential = base * Double(1 << min(attempt - 1, 30))
        return min(maximum, exponential) * (1 + jitter)
    }
}
