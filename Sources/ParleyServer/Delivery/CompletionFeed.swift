import Foundation
public import ParleyCore
public import ParleyPostgres

/// Completed sessions of a flow, oldest first, for systems that pull (DESIGN.md "Delivery"): the
/// pull API and `parley export completions` both read through here and write each completion as
/// the same canonical JSON line, so their outputs agree line for line.
public struct CompletionFeed: Sendable {
    /// The pool every query runs on.
    public let pool: PostgresPool
    private let sealing: AnswerSealing

    /// A feed on a pool; `keyring` opens sensitive answers, which are sealed at rest.
    public init(pool: PostgresPool, keyring: DataKeyring) {
        self.pool = pool
        sealing = AnswerSealing(keyring: keyring)
    }

    /// One completion: its id (the cursor) and its JSON (`parley_completion_json`).
    public struct Item: Sendable {
        /// The completion's id; pass it as `after` to continue past it.
        public let id: Int
        /// The completion as every consumer sees it.
        public let json: JSONValue

        /// The NDJSON line: canonical JSON and a newline.
        public var line: [UInt8] { CanonicalJSON.encode(json) + [0x0A] }
    }

    /// Up to `limit` completions of `flow` with an id above `after`, completed at or after `since`
    /// (an RFC 3339 instant) when given.
    public func page(flow: String, after: Int, since: String? = nil, limit: Int) async throws -> [Item] {
        let rows = try await pool.query(
            """
            SELECT c.id, c.session_key, parley_completion_json(c) AS item FROM completions c
            WHERE c.flow_id = \(flow) AND c.id > \(after)
              AND (\(since)::text IS NULL OR c.created_at >= \(since)::timestamptz)
            ORDER BY c.id LIMIT \(limit)
            """)
        return try rows.map { row in
            let item: PostgresJSONB = try row.decode(column: "item")
            let session: Data = try row.decode(column: "session_key")
            let json = try sealing.openedCompletion(try JSONParser.parse(item.bytes), session: Array(session))
            return Item(id: try row.decode(column: "id"), json: json)
        }
    }
}
