/// The connections ``PostgresPoller`` watches, by registration id: an open-addressed table with
/// linear probing, the id's low bits as its home slot.
///
/// Every round trip registers once and every wake-up takes one out (1.2-1.8 times an answer):
/// as a `[UInt64: (PostgresConnection, ContinuousClock.Instant?)]` an insert cost ~570
/// instructions and a removal ~200 (the seeded hash of the id, and the resilient instant moved
/// through the runtime's value witnesses: see ``PollDeadline``). Ids come from one counter
/// (``PostgresPoller/makeID()``), so the live ones spread over the slots without hashing.
///
/// Generic over what a registration holds so tests can check it alone; the poller's use is
/// specialised (one module).
struct PollRegistrations<Registration> {
    /// Per slot: the id registered there, or 0 (ids start at 1).
    private var ids: [UInt64]
    private var registrations: [Registration?]
    /// `ids.count - 1` (a power of two less one).
    private var mask: Int
    /// How many slots hold a registration.
    private(set) var count = 0

    /// A table of at least `capacity` slots (a power of two); it doubles when half full.
    init(capacity: Int = 64) {
        var slots = 8
        while slots < capacity { slots <<= 1 }
        ids = [UInt64](repeating: 0, count: slots)
        registrations = [Registration?](repeating: nil, count: slots)
        mask = slots - 1
    }

    /// Registers `registration` under `id` (not 0), replacing the one it had.
    mutating func set(_ id: UInt64, _ registration: Registration) {
        precondition(id != 0, "registration ids start at 1")
        var slot = home(id)
        while ids[slot] != 0 && ids[slot] != id { slot = (slot + 1) & mask }
        if ids[slot] == 0 {
            if 2 * (count + 1) > ids.count {
                grow()
                return set(id, registration)
            }
            ids[slot] = id
            count += 1
        }
        registrations[slot] = registration
    }

    /// Takes out the registration of `id`, if there is one.
    mutating func remove(_ id: UInt64) -> Registration? {
        guard let slot = find(id) else { return nil }
        let removed = registrations[slot]
        removeSlot(slot)
        return removed
    }

    /// Whether `id` is registered.
    func contains(_ id: UInt64) -> Bool { find(id) != nil }

    /// Takes out every registration `isDue` picks (the poller: those past their deadline).
    mutating func removeAll(where isDue: (Registration) -> Bool) -> [Registration] {
        var due: [Registration] = []
        var slot = 0
        while slot < ids.count {
            // A removal may shift a later registration into this slot: look at it again.
            if ids[slot] != 0, let registration = registrations[slot], isDue(registration) {
                due.append(registration)
                removeSlot(slot)
            } else {
                slot += 1
            }
        }
        return due
    }

    private func home(_ id: UInt64) -> Int { Int(truncatingIfNeeded: id) & mask }

    private func find(_ id: UInt64) -> Int? {
        guard id != 0 else { return nil }
        var slot = home(id)
        while ids[slot] != 0 {
            if ids[slot] == id { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Empties `slot`, then moves back each later registration of its probe run that the hole
    /// would otherwise cut off from its home slot (linear probing's deletion, no tombstones).
    private mutating func removeSlot(_ slot: Int) {
        var hole = slot
        var next = (hole + 1) & mask
        while ids[next] != 0 {
            // `next` may fill the hole when the hole lies between its home and it (cyclically).
            if (next - home(ids[next])) & mask >= (next - hole) & mask {
                ids[hole] = ids[next]
                registrations[hole] = registrations[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        ids[hole] = 0
        registrations[hole] = nil
        count -= 1
    }

    private mutating func grow() {
        var larger = PollRegistrations(capacity: 2 * ids.count)
        for slot in ids.indices where ids[slot] != 0 {
            if let registration = registrations[slot] { larger.set(ids[slot], registration) }
        }
        self = larger
    }
}
