import Testing

@testable import ParleyPostgres

/// The poller's table of registrations behaves as a dictionary by id: checked against one under
/// random sets, removals and sweeps, with ids that collide in the low bits and runs that wrap
/// around the table's end.
@Suite struct PollRegistrationsTests {
    @Test func behavesAsADictionary() {
        var generator = XorShift(state: 27)
        for round in 0..<40 {
            var table = PollRegistrations<Int>(capacity: 8)
            var model: [UInt64: Int] = [:]
            // Few distinct ids, some 8 or 64 apart (same home slot), some near the table's end.
            let ids: [UInt64] = (1...24).map { UInt64($0) } + [64, 72, 128, 7, 15, 63, 127, 1_000_003]
            for step in 0..<2_000 {
                let id = ids[Int(generator.next() % UInt64(ids.count))]
                switch generator.next() % 10 {
                case 0..<5:
                    table.set(id, step)
                    model[id] = step
                case 5..<9:
                    #expect(table.remove(id) == model.removeValue(forKey: id), "round \(round), step \(step)")
                default:
                    let threshold = Int(generator.next() % 2_000)
                    let due = table.removeAll { $0 < threshold }
                    let expected = model.filter { $0.value < threshold }
                    for key in expected.keys { model.removeValue(forKey: key) }
                    #expect(due.sorted() == expected.values.sorted(), "round \(round), step \(step)")
                }
                #expect(table.count == model.count)
            }
            for id in ids { #expect(table.contains(id) == (model[id] != nil)) }
        }
    }

    @Test func growsPastHalfFullAndKeepsEveryRegistration() {
        var table = PollRegistrations<UInt64>(capacity: 8)
        for id in UInt64(1)...1_000 { table.set(id * 8, id) }
        #expect(table.count == 1_000)
        for id in UInt64(1)...1_000 { #expect(table.remove(id * 8) == id) }
        #expect(table.count == 0)
        #expect(table.remove(8) == nil)
        #expect(!table.contains(0))
    }
}

/// Marsaglia's xorshift: deterministic, so a failure repeats.
private struct XorShift {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
