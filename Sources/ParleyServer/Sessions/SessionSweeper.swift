import Foundation
import Logging

/// Expires idle sessions (DESIGN.md "Sessions": TTL, 410) and keeps the session log's monthly
/// partitions created ahead (migration 0009). Every server process runs one; the
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
        // The log's partitions of this month and the next two exist before anyone writes to them.
        try await sessions.pool.query("SELECT parley_session_log_partitions_ahead(2)")
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
