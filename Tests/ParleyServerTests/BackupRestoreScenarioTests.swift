import Foundation
import ParleyCore
import ParleyPostgres
import ParleyServer
import Testing

/// Issue 16, backup and restore (README "Backup and restore"): `pg_dump` of a live instance,
/// restored with `pg_restore` into a fresh cluster, serves identical bytes for every live screen
/// and every session.
@Suite(.timeLimit(.minutes(10)), .offCooperativePool) struct BackupRestoreScenarioTests {
    @Test func aRestoredDumpServesIdenticalScreensAndSessions() async throws {
        let instance = try await PrivateInstance.start()
        defer { instance.destroy() }
        let (live, service, pool) = (instance.cluster, instance.harness, instance.harness.pool)

        // Flows with several versions, one rolled back, and sessions in several states.
        let quick = FlowFixture.uniqueId("bk")
        try #require(try service.postFlow(FlowFixture.quickReplies(id: quick)).status == 201)
        try #require(try service.release(quick, version: 1).status == 201)
        try #require(try service.postFlow(FlowFixture.withDatePicker(id: quick), ifMatch: 1).status == 201)
        try #require(try service.release(quick, version: 2).status == 201)
        try #require(try service.release(quick, version: 1).status == 201)
        let branching = FlowFixture.uniqueId("bkb")
        try #require(try service.postFlow(FlowFixture.branching(id: branching)).status == 201)
        try #require(try service.release(branching, version: 1).status == 201)
        let signup = try SessionFixture.released(service, prefix: "bks")
        var sessions: [String] = []
        for answered in 0..<3 {
            var snapshot = try service.startSession(signup).json
            if answered >= 1 { snapshot = try service.advance(snapshot, ["email": "b@example.com"]) }
            if answered >= 2 { snapshot = try service.advance(snapshot, ["purpose": "holiday"]) }
            sessions.append(snapshot.sessionId)
        }

        // The dump is taken while the original serves.
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("parley-\(UUID().uuidString).dump")
        defer { try? FileManager.default.removeItem(at: dump) }
        try Self.run("/usr/bin/pg_dump", ["--format=custom", "--file=\(dump.path)", live.url])
        let fresh = try PrivateCluster.start()
        defer { fresh.destroy() }
        try Self.run("/usr/bin/pg_restore", ["--no-owner", "--exit-on-error", "--dbname=\(fresh.url)", dump.path])
        let restored = try ServerProcess(databaseURL: fresh.url)
        defer { restored.stop() }
        let (before, after) = (service.client, RawHTTPClient(port: restored.port))

        let screens = try await pool.query(
            """
            SELECT DISTINCT v.flow_id, step->>'id' FROM flow_versions v
            JOIN (SELECT DISTINCT flow_id FROM releases) r ON r.flow_id = v.flow_id,
            jsonb_array_elements(v.content->'steps') AS step ORDER BY 1, 2
            """)
        #expect(screens.count >= 8, "every step of every live flow")
        var compared = 0
        for row in screens {
            let (flow, step): (String, String) = (try row.decode(at: 0), try row.decode(at: 1))
            for core in ["1.0.0", "1.2.0", "9.0.0"] {
                let target = "/v1/screens/\(flow)/\(step)"
                let one = try before.send("GET", target, headers: [("Parley-Core", core)])
                let two = try after.send("GET", target, headers: [("Parley-Core", core)])
                #expect(one.status == 200, "\(target) at \(core): \(one)")
                #expect(one.status == two.status && one.body == two.body, "\(target) at \(core) differs after restore")
                #expect(one.header("ETag") == two.header("ETag") && one.header("ETag") != nil)
                compared += 1
            }
        }
        for id in sessions {
            let one = try before.send("GET", "/v1/sessions/\(id)")
            let two = try after.send("GET", "/v1/sessions/\(id)")
            #expect(one.status == 200 && one.body == two.body, "session differs after restore: \(one) \(two)")
        }
        print("figure: \(compared) gated screens and \(sessions.count) sessions identical after pg_dump/pg_restore")
    }

    /// Runs a Postgres client tool to completion; throws with its stderr when it fails.
    static func run(_ tool: String, _ arguments: [String]) throws {
        let process = ChildProcess()
        // Under `timeout`, so reading its stderr to the end and waiting for it have a deadline.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=5", "300", tool] + arguments
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.runAlone()
        let message = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DeployScript.Failed(description: "\(tool) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}
