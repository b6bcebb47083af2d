import Foundation
import Logging
import ParleyPostgres

/// Every server process prunes on a schedule (issue 18): each `pruneSeconds` it tries, and the
/// prune lock lets one process at a time do the work, so a fleet needs no elected pruner and no
/// cron job. What was deleted is counted in `/metrics` by the process that deleted it.
struct PruneSchedule: Sendable {
    let configuration: ServiceConfiguration
    let pool: PostgresPool
    let metrics: MetricsRegistry
    let logger: Logger

    /// Prunes every `pruneSeconds` until the task is cancelled.
    func run() async {
        let pruner = SessionPruner(
            pool: pool, retention: configuration.defaultRetention, batchSize: configuration.pruneBatch)
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(configuration.pruneSeconds))
                record(try await pruner.prune())
            } catch is CancellationError {
                return
            } catch {
                logger.warning("prune failed; retrying at the next interval: \(error)")
            }
        }
    }

    /// Counts one prune: `parley_prune_runs_total{outcome}` and `parley_pruned_total{table}`.
    func record(_ report: SessionPruner.Report?) {
        guard let report else {
            metrics.increment(.pruneRuns, labels: [("outcome", "skipped")])
            return
        }
        metrics.increment(.pruneRuns, labels: [("outcome", "pruned")])
        for (table, count) in report.byTable {
            metrics.increment(.pruned, labels: [("table", table)], by: UInt64(count))
        }
        if report.sessions > 0 { logger.info("pruned \(report.sessions) sessions past retention") }
    }
}
