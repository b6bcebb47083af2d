public import Logging
public import ParleyCore
public import ParleyPostgres

/// What support staff see of one session (`parley session show ID`): the snapshot a client
/// would get now and the whole append-only log.
public struct SessionInspector: Sendable {
    private let ledger: SessionLedger

    /// An inspector on the service's database; `keyring` opens sensitive answers.
    public init(pool: PostgresPool, keyring: DataKeyring, logger: Logger) {
        var configuration = ServiceConfiguration()
        configuration.dataKeyring = keyring
        ledger =
            ServiceParts(configuration: configuration, pool: pool, metrics: MetricsRegistry(), logger: logger)
            .ledger
    }

    /// What a masked sensitive answer shows.
    static let masked = JSONValue.string("[sensitive]")

    /// `{"snapshot": {…}, "log": [{rev, kind, step, answers?, next?}…]}`, or `nil` for an unknown id.
    /// An expired session still shows (its snapshot says `"status": "expired"`). Sensitive answers
    /// are masked unless `reveal`; a sealed answer that does not open throws, never prints.
    public func show(_ id: String, reveal: Bool = false) async throws -> JSONValue? {
        let sessionId = SessionID(id)
        guard let record = try await ledger.sessions.load(sessionId) else { return nil }
        let version = try await ledger.pinnedVersion(record)
        let hidden = reveal ? [] : version.sensitiveFields
        func mask(_ answers: JSONValue) -> JSONValue {
            guard case .object(var object) = answers else { return answers }
            for field in hidden where object[field] != nil { object[field] = Self.masked }
            return .object(object)
        }
        let snapshot = try ledger.snapshot(of: record, in: version)
        var log: [JSONValue] = []
        for row in try await ledger.sessions.log(sessionId) {
            var entry = JSONObject()
            entry["rev"] = .number(JSONNumber(row.rev))
            entry["kind"] = .string(row.kind)
            entry["step"] = .string(row.step)
            if let answers = row.answers { entry["answers"] = mask(answers.json) }
            if let next = row.nextStep { entry["next"] = .string(next) }
            log.append(.object(entry))
        }
        guard case .object(var shown) = try JSONParser.parse(snapshot.body) else { return nil }
        shown["values"] = shown["values"].map(mask)
        return ["snapshot": .object(shown), "log": .array(log)]
    }
}
