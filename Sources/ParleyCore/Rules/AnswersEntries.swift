/// A read-only view of an ``AnswersStorage``'s entries, valid inside ``AnswersStorage/withEntries(_:)``.
struct AnswersEntries {
    /// How many entries.
    let count: Int
    /// How many bytes of ids and values.
    let byteCount: Int
    /// `ends[2 * i]`: where entry `i`'s id ends in ``bytes``; `ends[2 * i + 1]`: where its value
    /// ends (it starts where the id ends; an id starts where the previous value ends).
    let ends: UnsafePointer<UInt32>
    /// The UTF-8 of every id and value.
    let bytes: UnsafePointer<UInt8>

    /// Where entry `index`'s id starts.
    @inline(__always)
    func keyStart(_ index: Int) -> Int {
        index == 0 ? 0 : Int(ends[2 * index - 1])
    }

    /// Entry `index`'s id.
    @inline(__always)
    func key(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = keyStart(index)
        return UnsafeBufferPointer(start: bytes + start, count: Int(ends[2 * index]) - start)
    }

    /// Entry `index`'s value.
    @inline(__always)
    func value(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(ends[2 * index])
        return UnsafeBufferPointer(start: bytes + start, count: Int(ends[2 * index + 1]) - start)
    }

    /// Where the id `key` is (`found`) or belongs in scalar order, by binary search over the bytes:
    /// a step's answers are a handful and a path's a few dozen, where hashing each id (a table
    /// beside the sorted ids) cost more than the search, on every lookup of every rule.
    func position(of key: UnsafeBufferPointer<UInt8>) -> (index: Int, found: Bool) {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            let order = Self.compare(self.key(middle), key)
            if order == 0 { return (middle, true) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    /// The order of two UTF-8 strings by their bytes, which is their order by scalar values (a
    /// prefix first): negative, zero or positive. Inlined into the binary search, where a call
    /// cost as much as comparing the few bytes of a field id.
    @inline(__always)
    static func compare(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        let common = Swift.min(left.count, right.count)
        var index = 0
        // Eight bytes at a time while they are equal (ids often share a prefix).
        if common >= 8, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let leftBytes = UnsafeRawPointer(leftBase)
            let rightBytes = UnsafeRawPointer(rightBase)
            while index + 8 <= common,
                leftBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == rightBytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            {
                index += 8
            }
        }
        while index < common {
            if left[index] != right[index] { return Int(left[index]) - Int(right[index]) }
            index += 1
        }
        return left.count - right.count
    }

    /// These entries with entry `index` replaced (`replacing`) or a new one inserted before it,
    /// as `key` and `value`; or entry `index` removed when `value` is nil. One new storage of the
    /// final size; nil when no entry is left.
    func changed(
        at index: Int, replacing: Bool, key: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>?
    ) -> AnswersStorage? {
        let start = keyStart(index)
        // The bytes and the table entries the change takes out, and what it puts in.
        let oldEnd = replacing || value == nil ? Int(ends[2 * index + 1]) : start
        let removedEntries = replacing || value == nil ? 1 : 0
        let newLength = value.map { key.count + $0.count } ?? 0
        let newCount = count - removedEntries + (value == nil ? 0 : 1)
        guard newCount > 0 else { return nil }
        let newByteCount = byteCount - (oldEnd - start) + newLength
        let delta = UInt32(truncatingIfNeeded: newLength - (oldEnd - start))
        return AnswersStorage.make(count: newCount, byteCount: newByteCount) { newEnds, newBytes in
            // The table: entries before `index` as they are, the new one, those after shifted.
            newEnds.initialize(from: ends, count: 2 * index)
            var at = 2 * index
            if let value {
                newEnds[at] = UInt32(start + key.count)
                newEnds[at + 1] = UInt32(start + key.count + value.count)
                at += 2
            }
            for position in (2 * (index + removedEntries))..<(2 * count) {
                newEnds[at] = ends[position] &+ delta
                at += 1
            }
            // The bytes: before the change, the new id and value, after it.
            UnsafeMutableRawPointer(newBytes).copyMemory(from: bytes, byteCount: start)
            if let value {
                Self.copy(key, to: newBytes + start)
                Self.copy(value, to: newBytes + start + key.count)
            }
            UnsafeMutableRawPointer(newBytes + start + newLength).copyMemory(
                from: bytes + oldEnd, byteCount: byteCount - oldEnd)
        }
    }

    /// Writes `source` at `target`.
    @inline(__always)
    static func copy(_ source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        guard let from = source.baseAddress else { return }
        UnsafeMutableRawPointer(target).copyMemory(from: from, byteCount: source.count)
    }
}
