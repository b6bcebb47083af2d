/// The statements one connection has prepared (issue 15, "Writes"): a statement the connection
/// has run before is sent as `Bind`/`Execute` of a named statement, so Postgres parses, analyses
/// and (once its generic plan settles) plans it once per connection instead of every time. For
/// a session change (a data-modifying CTE whose webhook part inlines SQL functions) that work
/// cost Postgres several times what running it does.
///
/// Prepared statements live as long as the connection (a `Parse` is not undone by a rollback);
/// one whose `Parse` failed or was skipped, or that Postgres no longer runs, is forgotten and
/// prepared again under a new name the next time.
struct PreparedStatements {
    /// A statement's text and its parameters' types: the same text bound with other types is
    /// another statement.
    struct Key: Hashable {
        let sql: String
        let types: ParameterTypes

        /// Hashes the text's length and its first and last bytes, not all of it: a session
        /// change is about 2 KB of SQL looked up several times per answer, and hashing all of
        /// it cost more than the lookup saves. Equal keys still compare the whole text.
        /// The types go in as one word (``ParameterTypes/mixed``).
        func hash(into hasher: inout Hasher) {
            hasher.combine(types.mixed)
            var text = sql  // native strings are contiguous already: no copy
            text.withUTF8 { bytes in
                let raw = UnsafeRawBufferPointer(bytes)
                hasher.combine(raw.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(Self.sampled)))
                if raw.count > Self.sampled {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.suffix(Self.sampled)))
                }
            }
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.types == rhs.types && lhs.sql == rhs.sql
        }

        /// Bytes hashed at each end of the text: the few statements a process runs differ in
        /// their length or their first or last words already (a collision costs one text compare).
        private static let sampled = 16
    }

    /// A statement's parameter types, without an array when they are all one type (every batch
    /// statement's are `text[]`, and most others have one or none): the key of every statement
    /// sent built a `[UInt32]` of them (~400 instructions a statement, a malloc and a free).
    enum ParameterTypes: Hashable {
        /// `count` parameters, each of type `oid` (none when `count` is 0).
        case uniform(oid: UInt32, count: Int)
        /// Parameters of several types, in order (never all one type: that is ``uniform(oid:count:)``,
        /// so equal lists are equal values).
        case several([UInt32])

        /// The types of `binds`.
        init(_ binds: [PostgresBind]) {
            guard let first = binds.first?.typeOID else {
                self = .uniform(oid: 0, count: 0)
                return
            }
            guard binds.contains(where: { $0.typeOID != first }) else {
                self = .uniform(oid: first, count: binds.count)
                return
            }
            self = .several(binds.map(\.typeOID))
        }

        /// Their count and a multiplicative mix of the OIDs, as one word: combined one by one, a
        /// batch's dozen parameters cost more than the text's samples.
        var mixed: UInt64 {
            switch self {
            case .uniform(let oid, let count):
                var mixed = UInt64(count)
                for _ in 0..<count { mixed = (mixed &* 0x100_0000_01B3) ^ UInt64(oid) }
                return mixed
            case .several(let types):
                var mixed = UInt64(types.count)
                for type in types { mixed = (mixed &* 0x100_0000_01B3) ^ UInt64(type) }
                return mixed
            }
        }
    }

    /// One item sent in a round trip, in order: a prepared statement named by its number (a
    /// word, where a ``Key`` held the text and the types, copied into and out of every pipeline).
    enum Sent {
        /// A `Parse` of prepared statement number `n`; its result is not the caller's.
        case prepare(Int)
        /// A caller's statement: the number of the prepared statement it ran as, nil when it ran
        /// unnamed.
        case statement(Int?)
    }

    /// How to send one statement.
    struct Plan {
        /// The prepared statement's number (``Sent``); nil to run it unnamed.
        let number: Int?
        /// The prepared statement's name; nil to run it unnamed.
        let name: String?
        /// `Parse` it under `name` first.
        let prepare: Bool
    }

    /// A prepared statement: its number and its name (`parley_<number>`, a small string kept
    /// inline: no allocation to copy).
    struct Prepared {
        let number: Int
        let name: String
    }

    private var names: [Key: Prepared] = [:]
    private var issued = 0
    /// The statements planned last, newest first (at most ``recentCount``): a connection runs the
    /// same few statements batch after batch (a session batch and its notify), found here by
    /// comparing texts, which takes a word when they are the same string (the statement texts are
    /// built once), without hashing their samples and types for the table (~1,100 instructions a
    /// statement with the table alone).
    private var recent: [(key: Key, prepared: Prepared)] = []

    /// How many statements ``recent`` keeps.
    private static let recentCount = 4

    /// How to send `query`: as the statement prepared for it, or prepared now when fewer than
    /// `limit` are, else unnamed. A new name is recorded at once: the caller sends its `Parse`.
    mutating func plan(_ query: PostgresQuery, limit: Int) -> Plan {
        guard limit > 0 else { return Plan(number: nil, name: nil, prepare: false) }
        let key = Key(sql: query.sql, types: ParameterTypes(query.binds))
        if let index = recent.firstIndex(where: { $0.key == key }) {
            let prepared = recent[index].prepared
            // One place forward, not to the front: a batch and its notify alternate, and moving
            // each to the front on every use shifted the list twice a batch.
            if index > 1 { recent.swapAt(index, index - 1) }
            return Plan(number: prepared.number, name: prepared.name, prepare: false)
        }
        if let prepared = names[key] {
            remember(key, prepared)
            return Plan(number: prepared.number, name: prepared.name, prepare: false)
        }
        guard names.count < limit else { return Plan(number: nil, name: nil, prepare: false) }
        issued += 1
        let prepared = Prepared(number: issued, name: "parley_\(issued)")
        names[key] = prepared
        remember(key, prepared)
        return Plan(number: prepared.number, name: prepared.name, prepare: true)
    }

    /// Puts a statement first in ``recent``, the last one dropped when it is full (used ones move
    /// one place forward, past the first two). A newcomer put last instead, in place of the last one,
    /// made a batch and its notify take turns in that place, and neither was ever found there.
    private mutating func remember(_ key: Key, _ prepared: Prepared) {
        if recent.isEmpty { recent.reserveCapacity(Self.recentCount + 1) }
        recent.insert((key, prepared), at: 0)
        if recent.count > Self.recentCount { recent.removeLast() }
    }

    /// Forgets prepared statement number `number`, whose `Parse` failed or that no longer runs:
    /// rare, so a search of the few statements a connection holds (``PostgresConfiguration/maximumPreparedStatements``).
    mutating func forget(_ number: Int) {
        recent.removeAll { $0.prepared.number == number }
        guard let index = names.firstIndex(where: { $0.value.number == number }) else { return }
        names.remove(at: index)
    }

    /// Whether `error` means the prepared statement itself is unusable: gone from the server
    /// (26000, e.g. a pooler moved us to another server connection) or outdated by a schema
    /// change ("cached plan must not change result type", 0A000).
    static func isGone(_ error: PostgresError) -> Bool {
        error.sqlState == "26000" || error.sqlState == "0A000"
    }
}
