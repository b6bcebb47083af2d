/// When a statement in flight stops being waited for (``PostgresConfiguration/queryTimeout``): an
/// instant of the continuous clock, held as the `Duration` since the first one this process took.
///
/// `ContinuousClock.Instant` is resilient (its layout is the standard library's to change), so a
/// struct that holds one has no fixed layout either: every move, copy and destroy of a statement's
/// ``PostgresConnection/Pending`` (and of the connection's handle around it) and of a poller
/// registration went through the runtime's value witnesses, ~1,000 instructions a round trip.
/// `Duration` is frozen: two words, compared and copied inline.
struct PollDeadline: Comparable, Sendable {
    /// What every deadline counts from.
    private static let origin = ContinuousClock.now

    private let sinceOrigin: Duration

    private init(sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    /// The current instant.
    static var now: PollDeadline { PollDeadline(sinceOrigin: origin.duration(to: .now)) }

    /// The instant `duration` from now.
    static func after(_ duration: Duration) -> PollDeadline {
        PollDeadline(sinceOrigin: origin.duration(to: .now) + duration)
    }

    static func < (lhs: PollDeadline, rhs: PollDeadline) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }
}
