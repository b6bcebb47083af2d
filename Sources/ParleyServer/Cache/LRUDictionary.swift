/// A bounded dictionary that evicts the least recently used entry when full, so a cache at
/// its limit loses one cold entry per insertion instead of emptying at once (no latency
/// cliff). Reads count as use. Entries may carry a cost (bytes, say) with a limit on their sum,
/// so a cache of values of very different sizes is bounded by what they weigh, not only by how
/// many there are. Not synchronised: callers keep it behind their own lock.
struct LRUDictionary<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var cost: Int
        var older: Int
        var newer: Int
    }

    /// The most entries kept (at least one).
    let capacity: Int
    /// The most the entries' costs may add up to; the newest entry is kept even when it alone
    /// weighs more.
    let costLimit: Int
    /// What the entries' costs add up to.
    private(set) var totalCost = 0
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1

    /// An empty dictionary holding at most `capacity` entries whose costs add up to at most
    /// `costLimit`.
    init(capacity: Int, costLimit: Int = .max) {
        self.capacity = max(1, capacity)
        self.costLimit = max(0, costLimit)
    }

    /// Entries held.
    var count: Int { slots.count }

    /// The value for `key`, now the most recently used; nil when absent.
    mutating func value(for key: Key) -> Value? {
        // The entry used last is compared before any hashing: a hot entry (the screen every
        // client is asking for) costs one equality check, not a hash of its key.
        // Read in place: subscripting `nodes` copied the whole node (key and value) to compare.
        if newest >= 0,
            let hit = nodes.withUnsafeBufferPointer({ [newest] nodes in
                nodes[newest].key == key ? Optional(nodes[newest].value) : nil
            })
        {
            return hit
        }
        guard let index = slots[key] else { return nil }
        promote(index)
        return nodes[index].value
    }

    /// The value for `key` without counting it as a use.
    func peek(_ key: Key) -> Value? { index(of: key).map { nodes[$0].value } }

    /// What `read` takes from the value for `key`, read in place (no copy of a large value),
    /// without counting it as a use; nil when absent.
    func peek<Part>(_ key: Key, _ read: (borrowing Value) -> Part) -> Part? {
        guard let index = index(of: key) else { return nil }
        return nodes.withUnsafeBufferPointer { nodes in read(nodes[index].value) }
    }

    /// Where `key`'s node is, the newest entry compared before any hashing: the entry a change
    /// reads, then stores and then sees notified is usually the one used last (a session's answer
    /// found its state, stores its new snapshot, and its own notification drops the older rev),
    /// and each hash of its key cost ~400 instructions.
    private func index(of key: Key) -> Int? {
        if newest >= 0, nodes.withUnsafeBufferPointer({ [newest] nodes in nodes[newest].key == key }) {
            return newest
        }
        return slots[key]
    }

    /// Changes the value for `key` and its cost in place, without counting it as a use (no copy
    /// of the value in or out); nil when absent. The cost may only go down: nothing is evicted.
    mutating func modify<Result>(_ key: Key, _ change: (inout Value, inout Int) -> Result) -> Result? {
        guard let index = index(of: key) else { return nil }
        var cost = nodes[index].cost
        let result = change(&nodes[index].value, &cost)
        totalCost += cost - nodes[index].cost
        nodes[index].cost = cost
        return result
    }

    /// Stores `value` as the most recently used, evicting the least recently used when full.
    mutating func set(_ value: Value, for key: Key) {
        _ = update(value, for: key)
    }

    /// ``set(_:for:)`` with a cost, handing back every value it replaced or evicted, so a caller
    /// holding a lock can let them go, and pay for their deallocation, after unlocking.
    mutating func update(_ value: Value, for key: Key, cost: Int = 0) -> [Value] {
        let (replaced, evicted) = replace(value, for: key, cost: cost)
        guard let replaced else { return evicted }
        return [replaced] + evicted
    }

    /// ``update(_:for:cost:)`` with the value it replaced apart from those it evicted: replacing a
    /// value (a session's next snapshot) evicts nothing, and then no array is allocated.
    mutating func replace(_ value: Value, for key: Key, cost: Int = 0) -> (replaced: Value?, evicted: [Value]) {
        if let index = index(of: key) {
            let replaced = nodes[index].value
            totalCost += cost - nodes[index].cost
            nodes[index].value = value
            nodes[index].cost = cost
            promote(index)
            return (replaced, totalCost > costLimit ? evictOverLimit() : [])
        }
        let node = Node(key: key, value: value, cost: cost, older: newest, newer: -1)
        let index: Int
        if let reused = free.popLast() {
            nodes[reused] = node
            index = reused
        } else {
            nodes.append(node)
            index = nodes.count - 1
        }
        if newest >= 0 { nodes[newest].newer = index }
        newest = index
        if oldest < 0 { oldest = index }
        slots[key] = index
        totalCost += cost
        return (nil, slots.count > capacity || totalCost > costLimit ? evictOverLimit() : [])
    }

    /// Evicts the least recently used entries until the count and the costs are within their
    /// limits (the newest stays), handing them back.
    private mutating func evictOverLimit() -> [Value] {
        var gone: [Value] = []
        while slots.count > 1, slots.count > capacity || totalCost > costLimit {
            gone.append(nodes[oldest].value)
            removeValue(forKey: nodes[oldest].key)
        }
        return gone
    }

    /// Forgets `key`.
    mutating func removeValue(forKey key: Key) {
        guard let index = slots.removeValue(forKey: key) else { return }
        totalCost -= nodes[index].cost
        unlink(index)
        free.append(index)
    }

    /// Forgets everything.
    mutating func removeAll() {
        slots.removeAll()
        nodes.removeAll()
        free.removeAll()
        newest = -1
        oldest = -1
        totalCost = 0
    }

    private mutating func promote(_ index: Int) {
        guard index != newest else { return }
        unlink(index)
        nodes[index].older = newest
        nodes[index].newer = -1
        if newest >= 0 { nodes[newest].newer = index }
        newest = index
        if oldest < 0 { oldest = index }
    }

    private mutating func unlink(_ index: Int) {
        let (older, newer) = (nodes[index].older, nodes[index].newer)
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
    }
}
