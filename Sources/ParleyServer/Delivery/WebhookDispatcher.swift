import Foundation
import Logging
import ParleyHTTP
import Synchronization

/// The delivery worker every server process runs (DESIGN.md "Delivery"): claims due outbox rows
/// under a lease, sends each signed per Standard Webhooks, and records the outcome. At least once:
/// a process killed mid-delivery leaves its rows leased, and they are sent again, with the same
/// `webhook-id`, once the lease runs out.
final class WebhookDispatcher: Sendable {
    let configuration: ServiceConfiguration
    let webhooks: WebhookStore
    let metrics: MetricsRegistry
    let logger: Logger
    let client: HTTPClient
    let policy: WebhookTargetPolicy
    let schedule: RetrySchedule
    let sealing: AnswerSealing
    /// Age of the oldest undelivered event, as last measured.
    let oldestPending: Mutex<Double>

    /// A dispatcher for the service's settings; registers its metrics.
    init(
        configuration: ServiceConfiguration, webhooks: WebhookStore, sealing: AnswerSealing, metrics: MetricsRegistry,
        logger: Logger
    ) throws {
        var settings = HTTPClientSettings()
        settings.connectTimeout = configuration.webhookTimeoutSeconds
        settings.ioTimeout = configuration.webhookTimeoutSeconds
        settings.trustedCertificatesFile = configuration.webhookTrustedCertificates
        self.configuration = configuration
        self.webhooks = webhooks
        self.metrics = metrics
        self.logger = logger
        client = try HTTPClient(settings: settings)
        policy = WebhookTargetPolicy(allowPrivate: configuration.webhookAllowPrivate)
        schedule = RetrySchedule(
            base: configuration.webhookRetryBaseSeconds, maximum: configuration.webhookRetryMaxSeconds,
            attempts: configuration.webhookMaxAttempts)
        oldestPending = Mutex(0)
        self.sealing = sealing
    }

    /// The gauge line for `/metrics`.
    func gaugeLines() -> [MetricsRegistry.Sample] {
        [Metric.webhookOutboxOldest.sample(oldestPending.withLock { $0 })]
    }

    /// Delivers until the task is cancelled; a full batch is followed at once by the next one.
    func run() async {
        while !Task.isCancelled {
            do {
                let claims = try await webhooks.claimDue(
                    limit: configuration.webhookConcurrency, leaseSeconds: configuration.webhookLeaseSeconds)
                await withTaskGroup(of: Void.self) { group in
                    for claim in claims { group.addTask { await self.deliver(claim) } }
                }
                let age = try await webhooks.oldestPendingAge()
                oldestPending.withLock { $0 = age }
                if claims.count < configuration.webhookConcurrency {
                    try await Task.sleep(for: .seconds(configuration.webhookPollSeconds))
                }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("webhook delivery loop failed; retrying shortly: \(error)")
                try? await Task.sleep(for: .seconds(configuration.webhookPollSeconds))
            }
        }
    }

    /// Sends one claimed delivery and records what happened.
    func deliver(_ claim: WebhookStore.Claim) async {
        let outcome = await Self.offLoop { self.attempt(claim) }
        let store = webhooks
        do {
            switch outcome {
            case .success(let status) where (200...299).contains(status):
                try await store.markDelivered(claim, status: status)
                count("delivered")
            case .success(410):
                try await store.disableEndpoint(
                    for: claim, reason: "the endpoint answered 410 Gone; it was disabled")
                logger.warning("webhook delivery \(claim.messageId): endpoint answered 410; disabling it")
                count("disabled")
            case .success(let status):
                let detail =
                    (300...399).contains(status)
                    ? "the endpoint answered \(status); redirects are not followed" : "the endpoint answered \(status)"
                try await failed(claim, status: status, detail)
            case .failure(let error):
                try await failed(claim, status: nil, error.description)
            }
        } catch {
            // The lease expires and the row is claimed again: nothing is lost.
            logger.warning("webhook delivery \(claim.messageId): recording the outcome failed: \(error)")
        }
    }

    private func failed(_ claim: WebhookStore.Claim, status: Int?, _ detail: String) async throws {
        let delay = schedule.delay(afterAttempt: claim.attempt)
        try await webhooks.markFailed(claim, status: status, error: detail, retryAfter: delay)
        count(delay == nil ? "dead" : "failed")
        let next = delay.map { String(format: "retrying in %.1f s", $0) } ?? "dead-lettered"
        logger.info("webhook delivery \(claim.messageId) attempt \(claim.attempt): \(detail); \(next)")
    }

    private func count(_ outcome: String) {
        metrics.increment(.webhookDeliveries, labels: [("outcome", outcome)])
    }

    /// One attempt, blocking: check the URL and every resolved address, then POST to the first
    /// address that accepts a connection (the checked address itself, never a new lookup).
    private func attempt(_ claim: WebhookStore.Claim) -> Result<Int, HTTPClientError> {
        do throws(HTTPClientError) {
            let url = try policy.parse(claim.url)
            let addresses = try policy.addresses(for: url)
            let timestamp = Int(Date().timeIntervalSince1970)
            let body: [UInt8]
            do {
                body =
                    try claim.sessionKey.map { try sealing.openedPayload(claim.payload, session: $0) } ?? claim.payload
            } catch {
                return .failure(.io("cannot open the sealed answers (is the data key configured?): \(error)"))
            }
            guard
                let signature = try? WebhookSignature.sign(
                    id: claim.messageId, timestamp: timestamp, body: body, secret: claim.secret)
            else { return .failure(.invalidURL("the stored secret is not valid base64")) }
            let headers: HTTPHeaders = [
                "Content-Type": "application/json", "User-Agent": "Parley-Webhooks/1",
                "webhook-id": claim.messageId, "webhook-timestamp": String(timestamp),
                "webhook-signature": signature,
            ]
            var lastError = HTTPClientError.connect("no address")
            for address in addresses {
                do {
                    return .success(
                        try client.send("POST", url, headers: headers, body: body, to: address).status)
                } catch {
                    guard case .connect = error else { throw error }
                    lastError = error
                }
            }
            throw lastError
        } catch {
            return .failure(error)
        }
    }

    /// Runs blocking work on a Dispatch thread, keeping Swift's cooperative pool free.
    static func offLoop<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }
}
