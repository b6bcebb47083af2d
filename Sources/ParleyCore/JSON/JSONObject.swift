/// A JSON object: members kept sorted by key (scalar order), keys unique by
/// scalar equality.
///
/// Sorted storage makes canonical output free and equality order-independent.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// One `"key": value` pair.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        public static func == (lhs: Member, rhs: Member) -> Bool {
            lhs.key.isScalarEqual(to: rhs.key) && lhs.value == rhs.value
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(ScalarKey(key))
            hasher.combine(value)
        }
    }

    /// The members, sorted by key in Unicode scalar order.
    public private(set) var members: [Member] = []

    /// An empty object.
    public init() {}

    /// An object from key/value pairs; a later duplicate key replaces an earlier one.
    public init(_ pairs: [(String, JSONValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    /// Makes room for `count` members: a parsed object grows one member at a time, and an array
    /// growing from empty reallocates at its first, second and fourth element.
    public mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

    /// Number of members.
    public var count: Int { members.count }

    /// Whether the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys, in scalar order.
    public var keys: [String] { members.map { $0.key } }

    /// Reads or writes a member; assigning `nil` removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            let (index, found) = position(of: key)
            // Not a ternary: `found ? value : nil` would type `nil` as
            // `JSONValue.null` (ExpressibleByNilLiteral) and never report absence.
            guard found else { return Optional.none }
            return members[index].value
        }
        set {
            // A member after the last one (a parsed object in sorted order, a literal built in
            // order) is appended after one comparison, without the binary search.
            if let newValue, let last = members.last, last.key.scalarPrecedes(key) {
                members.append(Member(key: key, value: newValue))
                return
            }
            let (index, found) = position(of: key)
            switch (newValue, found) {
            case (let value?, true): members[index].value = value
            case (let value?, false):
                // Members mostly arrive in order (canonical JSON, sorted literals): appending skips
                // the generic `replaceSubrange` an insert goes through (~700 instructions).
                if index == members.count {
                    members.append(Member(key: key, value: value))
                } else {
                    members.insert(Member(key: key, value: value), at: index)
                }
            case (nil, true): members.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// Whether a member named `key` exists.
    public func contains(_ key: String) -> Bool { position(of: key).found }

    /// Where a new member `key` goes, nil when the object has one already: the parser checks for
    /// a duplicate before reading the value and inserts after it with this one search (a member
    /// after the last, as a sorted document's are, after one comparison).
    func insertionIndex(for key: String) -> Int? {
        guard let last = members.last else { return 0 }
        if last.key.scalarPrecedes(key) { return members.count }
        let (index, found) = position(of: key)
        return found ? nil : index
    }

    /// Inserts a member at ``insertionIndex(for:)``'s answer, nothing changed since.
    mutating func insert(_ key: String, _ value: JSONValue, at index: Int) {
        if index == members.count {
            members.append(Member(key: key, value: value))
        } else {
            members.insert(Member(key: key, value: value), at: index)
        }
    }

    /// Which of `names` are members, in the order of `names`. An expression or predicate object
    /// holds one to three members and its form is one of a dozen names: comparing each member
    /// with the names costs a fraction of a search per name.
    public func keys(among names: [String]) -> [String] {
        var found: [String] = []
        // Through pointers: iterating an array copies each member through generic code in a
        // debug build, where the suites decode and lint thousands of expressions.
        members.withUnsafeBufferPointer { members in
            names.withUnsafeBufferPointer { names in
                guard let member = members.baseAddress, let name = names.baseAddress else { return }
                let memberCount = members.count
                let nameCount = names.count
                var nameIndex = 0
                while nameIndex < nameCount {
                    var memberIndex = 0
                    while memberIndex < memberCount {
                        if member[memberIndex].key.isScalarEqual(to: name[nameIndex]) {
                            found.append(name[nameIndex])
                            break
                        }
                        memberIndex += 1
                    }
                    nameIndex += 1
                }
            }
        }
        return found
    }

    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// Binary search by UTF-8 bytes.
    private func position(of key: String) -> (index: Int, found: Bool) {
        // Through a pointer: an array subscript copies the member through generic code in a
        // debug build, and every member read of decoding and lint ends here.
        members.withUnsafeBufferPointer { members in
            guard let member = members.baseAddress else { return (0, false) }
            var low = 0
            var high = members.count
            while low < high {
                let mid = (low + high) / 2
                if member[mid].key.isScalarEqual(to: key) { return (mid, true) }
                if member[mid].key.scalarPrecedes(key) { low = mid + 1 } else { high = mid }
            }
            return (low, false)
        }
    }
}
