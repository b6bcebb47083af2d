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

    /// How many arrays the batch statement takes.
    static let columnCount = 23

    /// The batch statement's arrays, in its `unnest` order.
    static func columns(_ appends: [SessionAppend]) -> [[String]] {
        var columns = [[String]](repeating: [], count: columnCount)
        for index in columns.indices { columns[index].reserveCapacity(appends.count) }
        for append in appends {
            let fields: [String] = [
                append.keyHex, String(append.rev), String(append.month), append.kind, append.step, append.answers,
                append.outcome, append.nextStep, append.core, String(append.expiresAt), String(append.depth),
                append.completion?.sessionPath ?? "", append.completion?.path ?? "",
                append.completion?.answers ?? "", append.idempotency?.key ?? "",
                append.idempotency?.requestHashHex ?? "", append.idempotency.map { String($0.status) } ?? "",
                append.idempotency?.responseHex ?? "", append.start?.flowId ?? "",
                append.start.map { String($0.version) } ?? "", append.start?.channel ?? "",
                append.start?.locale ?? "", append.start.map { String($0.createdAt) } ?? "",
            ]
            for (index, field) in fields.enumerated() { columns[index].append(field) }
        }
        return columns
    }
}
