import Testing

@testable import ParleyPostgres

/// The breaker's rules, with time passed in: no clock, no database.
@Suite(.timeLimit(.minutes(10))) struct CircuitBreakerTests {
    let start = ContinuousClock.now

    func breaker(threshold: Int = 3) -> CircuitBreaker<ContinuousClock.Instant> {
        CircuitBreaker(threshold: threshold, initialBackoff: .milliseconds(100), maximumBackoff: .milliseconds(350))
    }

    @Test func opensOnlyAfterThresholdConsecutiveFailures() {
        var breaker = breaker()
        let first = breaker.recordFailure("refused", at: start)
        let second = breaker.recordFailure("refused", at: start)
        #expect(!first && !second)
        let meanwhile = breaker.permission(at: start)
        #expect(meanwhile == .connect)
        let third = breaker.recordFailure("refused", at: start)
        #expect(third, "the third failure opens it")
        let soon = breaker.permission(at: start + .milliseconds(40))
        #expect(soon == .refuse(retryIn: .milliseconds(60)))
    }

    @Test func aSuccessInBetweenResetsTheCount() {
        var breaker = breaker()
        _ = breaker.recordFailure("refused", at: start)
        _ = breaker.recordFailure("refused", at: start)
        breaker.recordSuccess()
        let opened = breaker.recordFailure("refused", at: start)
        #expect(!opened)
        #expect(breaker.phase == .closed)
    }

    @Test func oneProbeAfterTheBackoffWhileOthersAreRefused() {
        var breaker = breaker(threshold: 1)
        _ = breaker.recordFailure("refused", at: start)
        let later = start + .milliseconds(100)
        let probe = breaker.permission(at: later)
        let other = breaker.permission(at: later)
        #expect(probe == .probe)
        #expect(other == .refuse(retryIn: .zero), "only one probe at a time")
        breaker.recordSuccess()
        let after = breaker.permission(at: later)
        #expect(after == .connect, "a successful probe closes the breaker")
    }

    @Test func failedProbesDoubleTheBackoffUpToTheMaximum() {
        var breaker = breaker(threshold: 1)
        var now = start
        _ = breaker.recordFailure("refused", at: now)
        var waits: [Duration] = []
        for _ in 0..<4 {
            now = now + breaker.backoff
            let permission = breaker.permission(at: now)
            let reopened = breaker.recordFailure("refused", at: now)
            #expect(permission == .probe)
            #expect(reopened, "a failed probe reopens it")
            waits.append(breaker.backoff)
        }
        #expect(waits == [.milliseconds(200), .milliseconds(350), .milliseconds(350), .milliseconds(350)])
        breaker.recordSuccess()
        #expect(breaker.backoff == .milliseconds(100), "recovery resets the backoff")
    }

    @Test func theRefusalSaysWhatFailedAndIsAConnectionFailure() {
        var breaker = breaker(threshold: 1)
        _ = breaker.recordFailure("connection refused", at: start)
        let error = breaker.refusal(retryIn: .milliseconds(100))
        #expect(error.kind == .connectionFailed)
        #expect(error.message.contains("connection refused"))
        #expect(error.message.contains("circuit breaker open"))
    }
}
