import Foundation
import Testing

@testable import ParleyPostgres

/// The one poller watches every connection's socket by its number, and numbers are reused: a
/// lost connection, whose socket libpq closed itself, must not take away the registration of a
/// newer connection given the same number when it is closed. (It did after a Postgres restart:
/// the newer connection's statement was answered, unread, and its caller waited forever.)
@Suite(.timeLimit(.minutes(10))) struct PollerTests {
    @Test func closingALostConnectionLeavesTheNextOwnerOfItsSocketNumberWatched() async throws {
        var configuration = try TestDatabase.configuration()
        // A lost wake-up ends at this deadline as an error instead of hanging the suite.
        configuration.queryTimeout = .seconds(20)
        let killer = try await PostgresConnection.connect(configuration: configuration)
        defer { killer.close() }
        // Other suites open sockets meanwhile and may take the freed number first: try again then.
        for _ in 0..<50 {
            let lost = try await PostgresConnection.connect(configuration: configuration)
            let pid = try await lost.query("SELECT pg_backend_pid() AS pid")[0].decode(Int32.self, column: "pid")
            _ = try await killer.query("SELECT pg_terminate_backend(\(pid), 5000)")
            await #expect(throws: PostgresError.self) { try await lost.query("SELECT 1") }
            // libpq read the end of the connection and closed the socket; the connection is open here.
            guard lost.libpqSocket == -1 else {
                lost.close()
                continue
            }
            let next = try await PostgresConnection.connect(configuration: configuration)
            defer { next.close() }
            guard next.socket == lost.socket else {
                lost.close()
                continue
            }
            let slow = Task { try await next.query("SELECT true AS slept FROM pg_sleep(0.2)") }
            try await Deadline.waitUntil("the statement watched") { PostgresPoller.shared.isWatching(next.pollID) }
            lost.close()
            let rows = try await slow.value
            #expect(try rows[0].decode(Bool.self, column: "slept"))
            return
        }
        Issue.record("no new connection was given a lost one's socket number in 50 tries")
    }
}
