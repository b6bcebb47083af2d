import Foundation
import ParleyPostgres
import Testing

@Suite(.timeLimit(.minutes(10))) struct MigrationTests {
    /// A directory with three migrations that fail if any runs twice (plain CREATE TABLE).
    static func makeMigrations() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-mig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = [
            "0001_create.sql":
                "SELECT pg_sleep(0.3);\nCREATE TABLE applied (file text NOT NULL);\nINSERT INTO applied VALUES ('1');",
            "0002_second.sql": "CREATE TABLE second (id int);\nINSERT INTO applied VALUES ('2');",
            "0010_third.sql": "INSERT INTO applied VALUES ('10');",
            "README.md": "not a migration",
        ]
        for (name, text) in files { try Data(text.utf8).write(to: directory.appendingPathComponent(name)) }
        return directory
    }

    @Test func twoProcessesStartedTogetherApplyEachMigrationOnce() async throws {
        let url = try await TestDatabase.freshDatabase()
        let directory = try Self.makeMigrations()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["migrate", "--database-url", url, "--migrations", directory.path]
        let first = try ParleyProcess.start(arguments)
        let second = try ParleyProcess.start(arguments)
        let results = [first.wait(), second.wait()]
        for result in results { #expect(result.status == 0, "stderr: \(result.stderr)") }
        let outputs = results.map(\.stdout).sorted()
        #expect(outputs.contains { $0.contains("applied\t0001_create.sql") && $0.contains("applied\t0010_third.sql") })
        #expect(outputs.contains { $0.contains("up to date") }, "the second process found nothing left to do")
        let pool = PostgresPool(configuration: PostgresConfiguration(url: url))
        defer { pool.shutdown() }
        let rows = try await pool.query("SELECT file FROM applied ORDER BY file")
        #expect(try rows.map { try $0.decode(String.self, column: "file") } == ["1", "10", "2"])
        let history = try await pool.query("SELECT version, checksum FROM schema_migrations ORDER BY version")
        #expect(try history.map { try $0.decode(Int.self, column: "version") } == [1, 2, 10])
        #expect(try history[0].decode(String.self, column: "checksum").count == 64)
    }

    @Test func aTamperedAppliedMigrationIsRefused() async throws {
        let url = try await TestDatabase.freshDatabase()
        let directory = try Self.makeMigrations()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["migrate", "--database-url", url, "--migrations", directory.path]
        #expect(try ParleyProcess.start(arguments).wait().status == 0)
        try Data("CREATE TABLE second (id bigint);\nINSERT INTO applied VALUES ('2');".utf8)
            .write(to: directory.appendingPathComponent("0002_second.sql"))
        try Data("INSERT INTO applied VALUES ('11');".utf8).write(to: directory.appendingPathComponent("0011_more.sql"))
        let refused = try ParleyProcess.start(arguments).wait()
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("migration 0002_second.sql was applied with checksum"), "\(refused.stderr)")
        #expect(refused.stderr.contains("must never change"))
        let status = try ParleyProcess.start(arguments + ["--status"]).wait()
        #expect(status.status == 0)
        #expect(status.stdout.contains("CHANGED since applied\t0002_second.sql"))
        #expect(status.stdout.contains("pending\t0011_more.sql"))
        let pool = PostgresPool(configuration: PostgresConfiguration(url: url))
        defer { pool.shutdown() }
        let rows = try await pool.query("SELECT count(*) AS n FROM applied WHERE file = '11'")
        #expect(try rows[0].decode(Int.self, column: "n") == 0, "nothing is applied once a change is found")
    }

    @Test func malformedFileNamesAreRefused() throws {
        let directory = try Self.makeMigrations()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("SELECT 1".utf8).write(to: directory.appendingPathComponent("second_try.sql"))
        let error = #expect(throws: PostgresError.self) { try Migrator(directory: directory).migrations() }
        #expect(error?.message.contains("second_try.sql is not named NNNN_description.sql") == true)
    }

    @Test func withoutADatabaseTheCommandSaysSo() throws {
        let result = try ParleyProcess.start(["migrate"], environment: ["PARLEY_DATABASE_URL": ""]).wait()
        #expect(result.status != 0)
        #expect(result.stderr.contains("pass --database-url or set PARLEY_DATABASE_URL"))
    }

    @Test func theShippedSchemaAppliesAndIsThenUpToDate() async throws {
        let url = try await TestDatabase.freshDatabase()
        let arguments = ["migrate", "--database-url", url]  // default directory: ./Migrations
        let first = try ParleyProcess.start(arguments).wait()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("applied\t0001_initial_schema.sql"))
        let second = try ParleyProcess.start(arguments).wait()
        #expect(second.stdout.contains("up to date"))
        let status = try ParleyProcess.start(arguments + ["--status"]).wait()
        #expect(status.stdout.contains("applied ") && status.stdout.contains("0001_initial_schema.sql"))
    }
}
