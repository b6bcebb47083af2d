import Foundation
import Logging

/// Expires idle sessions (DESIGN.md "Sessions": TTL, 410). Every server process runs one; the
/// sweep statement locks its rows with `FOR UPDATE SKIP LOCKED`, so two processes never expire
/// the same session and each expiration is counted once, by the process that made it.
struct SessionSweeper: Sendable {
    let configuration: ServiceConfiguration
    let sessions: SessionStore
    let metrics: MetricsRegistry
    let logger: Logger

    /// Sweeps every `sessionSweepSeconds` until the task is cancelled.
    func run() async {
        let interval = configuration.sessionSweepSeconds
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(interval))
                try await sweep()
            } catch is CancellationError {
                return
            } catch {
                logger.warning("session sweep failed; retrying at the next interval: \(error)")
            }
        }
    }

    /// Expires every due session, a batch at a time; returns how many.
    @discardableResult
    func sweep() async throws -> Int {
        var total = 0
        while true {
            let expired = try await sessions.expireDue(limit: configuration.sessionSweepBatch)
            for group in expired {
                metrics.increment(
                    .sessionExpirations,
                    labels: [("flow", group.flow), ("version", String(group.version))], by: UInt64(group.count))
            }
            let count = expired.reduce(0) { $0 + $1.count }
            total += count
            if count < configuration.sessionSweepBatch { return total }
        }
    }
}
