import ParleyPostgres

/// One change as a `session_log` row and what commits with it, in the text form the batch
/// statement takes as arrays (``SessionAppender``): every field a string, "" for none.
struct SessionAppend: Sendable {
    /// The session's key: written as hex into the batch's parameters and notifications, in place
    /// (a `String` of its 64 digits was an allocation an answer).
    let key: SessionKey
    /// The rev this change takes: the guard.
    let rev: Int
    let month: Int
    let kind: String
    let step: String
    /// Canonical JSON of the (sealed) answers as UTF-8, empty for none: kept as the bytes they are
    /// written into, where a `String` of them was one more allocation and copy an answer.
    let answers: [UInt8]
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
    var change: String { key.hex + ":" + String(rev) }

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
    /// statement reads as "none". One buffer for them all, sized first (``bound``) and written
    /// in one pass (``PostgresTextColumns``).
    static func binds(_ appends: [SessionAppend]) -> (Groups, [PostgresBind]) {
        var groups: Groups = []
        var capacity = 20 * 23
        for index in appends.indices {
            if appends[index].completion != nil { groups.insert(.completion) }
            if appends[index].idempotency != nil { groups.insert(.idempotency) }
            if appends[index].start != nil { groups.insert(.start) }
            capacity += appends[index].bound
        }
        let columns =
            11 + (groups.contains(.completion) ? 3 : 0) + (groups.contains(.idempotency) ? 4 : 0)
            + (groups.contains(.start) ? 5 : 0)
        let binds = PostgresTextColumns.binds(capacity: capacity, columns: columns) { arrays in
            appends.withUnsafeBufferPointer { write($0, groups: groups, into: &arrays) }
        }
        return (groups, binds)
    }

    /// ``binds(_:)``'s columns of `appends`. Each column reads its field where the row lies
    /// (`appends[$1].rev`): iterating the appends by value once per column copied a whole
    /// `SessionAppend` (a dozen references) eleven times an answer, and through the array each
    /// read was checked against its bounds and retained what it read.
    private static func write(
        _ appends: UnsafeBufferPointer<SessionAppend>, groups: Groups, into arrays: inout PostgresTextColumns.Writer
    ) {
        func column(_ write: (inout PostgresTextColumns.Writer, Int) -> Void) {
            arrays.startColumn()
            for index in appends.indices { write(&arrays, index) }
        }
        column { arrays, index in appends[index].key.withHex { arrays.append(utf8: $0) } }
        column { $0.append(appends[$1].rev) }
        column { $0.append(appends[$1].month) }
        column { $0.append(appends[$1].kind) }
        column { $0.append(appends[$1].step) }
        column { arrays, index in appends[index].answers.withUnsafeBytes { arrays.append(utf8: $0) } }
        column { $0.append(appends[$1].outcome) }
        column { $0.append(appends[$1].nextStep) }
        column { $0.append(appends[$1].core) }
        column { $0.append(seconds: appends[$1].expiresAt) }
        column { $0.append(appends[$1].depth) }
        if groups.contains(.completion) {
            column { $0.append(appends[$1].completion?.sessionPath ?? "") }
            column { $0.append(appends[$1].completion?.path ?? "") }
            column { $0.append(appends[$1].completion?.answers ?? "") }
        }
        if groups.contains(.idempotency) {
            column { $0.append(appends[$1].idempotency?.key ?? "") }
            column { $0.append(appends[$1].idempotency?.requestHashHex ?? "") }
            column { if let status = appends[$1].idempotency?.status { $0.append(status) } else { $0.append("") } }
            column { $0.append(appends[$1].idempotency?.responseHex ?? "") }
        }
        if groups.contains(.start) {
            column { $0.append(appends[$1].start?.flowId ?? "") }
            column { if let version = appends[$1].start?.version { $0.append(version) } else { $0.append("") } }
            column { $0.append(appends[$1].start?.channel ?? "") }
            column { $0.append(appends[$1].start?.locale ?? "") }
            column {
                if let createdAt = appends[$1].start?.createdAt {
                    $0.append(seconds: createdAt)
                } else {
                    $0.append("")
                }
            }
        }
    }

    /// At most how many bytes this change's elements take in ``binds(_:)``'s buffer: each of its
    /// (up to) 23 elements' 4-byte length, its texts' bytes, and 32 for each number or instant.
    var bound: Int {
        var bytes = 23 * 4 + 7 * 32
        bytes += 2 * SessionKey.byteCount + kind.utf8.count + step.utf8.count + answers.count
        bytes += outcome.utf8.count + nextStep.utf8.count + core.utf8.count
        if let completion {
            bytes += completion.sessionPath.utf8.count + completion.path.utf8.count + completion.answers.utf8.count
        }
        if let idempotency {
            bytes += idempotency.key.utf8.count + idempotency.requestHashHex.utf8.count
            bytes += idempotency.responseHex.utf8.count
        }
        if let start { bytes += start.flowId.utf8.count + start.channel.utf8.count + start.locale.utf8.count }
        return bytes
    }
}
