import Testing

@testable import ParleyPostgres

/// The pool's decisions with a fake clock and fake connections: no sleep, no socket, no database.
@Suite(.timeLimit(.minutes(10))) struct PoolStateMachineTests {
    /// A connection the machine hands around; it is never opened.
    struct FakeConnection: Equatable {
        let id: Int
    }

    /// Waiters are named, timers numbered: what the shell's continuations and tasks stand for.
    typealias Machine = PoolStateMachine<FakeConnection, String, Int, FakeClock.Instant>

    static func machine(
        maximumConnections: Int = 1, threshold: Int = 3, backoff: Duration = .milliseconds(250)
    ) -> Machine {
        var configuration = PostgresConfiguration(url: "never opened")
        configuration.maximumConnections = maximumConnections
        configuration.acquireTimeout = .milliseconds(300)
        configuration.healthCheckAfterIdle = .seconds(30)
        configuration.breakerFailureThreshold = threshold
        configuration.breakerInitialBackoff = backoff
        configuration.breakerMaximumBackoff = .seconds(2)
        return Machine(configuration: configuration)
    }

    /// The actions in words, so a test reads as the story it checks.
    static func story(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .lease(.connection(let connection, let ping), let waiter):
                "connection \(connection.id) to \(waiter.request)\(ping ? " (ping)" : "")"
            case .lease(.slot, let waiter): "slot to \(waiter.request)"
            case .fail(let waiter, let error): "fail \(waiter.request): \(error.kind)"
            case .cancel(let waiter): "cancel \(waiter.request)"
            case .close(let connection): "close \(connection.id)"
            case .reportBreakerOpened(let failures, _): "breaker opened after \(failures)"
            }
        }
    }

    /// Leases at `now` without waiting, expecting a lease.
    static func lease(_ machine: inout Machine, at now: FakeClock.Instant) throws -> PoolLease<FakeConnection> {
        try #require(try machine.lease(at: now))
    }

    /// Puts `name` in line at `now`, expecting it to wait.
    static func wait(_ machine: inout Machine, _ name: String, at now: FakeClock.Instant) throws {
        let id = machine.makeWaiterID()
        guard case .waiting = machine.enqueue(id, name, at: now) else {
            Issue.record("\(name) did not wait")
            return
        }
    }

    @Test func waitersAreServedInTheOrderTheyCame() throws {
        var machine = Self.machine()
        let clock = FakeClock()
        guard case .slot = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
        machine.connected()
        for name in ["first", "second", "third"] { try Self.wait(&machine, name, at: clock.now) }
        #expect(try machine.lease(at: clock.now) == nil, "a newcomer queues behind the line")
        let connection = FakeConnection(id: 1)
        var served: [String] = []
        for _ in 0..<3 { served += Self.story(machine.release(connection, reusable: true, at: clock.now)) }
        #expect(served == ["connection 1 to first", "connection 1 to second", "connection 1 to third"])
        #expect(Self.story(machine.release(connection, reusable: true, at: clock.now)).isEmpty)
        #expect(machine.idle.count == 1 && machine.waiters.isEmpty && machine.open == 1)
    }

    @Test func aDeadlinePassedWhileWaitingFailsWithPoolTimeoutAndNeverGetsTheConnection() throws {
        var machine = Self.machine()
        var clock = FakeClock()
        _ = try Self.lease(&machine, at: clock.now)
        try Self.wait(&machine, "early", at: clock.now)  // deadline 300 ms
        clock.advance(by: .milliseconds(200))
        try Self.wait(&machine, "late", at: clock.now)  // deadline 500 ms
        clock.advance(by: .milliseconds(99))
        #expect(Self.story(machine.deadlinePassed(at: clock.now)).isEmpty, "1 ms before the deadline")
        clock.advance(by: .milliseconds(1))
        let expired = machine.deadlinePassed(at: clock.now)
        #expect(Self.story(expired) == ["fail early: poolTimeout"])
        if case .fail(_, let error) = expired.first {
            #expect(error.message.contains("maximumConnections=1"), "\(error.message)")
            #expect(error.message.contains("within 0.3 seconds"), "\(error.message)")
        }
        // The holder returns after the late waiter's deadline too, before its timer fired.
        clock.advance(by: .milliseconds(250))
        let released = machine.release(FakeConnection(id: 1), reusable: true, at: clock.now)
        #expect(Self.story(released) == ["fail late: poolTimeout"], "a timed-out caller never gets the connection")
        #expect(machine.idle.count == 1)
    }

    @Test func aBrokenConnectionIsReplacedByTheNextWaiter() throws {
        var machine = Self.machine()
        let clock = FakeClock()
        _ = try Self.lease(&machine, at: clock.now)
        machine.connected()
        try Self.wait(&machine, "next", at: clock.now)
        let actions = machine.release(FakeConnection(id: 1), reusable: false, at: clock.now)
        #expect(Self.story(actions) == ["close 1", "slot to next"], "the waiter opens the replacement")
        #expect(machine.open == 1, "the replacement takes the broken one's slot")
    }

    @Test func anIdleConnectionIsPingedOnlyAfterIdlingAndReplacedWhenItFailsTheCheck() throws {
        var machine = Self.machine()
        var clock = FakeClock()
        _ = try Self.lease(&machine, at: clock.now)
        let connection = FakeConnection(id: 1)
        _ = machine.release(connection, reusable: true, at: clock.now)
        clock.advance(by: .seconds(30))
        guard case .connection(_, let soon) = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
        #expect(!soon, "idle for exactly healthCheckAfterIdle: no ping")
        _ = machine.release(connection, reusable: true, at: clock.now)
        clock.advance(by: .seconds(31))
        guard case .connection(_, let late) = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
        #expect(late, "idle longer than healthCheckAfterIdle: ping before use")
        // The ping failed: the shell gives it back as not reusable and leases again.
        #expect(Self.story(machine.release(connection, reusable: false, at: clock.now)) == ["close 1"])
        guard case .slot = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
        #expect(machine.open == 1)
    }

    @Test func theBreakerOpensAfterTheThresholdAndRefusesEveryWaiterAtOnce() throws {
        var machine = Self.machine(threshold: 2)
        let clock = FakeClock()
        _ = try Self.lease(&machine, at: clock.now)
        try Self.wait(&machine, "a", at: clock.now)
        try Self.wait(&machine, "b", at: clock.now)
        let first = machine.connectFailed("connection refused", at: clock.now)
        #expect(Self.story(first) == ["slot to a"], "one failure: the next waiter tries")
        let second = machine.connectFailed("connection refused", at: clock.now)
        #expect(Self.story(second) == ["breaker opened after 2", "fail b: connectionFailed"])
        let refusal = #expect(throws: PostgresError.self) { _ = try machine.lease(at: clock.now) }
        #expect(refusal?.kind == .connectionFailed)
        #expect(refusal?.message.contains("circuit breaker open") == true)
        #expect(refusal?.message.contains("connection refused") == true)
        #expect(machine.open == 0 && machine.waiters.isEmpty)
    }

    /// A machine of 3 connections whose breaker one failed attempt opened (for 250 ms) at the clock's start.
    static func machineWithOpenBreaker() throws -> (Machine, FakeClock) {
        var machine = Self.machine(maximumConnections: 3, threshold: 1)
        let clock = FakeClock()
        _ = try Self.lease(&machine, at: clock.now)
        let opened = machine.connectFailed("connection refused", at: clock.now)
        #expect(Self.story(opened) == ["breaker opened after 1"])
        return (machine, clock)
    }

    @Test func afterTheBackoffOneCallerProbesAndASuccessfulProbeClosesTheBreaker() throws {
        var (machine, clock) = try Self.machineWithOpenBreaker()
        clock.advance(by: .milliseconds(249))
        #expect(throws: PostgresError.self, "still open 1 ms before the backoff ends") {
            _ = try machine.lease(at: clock.now)
        }
        clock.advance(by: .milliseconds(1))
        guard case .slot = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
        let other = #expect(throws: PostgresError.self, "half-open: one probe, everyone else refused") {
            _ = try machine.lease(at: clock.now)
        }
        #expect(other?.kind == .connectionFailed)
        machine.connected()
        guard case .slot = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
        #expect(machine.breaker.phase == .closed)
    }

    @Test func aFailedProbeReopensTheBreakerForTwiceAsLong() throws {
        var (machine, clock) = try Self.machineWithOpenBreaker()
        clock.advance(by: .milliseconds(250))
        guard case .slot = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
        #expect(Self.story(machine.connectFailed("still refused", at: clock.now)) == ["breaker opened after 2"])
        clock.advance(by: .milliseconds(499))
        #expect(throws: PostgresError.self) { _ = try machine.lease(at: clock.now) }
        clock.advance(by: .milliseconds(1))
        guard case .slot = try Self.lease(&machine, at: clock.now) else { throw Unexpected() }
    }

    @Test func aCancelledWaiterLeavesTheLineAndKeepsNoTimer() throws {
        var machine = Self.machine()
        let clock = FakeClock()
        _ = try Self.lease(&machine, at: clock.now)
        try Self.wait(&machine, "gone", at: clock.now)
        try Self.wait(&machine, "stays", at: clock.now)
        #expect(Self.story(machine.cancel(1)) == ["cancel gone"])
        #expect(machine.cancel(1).isEmpty, "cancelling twice does nothing")
        let lateTimerKept = machine.attach(7, to: 1)
        let timerKept = machine.attach(8, to: 2)
        #expect(!lateTimerKept, "a timer armed after it left is not kept: the shell cancels it")
        #expect(timerKept)
        let released = machine.release(FakeConnection(id: 1), reusable: true, at: clock.now)
        guard case .lease(_, let waiter) = released.first else { throw Unexpected() }
        #expect(waiter.request == "stays" && waiter.timer == 8, "the shell gets the timer to cancel")
    }

    @Test func shutdownClosesIdleConnectionsFailsWaitersAndThenEveryLease() throws {
        var idle = Self.machine()
        let clock = FakeClock()
        _ = try Self.lease(&idle, at: clock.now)
        _ = idle.release(FakeConnection(id: 1), reusable: true, at: clock.now)
        #expect(Self.story(idle.shutdown()) == ["close 1"])
        #expect(idle.open == 0)
        let closed = #expect(throws: PostgresError.self) { _ = try idle.lease(at: clock.now) }
        #expect(closed?.kind == .poolClosed)

        var busy = Self.machine()
        _ = try Self.lease(&busy, at: clock.now)
        try Self.wait(&busy, "waiting", at: clock.now)
        #expect(Self.story(busy.shutdown()) == ["fail waiting: poolClosed"])
        #expect(busy.open == 1, "the held connection closes when it comes back")
        #expect(Self.story(busy.release(FakeConnection(id: 1), reusable: true, at: clock.now)) == ["close 1"])
        #expect(busy.open == 0)
    }

    struct Unexpected: Error {}
}
