/// The newest rev notified for each recently changed session, in a fixed table (issue 27: RSS):
/// what keeps the snapshot cache from storing a database read that raced with a change.
///
/// Every answer of every process notifies, so this sees far more sessions than the cache holds:
/// as an LRU dictionary of 20,000 keys it held ~2.6 MB, more than a fifth of the cache's memory
/// after a write load. A slot here is one word (part of the key beside the rev), and a session
/// hashing to a slot another session's notification took loses its marker, as an LRU entry was
/// lost when 20,000 newer keys came after it; with twice as many slots as the cache's sessions,
/// that takes longer on average than the 20,000 notifications did.
struct NotifiedRevs {
    /// Per slot: the key's fingerprint in the high 32 bits, its newest rev in the low 32 (0: empty).
    private var slots: [UInt64]
    private let mask: Int

    /// A table of the power of two at least `capacity` slots (8 bytes each).
    init(capacity: Int) {
        var count = 1024
        while count < capacity { count <<= 1 }
        slots = [UInt64](repeating: 0, count: count)
        mask = count - 1
    }

    /// Session `key` changed at `rev` (kept when newer than the rev noted for it).
    mutating func note(_ key: SessionKey, rev: Int) {
        let (index, fingerprint) = Self.place(key, mask: mask)
        let stored = slots[index]
        let newest = stored >> 32 == fingerprint ? max(rev, Int(stored & 0xFFFF_FFFF)) : rev
        slots[index] = fingerprint << 32 | UInt64(clamping: min(newest, Int(UInt32.max)))
    }

    /// The newest rev noted for `key`, if its slot still holds it.
    func rev(_ key: SessionKey) -> Int? {
        let (index, fingerprint) = Self.place(key, mask: mask)
        let stored = slots[index]
        return stored != 0 && stored >> 32 == fingerprint ? Int(stored & 0xFFFF_FFFF) : nil
    }

    /// Forgets every rev.
    mutating func removeAll() {
        for index in slots.indices { slots[index] = 0 }
    }

    /// The key's slot and fingerprint, from words of the SHA-256 the cache's dictionaries do not
    /// hash (so a key's slot and its dictionary bucket are independent).
    private static func place(_ key: SessionKey, mask: Int) -> (index: Int, fingerprint: UInt64) {
        let (slot, fingerprint) = key.tableWords
        return (Int(truncatingIfNeeded: slot) & mask, fingerprint >> 32)
    }
}
