import ParleyPostgres

/// One change as a `session_log` row and what commits with it, in the text form the batch
/// statement takes as arrays (``SessionAppender``): every field a string, "" for none.
struct SessionAppend: Sendable {
    /// The session's key, hex.
    let keyHex: String
    /// The rev this change takes: the guard.
    let rev: Int
    let month: Int
    let kind: String
    let step: String
    /// Canonical JSON of the (sealed) answers, "" for none.
    let answers: String
    let outcome: String
    let nextStep: String
    let core: String
    /// The idle expiry after the change, seconds since 1970.
    let expiresAt: Double
    /// The path's length after the change.
    let depth: Int
    /// For a completing change: the session row's final path (step ids), the completion's path
    /// and (sealed) answers as canonical JSON; "" otherwise.
    var completion: (sessionPath: String, path: String, answers: String)?
    /// `Idempotency-Key` record: key, request hash (hex), status, response (hex).
    var idempotency: (key: String, requestHashHex: String, status: Int, responseHex: String)?
    /// For a `start`: the new `sessions` row's flow, version, channel, locale ("" for none) and
    /// start instant (seconds since 1970, whole milliseconds, the month's source).
    var start: (flowId: String, version: Int, channel: String, locale: String, createdAt: Double)?

    /// `"<hex key>:<rev>"`, as `parley_sessions` notifications name a change.
    var change: String { keyHex + ":" + String(rev) }

    /// The column groups beyond the log row's that a batch's changes use: each one present adds
    /// its arrays to the batch statement and the parts that write them (``SessionAppender``).
    struct Groups: OptionSet {
        let rawValue: Int

        /// A completing change: the session's end, its completion and outbox rows (3 arrays).
        static let completion = Groups(rawValue: 1)
        /// An `Idempotency-Key` record (4 arrays).
        static let idempotency = Groups(rawValue: 2)
        /// A start: the new `sessions` row (5 arrays).
        static let start = Groups(rawValue: 4)
    }

    /// The batch statement's arrays, in its `unnest` order, written straight into their binary
    /// form: the log row's 11, then those of each group some change of the batch uses
    /// (completion, idempotency, start, in that order), which says which statement takes them.
    /// In a present group, a change without it has "" in each of its columns, which the
    /// statement reads as "none".
    static func binds(_ appends: [SessionAppend]) -> (Groups, [PostgresBind]) {
        var columns = (0..<11).map { _ in PostgresTextArray(capacity: 32 * appends.count) }
        var groups: Groups = []
        for append in appends {
            columns[0].append(append.keyHex)
            columns[1].append(append.rev)
            columns[2].append(append.month)
            columns[3].append(append.kind)
            columns[4].append(append.step)
            columns[5].append(append.answers)
            columns[6].append(append.outcome)
            columns[7].append(append.nextStep)
            columns[8].append(append.core)
            columns[9].append(seconds: append.expiresAt)
            columns[10].append(append.depth)
            if append.completion != nil { groups.insert(.completion) }
            if append.idempotency != nil { groups.insert(.idempotency) }
            if append.start != nil { groups.insert(.start) }
        }
        var binds = columns.map { $0.bind }
        if groups.contains(.completion) {
            var group = (0..<3).map { _ in PostgresTextArray() }
            for append in appends {
                group[0].append(append.completion?.sessionPath ?? "")
                group[1].append(append.completion?.path ?? "")
                group[2].append(append.completion?.answers ?? "")
            }
            binds += group.map { $0.bind }
        }
        if groups.contains(.idempotency) {
            var group = (0..<4).map { _ in PostgresTextArray() }
            for append in appends {
                group[0].append(append.idempotency?.key ?? "")
                group[1].append(append.idempotency?.requestHashHex ?? "")
                if let status = append.idempotency?.status { group[2].append(status) } else { group[2].append("") }
                group[3].append(append.idempotency?.responseHex ?? "")
            }
            binds += group.map { $0.bind }
        }
        if groups.contains(.start) {
            var group = (0..<5).map { _ in PostgresTextArray() }
            for append in appends {
                group[0].append(append.start?.flowId ?? "")
                if let version = append.start?.version { group[1].append(version) } else { group[1].append("") }
                group[2].append(append.start?.channel ?? "")
                group[3].append(append.start?.locale ?? "")
                if let createdAt = append.start?.createdAt {
                    group[4].append(seconds: createdAt)
                } else {
                    group[4].append("")
                }
            }
            binds += group.map { $0.bind }
        }
        return (groups, binds)
    }
}
