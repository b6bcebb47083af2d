import Foundation
public import ParleyPostgres

/// `parley keys rotate-data` (issue 18): re-encrypts every sealed value — sessions, session log,
/// completions, idempotency responses, outbox payloads — under the keyring's current key.
///
/// Each table is walked in primary-key order, one batch per transaction: the batch's rows are
/// locked (`FOR UPDATE`), so a server changing a session waits for the batch instead of having
/// its write overwritten with older content. A killed run loses nothing (every committed batch is
/// whole, every other row still opens with the old key) and a rerun skips values already sealed
/// with the current key. Servers must seal with the new key while it runs (README "Rotating the
/// data key"), or values they write meanwhile are left for the next run; ``run()`` counts them.
public struct DataKeyRotation: Sendable {
    /// How the walk is paced.
    public struct Settings: Sendable {
        /// Rows read and rewritten per transaction. Default 500.
        public var batchSize = 500
        /// Pause after each batch, to spare a busy database. Default 0.
        public var pauseSeconds: Double = 0

        /// The defaults documented on each property.
        public init() {}
    }

    /// What a run did.
    public struct Report: Sendable {
        /// Values re-encrypted.
        public let resealed: Int
        /// Values still sealed with another key when the run ended (written meanwhile by a server
        /// that seals with the old key); 0 means the old key may be deleted.
        public let remaining: Int
    }

    let pool: PostgresPool
    let sealing: AnswerSealing
    let settings: Settings
    let progress: @Sendable (String) -> Void

    /// A rotation to `keyring.currentId`; the keyring must also hold every key values are sealed with.
    public init(
        pool: PostgresPool, keyring: DataKeyring, settings: Settings = Settings(),
        progress: @escaping @Sendable (String) -> Void
    ) {
        self.pool = pool
        sealing = AnswerSealing(keyring: keyring)
        self.settings = settings
        self.progress = progress
    }

    /// Walks every table, then counts what is still sealed with another key.
    public func run() async throws -> Report {
        guard let current = sealing.keyring.currentId else {
            throw DataKeyring.Failure(description: "no new data key: nothing to rotate to")
        }
        var total = 0
        for pass in passes {
            let count = try await walk(pass)
            progress("\(pass.table): \(count) values re-encrypted")
            total += count
        }
        return Report(resealed: total, remaining: try await remaining(besides: current))
    }

    /// Values sealed with a key other than `current`, in every table.
    func remaining(besides current: String) async throws -> Int {
        var count = 0
        for pass in passes {
            let rows = try await pool.query(
                "SELECT count(*) FROM \(unsafeRaw: pass.table) WHERE \(unsafeRaw: pass.sealedWithOtherKey(current))")
            count += try rows.first?.decode(Int.self, at: 0) ?? 0
        }
        return count
    }

    /// One table's walk: batches in key order until a short one; returns the values re-encrypted.
    private func walk(_ pass: RotationPass) async throws -> Int {
        var cursor = pass.start
        var resealed = 0
        var rows = 0
        while true {
            let after = cursor
            let (count, read, last) = try await pool.withTransaction(maxAttempts: 3) { connection in
                try await connection.query("SELECT set_config('parley.history_maintenance', 'on', true)")
                let batch = try await connection.query(pass.select(after, settings.batchSize))
                var count = 0
                for row in batch { count += try await pass.rotate(row, sealing, connection) }
                return (count, batch.count, try batch.last.map(pass.cursor) ?? after)
            }
            resealed += count
            rows += read
            cursor = last
            progress("\(pass.table): \(rows) rows read, \(resealed) values re-encrypted")
            guard read == settings.batchSize else { return resealed }
            if settings.pauseSeconds > 0 { try await Task.sleep(for: .seconds(settings.pauseSeconds)) }
        }
    }
}
