import ParleyCore
import Testing

@testable import ParleyServer

/// The snapshot cache's coherence markers and its memory bounds (issue 27: RSS after a write load).
@Suite struct SnapshotCacheTests {
    private func record(_ id: SessionID, rev: Int) -> SessionRecord {
        SessionRecord(
            id: id, flowId: "f", version: 1, channel: "production", core: "1.2.0", locale: nil, rev: rev,
            status: .active, step: "a", path: [], values: Answers(), forward: [], messages: .array([]),
            expiresAt: 0, month: 202611)
    }

    private func store(_ cache: SnapshotCache, _ id: SessionID, rev: Int) {
        let record = record(id, rev: rev)
        cache.store(SessionSnapshot(erased: record), record: record, id: id)
    }

    @Test func aReadOlderThanANotifiedRevIsNotStoredEvenForAnUncachedSession() throws {
        let cache = SnapshotCache(limit: 10)
        let id = SessionID.generate()
        cache.invalidate(key: id.key, rev: 3)
        store(cache, id, rev: 2)
        #expect(cache.current(id.text) == nil, "a read that raced with rev 3 was stored")
        store(cache, id, rev: 3)
        #expect(cache.current(id.text)?.record.rev == 3)
    }

    @Test func aNotificationDropsTheCachedStateAndOnlyANewerReadReplacesIt() throws {
        let cache = SnapshotCache(limit: 10)
        let id = SessionID.generate()
        store(cache, id, rev: 1)
        cache.invalidate(key: id.key, rev: 2)
        #expect(cache.current(id.text) == nil)
        store(cache, id, rev: 1)
        #expect(cache.current(id.text) == nil, "the older state came back")
        store(cache, id, rev: 2)
        #expect(cache.current(id.text)?.record.rev == 2)
    }

    @Test func anEvictedSessionTakesItsIdWithIt() throws {
        let cache = SnapshotCache(limit: 8)
        let ids = (0..<50).map { _ in SessionID.generate() }
        for id in ids { store(cache, id, rev: 1) }
        let size = cache.size
        #expect(size.sessions == 8 && size.ids == 8, "ids outlived their sessions: \(size)")
        // A notification for an evicted session finds nothing to drop, and still guards its reads.
        cache.invalidate(key: ids[0].key, rev: 2)
        store(cache, ids[0], rev: 1)
        #expect(cache.current(ids[0].text) == nil)
        #expect(cache.current(ids[49].text)?.record.rev == 1)
    }

    /// A read under way when the listener reconnected (its epoch taken before) is not stored
    /// after the reset: a change made while the listener was away was never notified, so nothing
    /// else would keep that older state out.
    @Test func aStateReadBeforeAResetIsNotStoredAfterIt() throws {
        let cache = SnapshotCache(limit: 10)
        let id = SessionID.generate()
        var before = record(id, rev: 4)
        before.cacheEpoch = cache.epoch
        cache.invalidateAll()
        cache.store(before, bodyCount: 10, id: id)
        #expect(cache.record(id.text) == nil, "a state read before the reset came back")
        var after = record(id, rev: 5)
        after.cacheEpoch = cache.epoch
        cache.store(after, bodyCount: 10, id: id)
        #expect(cache.record(id.text)?.rev == 5)
        // A state no read produced (a start's) is stored in any epoch.
        let started = SessionID.generate()
        cache.invalidateAll()
        cache.store(record(started, rev: 1), bodyCount: 10, id: started)
        #expect(cache.record(started.text)?.rev == 1)
    }

