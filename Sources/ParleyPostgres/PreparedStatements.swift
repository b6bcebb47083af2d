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
        let types: [UInt32]

        /// Hashes the text's length and its first and last bytes, not all of it: a session
        /// change is about 2 KB of SQL looked up several times per answer, and hashing all of
        /// it cost more than the lookup saves. Equal keys still compare the whole text.
        /// The types go in as one word (their count and a multiplicative mix of the OIDs):
        /// combined one by one, a batch's dozen parameters cost more than the text's samples.
        func hash(into hasher: inout Hasher) {
            var mixed = UInt64(types.count)
            for type in types { mixed = (mixed &* 0x100_0000_01B3) ^ UInt64(type) }
            hasher.combine(mixed)
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

    /// One item sent in a round trip, in order.
    enum Sent {
        /// A `Parse` of the statement `Key`; its result is not the caller's.
        case prepare(Key)
        /// A caller's statement: the prepared statement it ran as, nil when it ran unnamed.
        case statement(Key?)
    }

    /// How to send one statement.
    struct Plan {
        let key: Key
        /// The prepared statement's name; nil to run it unnamed.
        let name: String?
        /// `Parse` it under `name` first.
        let prepare: Bool
    }

    private var names: [Key: String] = [:]
    private var issued = 0

    /// How to send `query`: as the statement prepared for it, or prepared now when fewer than
    /// `limit` are, else unnamed. A new name is recorded at once: the caller sends its `Parse`.
    mutating func plan(_ query: PostgresQuery, limit: Int) -> Plan {
        let key = Key(sql: query.sql, types: query.binds.map(\.typeOID))
        guard limit > 0 else { return Plan(key: key, name: nil, prepare: false) }
        if let name = names[key] { return Plan(key: key, name: name, prepare: false) }
        guard names.count < limit else { return Plan(key: key, name: nil, prepare: false) }
        issued += 1
        let name = "parley_\(issued)"
        names[key] = name
        return Plan(key: key, name: name, prepare: true)
    }

    /// Forgets a statement whose `Parse` failed or that no longer runs.
    mutating func forget(_ key: Key) {
        names.removeValue(forKey: key)
    }

    /// Whether `error` means the prepared statement itself is unusable: gone from the server
    /// (26000, e.g. a pooler moved us to another server connection) or outdated by a schema
    /// change ("cached plan must not change result type", 0A000).
    static func isGone(_ error: PostgresError) -> Bool {
        error.sqlState == "26000" || error.sqlState == "0A000"
    }
}
