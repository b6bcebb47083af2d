/// CLOCK_MONOTONIC in nanoseconds, the clock the server's deadlines and access-log durations
/// use, for code above ParleyHTTP that times requests (metrics): one vDSO call, where
/// `ContinuousClock.now` and splitting its `Duration` into components cost several times that
/// on every request.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point; only differences mean anything.
    public static func nanoseconds() -> UInt64 { Syscall.monotonicNanoseconds() }
}
