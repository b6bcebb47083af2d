import Foundation
import ParleyCrypto
import ParleyPostgres
import Testing

@testable import ParleyServer

/// A session's key (issue 27): an id of the current form gives its start's millisecond, then the
/// first 26 bytes of its SHA-256, so sessions started together are neighbours in every index the
/// key leads; any other id (those issued before, or made up) gives its SHA-256, so sessions started
/// before the change keep their rows. Postgres's `parley_session_key` (migration 0011) derives the
/// same keys, for scripts and operators.
@Suite(.timeLimit(.minutes(2))) struct SessionKeyDerivationTests {
    /// Ids of every form the two derivations must agree on.
    static let ids = [
        // Current: 8 characters of time, 22 of randomness.
        SessionID.generate(startedAt: 1_795_000_000.5).text,
        SessionID.generate().text,
        // Issued before the change (22 characters), and made up.
        "AZrKVxQAAAAAAAAAAAAA-_", "", "x", String(repeating: "A", count: 29), String(repeating: "_", count: 31),
        // 30 bytes whose first eight are not all base64url: hashed whole.
        "AZrK.xQA" + String(repeating: "B", count: 22), "AZrKVxQ" + "é" + String(repeating: "C", count: 21),
        // 30 bytes (29 characters) whose first eight are: the time form, in both.
        "AZrKVxQA" + "é" + String(repeating: "D", count: 20),
    ]

    @Test func aCurrentIdsKeyIsItsMillisecondThenTheStartOfItsSHA256() {
        let id = SessionID.generate(startedAt: 1_795_000_000.123)
        let digest = SHA256.hash(Array(id.text.utf8))
        let millisecond: UInt64 = 1_795_000_000_123
        let time = (0..<6).map { UInt8(truncatingIfNeeded: millisecond >> (40 - 8 * UInt64($0))) }
        #expect(id.key.bytes == time + digest.prefix(26))
    }

    @Test func anyOtherIdsKeyIsTheSHA256OfItsText() {
        for text in Self.ids.dropFirst(2).prefix(7) {
            #expect(SessionID(text).key.bytes == SHA256.hash(Array(text.utf8)), "\(text)")
        }
        #expect(Self.ids[7].utf8.count == 30 && Self.ids[8].utf8.count == 30 && Self.ids[9].utf8.count == 30)
        #expect(SessionID(Self.ids[9]).key.bytes != SHA256.hash(Array(Self.ids[9].utf8)))
    }

    /// What the change is for: a later start's key sorts after an earlier one's, as Postgres
    /// compares `bytea` (byte by byte), whatever their randomness.
    @Test func theKeysOfLaterStartsSortAfterEarlierOnes() {
        var previous = SessionID.generate(startedAt: 1_700_000_000).key.bytes
        for step in 1...200 {
            let key = SessionID.generate(startedAt: 1_700_000_000 + Double(step) * 0.001).key.bytes
            #expect(previous.lexicographicallyPrecedes(key), "step \(step)")
            previous = key
        }
    }

    @Test func postgresDerivesTheSameKeys() async throws {
        let database = try await IsolatedDatabase.create()
        defer { database.close() }
        for text in Self.ids {
            let rows = try await database.pool.query("SELECT parley_session_key(\(text)) AS key")
            let key: Data = try #require(rows.first).decode(column: "key")
            #expect(Array(key) == SessionID(text).key.bytes, "\(text)")
        }
    }
}
