public import Logging
public import ParleyCore
public import ParleyPostgres

/// What support staff see of one session (`parley session show ID`): the snapshot a client
/// would get now and the whole append-only log.
public struct SessionInspector: Sendable {
    private let handlers: Handlers

    /// An inspector on the service's database.
    public init(pool: PostgresPool, logger: Logger) {
        handlers = Handlers(
            context: ServiceContext(
                configuration: ServiceConfiguration(), pool: pool, metrics: MetricsRegistry(), logger: logger))
    }

    /// `{"snapshot": {…}, "log": [{rev, kind, step, answers?, next?}…]}`, or `nil` for an unknown id.
    /// An expired session still shows (its snapshot says `"status": "expired"`).
    public func show(_ id: String) async throws -> JSONValue? {
        let sessionId = SessionID(id)
        guard let record = try await handlers.context.sessions.load(sessionId) else { return nil }
        let snapshot = try await handlers.snapshot(of: record)
        var log: [JSONValue] = []
        for row in try await handlers.context.sessions.log(sessionId) {
            var entry = JSONObject()
            entry["rev"] = .number(JSONNumber(row.rev))
            entry["kind"] = .string(row.kind)
            entry["step"] = .string(row.step)
            if let answers = row.answers { entry["answers"] = answers }
            if let next = row.nextStep { entry["next"] = .string(next) }
            log.append(.object(entry))
        }
        return ["snapshot": try JSONParser.parse(snapshot.body), "log": .array(log)]
    }
}
