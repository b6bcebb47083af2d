import Foundation
public import ParleyCore
public import ParleyPostgres

/// Records every submit and its outcome (DESIGN.md "Storage").
public struct SubmissionStore: Sendable {
    /// The pool every query runs on.
    public let pool: PostgresPool

    /// Creates a store on a pool.
    public init(pool: PostgresPool) { self.pool = pool }

    /// Appends one submit outcome.
    public func record(
        flowId: String, version: Int, step: String, core: String, answers: JSONValue, outcome: ValidationOutcome,
        nextStep: String?
    ) async throws {
        let answersJSON = PostgresJSONB(bytes: CanonicalJSON.encode(answers))
        let outcomeJSON = PostgresJSONB(bytes: CanonicalJSON.encode(outcome.json))
        try await pool.query(
            """
            INSERT INTO submissions (flow_id, version, step, core_version, answers, valid, outcome, next_step)
            VALUES (\(flowId), \(version), \(step), \(core), \(answersJSON), \(outcome.valid), \(outcomeJSON),
                    \(nextStep))
            """)
    }

    /// Number of recorded submits for a flow version (operators and tests).
    public func count(flowId: String, version: Int) async throws -> Int {
        let rows = try await pool.query(
            "SELECT count(*)::bigint FROM submissions WHERE flow_id = \(flowId) AND version = \(version)")
        return try rows.first?.decode(Int.self, at: 0) ?? 0
    }
}