    /// A change keeps the state alone; the snapshot a read renders from it is kept beside it at
    /// the same rev, and a newer change drops both.
    @Test func aChangeKeepsTheStateAloneAndAReadKeepsItsSnapshot() throws {
        let cache = SnapshotCache(limit: 10)
        let id = SessionID.generate()
        let state = record(id, rev: 2)
        cache.store(state, bodyCount: 100, id: id)
        #expect(cache.snapshot(id.text) == nil, "a change kept a snapshot")
        #expect(cache.record(id.text)?.rev == 2)
        #expect(cache.size.bytes == 200, "a session counts twice its body, held or not")
        let screen = ScreenCache.Entry(
            body: Array(#"{"id":"a"}"#.utf8), etag: "\"s\"", served: "a", substitutions: [], headers: [:])
        cache.store(SessionSnapshot(state, screen: screen), record: state, id: id)
        #expect(cache.snapshot(id.text)?.rev == 2)
        #expect(cache.current(id.text)?.record.rev == 2)
        cache.store(record(id, rev: 3), bodyCount: 100, id: id)
        #expect(cache.snapshot(id.text) == nil, "the older snapshot outlived its state")
        #expect(cache.record(id.text)?.rev == 3)
    }

    /// The copy the cache keeps holds its bytes in an array of their own size: the body and the
    /// headers it serves are the snapshot's own, screen and all.
    @Test func aCompactedSnapshotServesTheSameBodyAndHeaders() {
        let screen = ScreenCache.Entry(
            body: Array(#"{"id":"a"}"#.utf8), etag: "\"s\"", served: "a", substitutions: [], headers: [:])
        let snapshot = SessionSnapshot(record(SessionID.generate(), rev: 3), screen: screen)
        let compacted = snapshot.compacted()
        #expect(compacted.body == snapshot.body)
        #expect(compacted.body.count == snapshot.bodyCount)
        #expect(String(decoding: compacted.body, as: UTF8.self).contains(#""screen":{"id":"a"},"#))
        #expect(compacted.headers["ETag"] == "\"3\"")
        #expect(compacted.body(cleared: ["x"]) == snapshot.body(cleared: ["x"]))
    }
}

/// The fixed table of notified revs.
@Suite struct NotifiedRevsTests {
    private func key(_ seed: UInt8, slotByte: UInt8) -> SessionKey {
        var bytes = [UInt8](repeating: seed, count: 32)
        bytes[8] = slotByte  // the slot's word is bytes 8-15
        return SessionKey(bytes)!
    }

    @Test func keepsTheNewestRevOfEachKey() {
        var revs = NotifiedRevs(capacity: 16)
        let one = key(1, slotByte: 1)
        let two = key(2, slotByte: 2)
        revs.note(one, rev: 5)
        revs.note(one, rev: 3)
        revs.note(two, rev: 7)
        #expect(revs.rev(one) == 5 && revs.rev(two) == 7)
        #expect(revs.rev(key(3, slotByte: 3)) == nil)
        revs.removeAll()
        #expect(revs.rev(one) == nil)
    }

    @Test func aKeyInTheSameSlotTakesItOverAndTheOtherReadsAsUnknown() throws {
        var revs = NotifiedRevs(capacity: 16)
        // The same slot word (bytes 8-15), different fingerprint words (bytes 16-23).
        var firstBytes = [UInt8](repeating: 1, count: 32)
        var secondBytes = [UInt8](repeating: 2, count: 32)
        firstBytes[8...15] = [9, 9, 9, 9, 9, 9, 9, 9]
        secondBytes[8...15] = [9, 9, 9, 9, 9, 9, 9, 9]
        let first = try #require(SessionKey(firstBytes))
        let second = try #require(SessionKey(secondBytes))
        revs.note(first, rev: 4)
        revs.note(second, rev: 2)
        #expect(revs.rev(second) == 2, "another key's rev is not maxed with the first's")
        #expect(revs.rev(first) == nil, "the first key's fingerprint no longer matches")
    }
}

/// A session key's bytes and hex forms (notifications name keys by their 64 hex digits).
@Suite struct SessionKeyTests {
    @Test func hexRoundTripsInEitherCaseAndRefusesAnyOtherByte() throws {
        let key = SessionID.generate().key
        let hex = key.hex
        #expect(hex.utf8.count == 64 && hex == hex.lowercased())
        #expect(key.withHex { String(decoding: $0, as: UTF8.self) } == hex)
        #expect(SessionKey(key.bytes) == key)
        func parsed(_ text: [UInt8]) -> SessionKey? { text.withUnsafeBufferPointer { SessionKey(hex: $0) } }
        #expect(parsed(Array(hex.utf8)) == key)
        #expect(parsed(Array(hex.uppercased().utf8)) == key)
        #expect(parsed(Array(hex.utf8.dropLast())) == nil)
        for position in [0, 7, 8, 31, 32, 63] {
            for byte in UInt8.min...UInt8.max where Hexadecimal.value(byte) == nil {
                var text = Array(hex.utf8)
                text[position] = byte
                #expect(parsed(text) == nil, "byte \(byte) at \(position)")
            }
        }
    }

    /// The value of a hex digit, either case.
    private enum Hexadecimal {
        static func value(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): (byte | 0x20) - 87
            default: nil
            }
        }
    }
}
