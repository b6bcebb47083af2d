extension Answers {
    /// One member of an answers object where a reader found it in a document's bytes: its id's
    /// UTF-8 and its value's, nil for `null`. Valid only as long as those bytes are.
    public struct FoundMember {
        /// The member's name: the field id.
        public var id: UnsafeBufferPointer<UInt8>
        /// The answer; nil for `null` (an absent answer).
        public var value: UnsafeBufferPointer<UInt8>?

        /// A member found at `id` and `value`.
        public init(id: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>?) {
            self.id = id
            self.value = value
        }
    }

    /// Answers from an object's members as they stand in a request body, in any order: the same
    /// answers ``init(_:)-(JSONValue)`` makes of the object ``JSONParser`` would parse, without the object
    /// (issue 27: parsing an answer's body into a ``JSONValue`` and freeing it cost ~5,800
    /// instructions an answer). Sorted here in place, `null`s dropped, written into one storage.
    ///
    /// Nil when two members have the same id, null or not: the parser refuses such an object
    /// ("duplicate key"), so the caller parses the body in full for that error. Every id and
    /// value must be valid UTF-8 without escapes, as a `String` of it would hold: equal bytes
    /// are then equal scalars, the equality ``JSONObject`` tells duplicates by.
    public init?(members: UnsafeMutableBufferPointer<FoundMember>) {
        guard let member = members.baseAddress else {
            self.init()
            return
        }
        // Insertion sort: an answer has a handful of members, mostly sent in order already (a
        // client encoding sorted keys), which this passes over with one comparison each. A
        // member equal to one already sorted meets it before any smaller one: a duplicate is
        // always seen.
        var index = 1
        while index < members.count {
            let moving = member[index]
            var place = index
            while place > 0 {
                let order = AnswersEntries.compare(member[place - 1].id, moving.id)
                if order == 0 { return nil }
                if order < 0 { break }
                member[place] = member[place - 1]
                place -= 1
            }
            member[place] = moving
            index += 1
        }
        var count = 0
        var byteCount = 0
        for found in members {
            guard let value = found.value else { continue }
            count += 1
            byteCount += found.id.count + value.count
        }
        guard count > 0 else {
            self.init()
            return
        }
        let storage = AnswersStorage.packed(count: count, byteCount: byteCount) { write in
            for found in members {
                if let value = found.value { write(found.id, value) }
            }
        }
        self.init(storage: storage)
    }
}
