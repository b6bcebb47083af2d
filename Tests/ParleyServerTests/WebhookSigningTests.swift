import ParleyCrypto
import ParleyHTTP
import Testing

@testable import ParleyServer

/// Signatures match the Standard Webhooks reference implementation; the retry schedule grows
/// exponentially with bounded jitter and ends.
@Suite(.timeLimit(.minutes(10))) struct WebhookSigningTests {
    @Test func signsLikeTheStandardWebhooksReferenceLibrary() throws {
        // The specification's example, reproduced with the `standardwebhooks` PyPI package.
        let signature = try WebhookSignature.sign(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Array(#"{"test": 2432232314}"#.utf8),
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func newSecretsCarry24RandomBytes() throws {
        let secrets = (0..<4).map { _ in WebhookSignature.newSecret() }
        #expect(Set(secrets).count == 4)
        for secret in secrets {
            #expect(secret.hasPrefix("whsec_"))
            #expect(try Base64.decode(String(secret.dropFirst(6))).count == 24)
        }
    }

    @Test func retriesGrowExponentiallyWithBoundedJitterThenStop() {
        let schedule = RetrySchedule(base: 2, maximum: 20, attempts: 5)
        #expect(schedule.delay(afterAttempt: 1, jitter: 0) == 2)
        #expect(schedule.delay(afterAttempt: 2, jitter: 0) == 4)
        #expect(schedule.delay(afterAttempt: 3, jitter: 0.2) == 9.6)
        #expect(schedule.delay(afterAttempt: 4, jitter: 0) == 16)
        #expect(schedule.delay(afterAttempt: 5) == nil, "the fifth failure is the last")
        #expect(RetrySchedule(base: 2, maximum: 20, attempts: 50).delay(afterAttempt: 40, jitter: 0) == 20)
        for _ in 0..<100 {
            let delay = schedule.delay(afterAttempt: 2) ?? 0
            #expect(delay >= 4 && delay < 5)
        }
    }

    @Test func thePolicyRefusesPlainHTTPToPublicAddressesEvenWhenPrivateIsAllowed() throws {
        let lenient = WebhookTargetPolicy(allowPrivate: true)
        let strict = WebhookTargetPolicy(allowPrivate: false)
        let loopback = try #require(IPAddress("127.0.0.1"))
        let global = try #require(IPAddress("8.8.8.8"))
        #expect(lenient.refusal(loopback, secure: false) == nil)
        #expect(lenient.refusal(global, secure: false) != nil)
        #expect(lenient.refusal(global, secure: true) == nil)
        #expect(strict.refusal(loopback, secure: true)?.contains("loopback") == true)
        #expect(lenient.refusal(try #require(IPAddress("169.254.169.254")), secure: true) != nil)
        #expect(throws: (any Error).self) { try strict.parse("http://8.8.8.8/") }
    }
}
