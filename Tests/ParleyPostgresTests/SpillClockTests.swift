import Synchronization
import Testing

@testable import ParleyPostgres

/// ``SpillClock``: each owner's latest deadline fires once, after it passes, in deadline order;
/// an earlier deadline armed while the clock sleeps towards a later one is not held back by it.
@Suite(.timeLimit(.minutes(1))) struct SpillClockTests {
    final class Owner: Sendable {}

    @Test func deadlinesFireOnceInOrderAndReArmingReplaces() async throws {
        let clock = SpillClock()
        let fired = Mutex<[String]>([])
        let (late, early, replaced) = (Owner(), Owner(), Owner())
        let start = ContinuousClock.now
        clock.arm(ObjectIdentifier(late), at: start + .milliseconds(300)) { fired.withLock { $0.append("late") } }
        clock.arm(ObjectIdentifier(replaced), at: start + .milliseconds(10)) { fired.withLock { $0.append("stale") } }
        clock.arm(ObjectIdentifier(replaced), at: start + .milliseconds(150)) {
            fired.withLock { $0.append("replaced") }
        }
        clock.arm(ObjectIdentifier(early), at: start + .milliseconds(20)) {
            fired.withLock { $0.append("early@\(start.duration(to: .now) >= .milliseconds(20))") }
        }
        try await Deadline.waitUntil("three deadlines fired") { fired.withLock { $0.count } == 3 }
        #expect(fired.withLock { $0 } == ["early@true", "replaced", "late"])
        #expect(start.duration(to: .now) >= .milliseconds(300))
        try await Task.sleep(for: .milliseconds(50))
        #expect(fired.withLock { $0.count } == 3, "each fired once")
    }

    @Test func aCallbackMayArmAgain() async throws {
        let clock = SpillClock()
        let owner = Owner()
        let count = Mutex(0)
        @Sendable func tick() {
            let again = count.withLock { count in
                count += 1
                return count < 5
            }
            if again { clock.arm(ObjectIdentifier(owner), at: .now + .milliseconds(2), tick) }
        }
        clock.arm(ObjectIdentifier(owner), at: .now + .milliseconds(2), tick)
        try await Deadline.waitUntil("five ticks") { count.withLock { $0 } == 5 }
    }
}
