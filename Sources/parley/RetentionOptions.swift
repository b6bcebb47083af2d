import ArgumentParser
import ParleyCore

/// How long ended sessions are kept (README "Retention"), for `serve` and `prune`.
struct RetentionOptions: ParsableArguments {
    @Option(help: "ISO 8601 duration an ended session is kept when its flow names no retention (e.g. P90D, P1Y).")
    var retention = "P90D"

    @Option(help: "Sessions deleted per prune transaction.")
    var pruneBatch = 500

    func validate() throws {
        guard RetentionPeriod(retention) != nil else {
            throw ValidationError(
                "--retention must be an ISO 8601 duration longer than zero in whole units, such as P90D, P1Y6M or PT36H."
            )
        }
        guard (1...100_000).contains(pruneBatch) else { throw ValidationError("--prune-batch must be 1 to 100000.") }
    }

    /// The validated default retention.
    var period: RetentionPeriod { RetentionPeriod(retention) ?? .days(90) }
}
