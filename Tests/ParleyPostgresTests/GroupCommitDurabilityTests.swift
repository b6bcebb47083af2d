import Dispatch
import Foundation
import Glibc
import ParleyPostgres
import Testing

/// kill -9 under load: every write a caller was told is committed is in the table.
@Suite(.timeLimit(.minutes(10))) struct GroupCommitDurabilityTests {
    @Test func everyAcknowledgedRowSurvivesKillNine() async throws {
        let table = TestDatabase.uniqueName("group_commit_durable")
        let writer = try Writer.start(
            [
                "postgres", "--database-url", try TestDatabase.url(), "--concurrency", "16", "--seconds", "600",
                "--group-commit", "--print-acknowledged", "--table", table,
            ])
        // Read acknowledgements off the cooperative pool: the reads block.
        let acknowledged = await withCheckedContinuation { (done: CheckedContinuation<[Int64], Never>) in
            DispatchQueue.global().async { done.resume(returning: Self.killAfterAcknowledgements(writer, count: 500)) }
        }
        #expect(acknowledged.count >= 500, "the writer acknowledged rows before it was killed")
        let pool = try TestDatabase.pool(maximumConnections: 1)
        defer { pool.shutdown() }
        let stored = try Set(
            await pool.query("SELECT id FROM \(identifier: table)").map { try $0.decode(Int64.self, column: "id") })
        let lost = acknowledged.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "acknowledged but not stored: \(lost.prefix(10))")
        #expect(Set(acknowledged).count == acknowledged.count, "each id acknowledged once")
        try await pool.query("DROP TABLE \(identifier: table)")
    }

    /// Reads the writer's acknowledged ids until `count` have arrived, kills it with SIGKILL
    /// mid-load, then takes every complete line it printed before dying.
    static func killAfterAcknowledgements(_ writer: Writer, count: Int) -> [Int64] {
        let output = writer.output.fileHandleForReading
        var text = Data()
        var lines = 0
        while lines < count {
            let chunk = output.availableData
            if chunk.isEmpty { break }  // the writer died on its own; the expectations say so
            lines += chunk.filter { $0 == UInt8(ascii: "\n") }.count
            text += chunk
        }
        kill(writer.process.processIdentifier, SIGKILL)
        text += output.readDataToEndOfFile()
        writer.process.waitUntilExit()
        let complete = String(decoding: text, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)
        // A line cut short by the kill has no newline yet; only complete lines count.
        let whole = text.last == UInt8(ascii: "\n") ? complete : complete.dropLast()
        return whole.compactMap { Int64($0) }
    }

    /// `parley-bench postgres … --print-acknowledged` running, its standard output piped here.
    struct Writer: Sendable {
        let process: ChildProcess
        let output: Pipe

        static func start(_ arguments: [String]) throws -> Writer {
            let process = ChildProcess()
            process.executableURL = ParleyExecutable.url(of: "parley-bench")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.runAlone()
            return Writer(process: process, output: output)
        }
    }
}
