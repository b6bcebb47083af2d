/// A bounded dictionary that evicts the least recently used entry when full, so a cache at
/// its limit loses one cold entry per insertion instead of emptying at once (no latency
/// cliff). Reads count as use. Not synchronised: callers keep it behind their own lock.
struct LRUDictionary<Key: Hashable, Value> {
    private struct Node {
        var key: Key
        var value: Value
        var older: Int
        var newer: Int
    }

    /// The most entries kept (at least one).
    let capacity: Int
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var free: [Int] = []
    private var newest = -1
    private var oldest = -1

    /// An empty dictionary holding at most `capacity` entries.
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Entries held.
    var count: Int { slots.count }

    /// The value for `key`, now the most recently used; nil when absent.
    mutating func value(for key: Key) -> Value? {
        guard let index = slots[key] else { return nil }
        promote(index)
        return nodes[index].value
    }

    /// The value for `key` without counting it as a use.
    func peek(_ key: Key) -> Value? { slots[key].map { nodes[$0].value } }

    /// Stores `value` as the most recently used, evicting the least recently used when full.
    mutating func set(_ value: Value, for key: Key) {
        _ = update(value, for: key)
    }

    /// ``set(_:for:)`` that hands back the value it evicted (or replaced), so a caller holding a
    /// lock can let it go, and pay for its deallocation, after unlocking.
    mutating func update(_ value: Value, for key: Key) -> Value? {
        if let index = slots[key] {
            let replaced = nodes[index].value
            nodes[index].value = value
            promote(index)
            return replaced
        }
        var evicted: Value?
        if slots.count >= capacity, oldest >= 0 {
            evicted = nodes[oldest].value
            removeValue(forKey: nodes[oldest].key)
        }
        let node = Node(key: key, value: value, older: newest, newer: -1)
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
        return evicted
    }

    /// Forgets `key`.
    mutating func removeValue(forKey key: Key) {
        guard let index = slots.removeValue(forKey: key) else { return }
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
