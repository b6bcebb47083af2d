import Foundation
import ParleyPostgres
import Testing

/// The shipped `Migrations/0001_initial_schema.sql`, applied through ``Migrator`` to a fresh
/// database: the constraints the service relies on hold.
@Suite(.timeLimit(.minutes(10))) struct SchemaTests {
    static func migratedPool() async throws -> PostgresPool {
        let pool = PostgresPool(configuration: PostgresConfiguration(url: try await TestDatabase.freshDatabase()))
        let migrator = Migrator(directory: TestDatabase.packageRoot.appendingPathComponent("Migrations"))
        let applied = try await migrator.migrate(on: pool)
        #expect(applied.map(\.fileName).contains("0001_initial_schema.sql"))
        #expect(try await migrator.migrate(on: pool).isEmpty, "a second run applies nothing")
        return pool
    }

    static func insertVersion(_ pool: PostgresPool, flow: String, version: Int, hash: UInt8) async throws {
        try await pool.query(
            """
            INSERT INTO flow_versions (flow_id, version, content, canonical, content_sha256, schema_version,
                author, source)
            VALUES (\(flow), \(version), \(PostgresJSONB(#"{"id": "\#(flow)"}"#)), \(Data("{}".utf8)),
                \(Data(repeating: hash, count: 32)), \("parley.flow/1"), \("ada"), \("api"))
            """)
    }

    @Test func versionsAreUniquePerFlowAndContentAndAppendOnly() async throws {
        let pool = try await Self.migratedPool()
        defer { pool.shutdown() }
        try await pool.query("INSERT INTO flows (id) VALUES ('passport')")
        try await Self.insertVersion(pool, flow: "passport", version: 1, hash: 1)
        try await Self.insertVersion(pool, flow: "passport", version: 2, hash: 2)
        let sameVersion = await #expect(throws: PostgresError.self) {
            try await Self.insertVersion(pool, flow: "passport", version: 2, hash: 3)
        }
        #expect(sameVersion?.constraint == "flow_versions_pkey")
        let sameContent = await #expect(throws: PostgresError.self) {
            try await Self.insertVersion(pool, flow: "passport", version: 3, hash: 1)
        }
        #expect(sameContent?.constraint == "flow_versions_content_unique")
        let unknownFlow = await #expect(throws: PostgresError.self) {
            try await Self.insertVersion(pool, flow: "nope", version: 1, hash: 9)
        }
        #expect(unknownFlow?.kind == .foreignKeyViolation)
        let rewrite = await #expect(throws: PostgresError.self) {
            try await pool.query("UPDATE flow_versions SET author = 'mallory'")
        }
        #expect(rewrite?.message.contains("append-only") == true)
        let latest = try await pool.query(
            "SELECT max(version) AS v FROM flow_versions WHERE flow_id = \("passport")")
        #expect(try latest[0].decode(Int.self, column: "v") == 2)
    }

    @Test func theNewestReleasePerChannelIsLiveAndAnnounced() async throws {
        let pool = try await Self.migratedPool()
        defer { pool.shutdown() }
        try await pool.query("INSERT INTO flows (id) VALUES ('passport')")
        try await Self.insertVersion(pool, flow: "passport", version: 1, hash: 1)
        try await Self.insertVersion(pool, flow: "passport", version: 2, hash: 2)
        let announcements = try await pool.listen(channel: "parley_releases")
        for version in [1, 2, 1] {  // release 1, then 2, then roll back to 1
            try await pool.query(
                """
                INSERT INTO releases (flow_id, channel, version, released_by)
                VALUES ('passport', 'production', \(version), 'ci')
                """)
        }
        try await pool.query(
            "INSERT INTO releases (flow_id, channel, version, released_by) VALUES ('passport', 'beta', 2, 'ci')")
        let live = try await pool.query("SELECT channel, version FROM live_releases ORDER BY channel")
        #expect(try live.map { try $0.decode(String.self, column: "channel") } == ["beta", "production"])
        #expect(try live.map { try $0.decode(Int.self, column: "version") } == [2, 1])
        let history = try await pool.query("SELECT count(*) AS n FROM releases WHERE channel = 'production'")
        #expect(try history[0].decode(Int.self, column: "n") == 3)
        let first = try await Deadline.elements(1, of: announcements, "the first release's announcement").first
        #expect(first?.payload == #"{"flow" : "passport", "channel" : "production", "version" : 1}"#)
        let missing = await #expect(throws: PostgresError.self) {
            try await pool.query(
                "INSERT INTO releases (flow_id, channel, version, released_by) VALUES ('passport', 'x', 7, 'ci')")
        }
        #expect(missing?.kind == .foreignKeyViolation, "only existing versions can be released")
    }

    @Test func tokensAreFoundByHashAndActiveNamesAreUnique() async throws {
        let pool = try await Self.migratedPool()
        defer { pool.shutdown() }
        let hash = Data(repeating: 7, count: 32)
        try await pool.query(
            "INSERT INTO api_tokens (name, token_sha256, scopes) VALUES ('ci', \(hash), \(["publish", "author"]))")
        let found = try await pool.query("SELECT name, scopes FROM api_tokens WHERE token_sha256 = \(hash)")
        #expect(try found[0].decode([String].self, column: "scopes") == ["publish", "author"])
        let duplicate = await #expect(throws: PostgresError.self) {
            try await pool.query(
                "INSERT INTO api_tokens (name, token_sha256) VALUES ('ci', \(Data(repeating: 8, count: 32)))")
        }
        #expect(duplicate?.kind == .uniqueViolation)
        try await pool.query("UPDATE api_tokens SET revoked_at = now() WHERE name = 'ci'")
        try await pool.query(
            "INSERT INTO api_tokens (name, token_sha256) VALUES ('ci', \(Data(repeating: 8, count: 32)))")
        let short = await #expect(throws: PostgresError.self) {
            try await pool.query("INSERT INTO api_tokens (name, token_sha256) VALUES ('x', \(Data([1])))")
        }
        #expect(short?.kind == .checkViolation)
    }
}
