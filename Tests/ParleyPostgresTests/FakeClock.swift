/// A clock for pure state-machine tests: it stands still until the test advances it, so a
/// deadline passes exactly when the test says, with no sleep.
struct FakeClock {
    /// An instant of the fake clock: an offset from its start.
    struct Instant: InstantProtocol {
        let offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private(set) var now = Instant(offset: .zero)

    mutating func advance(by duration: Duration) {
        now = now.advanced(by: duration)
    }
}
