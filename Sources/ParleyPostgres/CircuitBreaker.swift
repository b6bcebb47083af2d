/// Decides whether the pool may try to open a connection, so that an unreachable database
/// costs callers nothing but an immediate, typed refusal (issue 15, "Fail fast").
///
/// Closed: every attempt is allowed; `threshold` consecutive failures open it. Open: attempts
/// are refused until the backoff has passed; then the next caller probes (half-open) while
/// everyone else is still refused. A probe that connects closes the breaker (recovery without
/// a restart); one that fails opens it again for twice as long, up to the maximum backoff.
///
/// A pure value driven by ``PoolStateMachine``, with time passed in: generic over the instant
/// type, it cannot read a clock, so its rules are tested without one or a database.
struct CircuitBreaker<Instant: InstantProtocol> where Instant.Duration == Duration {
    /// Where the breaker stands.
    enum Phase: Equatable {
        case closed
        case open(until: Instant)
        case probing
    }

    /// The answer to "may I open a connection now?".
    enum Permission: Equatable {
        /// Connect as usual.
        case connect
        /// Connect: this attempt is the probe that decides whether the breaker closes.
        case probe
        /// Do not try; the database was unreachable, next probe in `retryIn`.
        case refuse(retryIn: Duration)
    }

    let threshold: Int
    let initialBackoff: Duration
    let maximumBackoff: Duration
    private(set) var phase = Phase.closed
    private(set) var consecutiveFailures = 0
    private(set) var backoff: Duration
    /// libpq's reason for the last failed attempt (no secrets: libpq never prints passwords).
    private(set) var lastFailure = ""

    init(threshold: Int, initialBackoff: Duration, maximumBackoff: Duration) {
        self.threshold = max(1, threshold)
        self.initialBackoff = initialBackoff
        self.maximumBackoff = max(initialBackoff, maximumBackoff)
        self.backoff = initialBackoff
    }

    init(configuration: PostgresConfiguration) {
        self.init(
            threshold: configuration.breakerFailureThreshold, initialBackoff: configuration.breakerInitialBackoff,
            maximumBackoff: configuration.breakerMaximumBackoff)
    }

    /// Whether a connection attempt may start at `now`; the first caller after the backoff
    /// becomes the probe.
    mutating func permission(at now: Instant) -> Permission {
        switch phase {
        case .closed:
            return .connect
        case .open(let until) where now < until:
            return .refuse(retryIn: now.duration(to: until))
        case .open:
            phase = .probing
            return .probe
        case .probing:
            return .refuse(retryIn: .zero)
        }
    }

    /// A connection attempt succeeded: the database is back.
    mutating func recordSuccess() {
        phase = .closed
        consecutiveFailures = 0
        backoff = initialBackoff
    }

    /// A connection attempt failed with `reason`; returns true when this failure opened the breaker.
    mutating func recordFailure(_ reason: String, at now: Instant) -> Bool {
        lastFailure = reason
        consecutiveFailures += 1
        switch phase {
        case .probing:
            backoff = min(backoff * 2, maximumBackoff)
            phase = .open(until: now.advanced(by: backoff))
            return true
        case .closed where consecutiveFailures >= threshold:
            phase = .open(until: now.advanced(by: backoff))
            return true
        case .closed, .open:
            return false
        }
    }

    /// The error for a refused caller: what failed, how often, and when the next probe is.
    func refusal(retryIn: Duration) -> PostgresError {
        PostgresError(
            .connectionFailed,
            message: "Postgres is unreachable (\(consecutiveFailures) consecutive connection attempts failed, "
                + "last: \(lastFailure)); not trying again for \(retryIn) (circuit breaker open)")
    }
}
