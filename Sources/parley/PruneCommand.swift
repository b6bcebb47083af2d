import ArgumentParser
import Foundation
import ParleyServer

/// `parley prune`: deletes sessions past retention once (every server also does it on a schedule).
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete completed and expired sessions past their flow's retention, once.",
        discussion: """
            Deletes each ended session once its flow version's "retention" (else --retention) has passed \
            since it ended, with its log, completion and finished webhook deliveries, in batches. Every \
            `parley serve` does the same on a schedule; one process at a time does the work.
            """)

    @OptionGroup var retention: RetentionOptions

    @Option(help: ArgumentHelp("Prune as if it were this RFC 3339 instant (tests).", visibility: .hidden))
    var asOf: String?

    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if let asOf, (try? Date(asOf, strategy: .iso8601)) == nil {
            throw ValidationError("--as-of must be an RFC 3339 instant such as 2026-01-31T00:00:00Z.")
        }
    }

    func run() async throws {
        let pool = try database.makePool(maximumConnections: 1)
        defer { pool.shutdown() }
        let pruner = SessionPruner(pool: pool, retention: retention.period, batchSize: retention.pruneBatch)
        let report: SessionPruner.Report?
        do {
            report = try await pruner.prune(asOf: try asOf.map { try Date($0, strategy: .iso8601) })
        } catch {
            FileHandle.standardError.write(Data("parley prune: \(error)\n".utf8))
            throw ExitCode(1)
        }
        guard let report else {
            print("another process is pruning right now; nothing done")
            return
        }
        print(report.byTable.map { "\($0.table) \($0.count)" }.joined(separator: ", "))
    }
}
