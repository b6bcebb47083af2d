/// How a session retries transient failures (no connection, 503, a 409 for a
/// request with the same `Idempotency-Key` still in flight): exponential
/// backoff with jitter, the same key every time, so the server applies the
/// answer at most once (docs/sessions.md: retries are safe).
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in total, the first included.
    public var attempts: Int
    /// Delay before the first retry, in milliseconds; doubles each time.
    public var initialDelayMilliseconds: Int
    /// Longest delay between attempts, in milliseconds.
    public var maximumDelayMilliseconds: Int

    /// Defaults: 6 attempts, 100 ms doubling to at most 2 s (about 6 s in all).
    public init(attempts: Int = 6, initialDelayMilliseconds: Int = 100, maximumDelayMilliseconds: Int = 2_000) {
        self.attempts = max(1, attempts)
        self.initialDelayMilliseconds = max(0, initialDelayMilliseconds)
        self.maximumDelayMilliseconds = max(self.initialDelayMilliseconds, maximumDelayMilliseconds)
    }

    /// No retries: every failure surfaces at once.
    public static let none = RetryPolicy(attempts: 1)

    /// The delay before retry number `retry` (1-based): full jitter over the doubled delay.
    func delay(beforeRetry retry: Int) -> Duration {
        let doubled = initialDelayMilliseconds << min(retry - 1, 20)
        let ceiling = min(maximumDelayMilliseconds, doubled)
        return .milliseconds(ceiling / 2 + Int.random(in: 0...max(0, ceiling / 2)))
    }
}
