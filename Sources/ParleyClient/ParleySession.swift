public import ParleyCore

/// One user's walk through a flow, held by the server (docs/sessions.md),
/// as an app drives it: start or resume, show ``snapshot``, check answers
/// locally with the same interpreter the server runs, submit, go back.
///
/// Local checks run `RuleInterpreter(mode: .client)` on the gated screen with
/// the answers this session gave on earlier steps as context; a rule naming a
/// field this device never saw (after a resume) is left to the server, like
/// a deferred rule. Submits carry `rev` and an `Idempotency-Key` reused by
/// every retry, so a retried answer is applied at most once. Snapshots whose
/// `rev` is not above the shown one are dropped. Every call honours task
/// cancellation.
public actor ParleySession {
    /// The session id: a bearer capability, never log it.
    public nonisolated let id: String
    /// The newest snapshot seen.
    public private(set) var snapshot: ParleySnapshot
    let endpoint: ParleyEndpoint
    /// Answers this session had accepted on steps of its path, for rules naming earlier fields.
    private var context = Answers()
    private var contextByStep: [(step: String, fields: [String])] = []

    private init(_ snapshot: ParleySnapshot, endpoint: ParleyEndpoint) {
        id = snapshot.session
        self.snapshot = snapshot
        self.endpoint = endpoint
    }

    /// Starts a session on the channel's live version of `flow` (`POST /v1/sessions`).
    public static func start(flow: String, channel: String? = nil, endpoint: ParleyEndpoint) async throws
        -> ParleySession
    {
        var body = JSONObject()
        body["flow"] = .string(flow)
        if let channel { body["channel"] = .string(channel) }
        let response = try await endpoint.exchange(Self.post("/v1/sessions", .object(body), key: nil))
        guard response.status == 201 || response.status == 200 else { throw Self.failure(response) }
        return ParleySession(try Self.snapshot(response), endpoint: endpoint)
    }

    /// Resumes a session by id (`GET /v1/sessions/{id}`), e.g. after the app restarted.
    public static func resume(id: String, endpoint: ParleyEndpoint) async throws -> ParleySession {
        let response = try await endpoint.exchange(ParleyRequest(method: "GET", path: "/v1/sessions/\(id)"))
        guard response.status == 200 else { throw Self.failure(response) }
        return ParleySession(try Self.snapshot(response), endpoint: endpoint)
    }

    /// The interpreter's verdict on `answers` for the current step, computed here, sending nothing.
    public func check(_ answers: Answers) -> ValidationOutcome {
        var all = context
        for field in answers.fieldIds { all[field] = answers[field] }
        let screen = LocalScreen.checkable(snapshot.screen, knowing: all)
        // This step's answers, with the earlier steps' as context: exactly how the server validates.
        return RuleInterpreter(mode: .client).validate(screen: screen, answers: answers, context: context)
    }

    /// Checks `answers` locally, then sends them for the current step (`POST …/answers`).
    public func submit(_ answers: Answers) async throws -> AnswerOutcome {
        let local = check(answers)
        if !local.valid { return .invalidLocally(local.errors) }
        let shown = snapshot
        let body: JSONValue = [
            "rev": .number(JSONNumber(shown.rev)), "step": .string(shown.step), "answers": answers.json,
        ]
        let response = try await endpoint.exchange(Self.post("/v1/sessions/\(id)/answers", body, key: Self.newKey()))
        switch response.status {
        case 200:
            let next = try Self.snapshot(response)
            if accept(next) { remember(answers, for: shown.step) }
            return .accepted(snapshot)
        case 422:
            let problem = ProblemDocument(response)
            guard problem?.type == "urn:parley:problem:invalid-answers" else { throw Self.failure(response) }
            let errors = (problem?.json["errors"]?.arrayValue ?? []).compactMap(Self.validationError)
            return .invalidOnServer(errors)
        case 409:
            guard let json = ProblemDocument(response)?.json["snapshot"] else { throw Self.failure(response) }
            accept(try ParleySnapshot(json: json))
            return .superseded(snapshot)
        default:
            throw Self.failure(response)
        }
    }

    /// Goes back to the previous step of the path (`POST …/back`); its answers come back as `values`.
    public func back() async throws -> ParleySnapshot {
        let body: JSONValue = ["rev": .number(JSONNumber(snapshot.rev))]
        let response = try await endpoint.exchange(Self.post("/v1/sessions/\(id)/back", body, key: Self.newKey()))
        switch response.status {
        case 200:
            accept(try Self.snapshot(response))
        case 409:
            guard let json = ProblemDocument(response)?.json["snapshot"] else { throw Self.failure(response) }
            accept(try ParleySnapshot(json: json))
        default:
            throw Self.failure(response)
        }
        return snapshot
    }

    /// Fetches the current snapshot (`GET /v1/sessions/{id}`, 304 when nothing changed).
    public func refresh() async throws -> ParleySnapshot {
        let request = ParleyRequest(
            method: "GET", path: "/v1/sessions/\(id)", headers: ["If-None-Match": "\"\(snapshot.rev)\""])
        let response = try await endpoint.exchange(request)
        if response.status == 304 { return snapshot }
        guard response.status == 200 else { throw Self.failure(response) }
        accept(try Self.snapshot(response))
        return snapshot
    }

    /// Shows `candidate` when its rev is above the shown one; returns whether it did.
    @discardableResult
    public func accept(_ candidate: ParleySnapshot) -> Bool {
        guard candidate.session == id, candidate.rev > snapshot.rev else { return false }
        snapshot = candidate
        // Steps that left the path (going back, another branch) no longer give context.
        contextByStep.removeAll { entry in
            guard !candidate.path.contains(entry.step) else { return false }
            for field in entry.fields { context[field] = nil }
            return true
        }
        return true
    }

    private func remember(_ answers: Answers, for step: String) {
        contextByStep.removeAll { $0.step == step }
        contextByStep.append((step, answers.fieldIds))
        for field in answers.fieldIds { context[field] = answers[field] }
    }

    private static func post(_ path: String, _ body: JSONValue, key: String?) -> ParleyRequest {
        var headers = ["Content-Type": "application/json"]
        if let key { headers["Idempotency-Key"] = key }
        return ParleyRequest(method: "POST", path: path, headers: headers, body: CanonicalJSON.encode(body))
    }

    /// 128 random bits as hex: one key per logical request, reused by its retries.
    private static func newKey() -> String {
        let high = UInt64.random(in: .min ... .max)
        let low = UInt64.random(in: .min ... .max)
        return String(high, radix: 16) + "-" + String(low, radix: 16)
    }

    private static func snapshot(_ response: ParleyResponse) throws -> ParleySnapshot {
        do {
            return try ParleySnapshot(json: try JSONParser.parse(response.body))
        } catch let error as ParleyClientError {
            throw error
        } catch {
            throw ParleyClientError.invalidResponse("the snapshot is not JSON")
        }
    }

    private static func validationError(_ json: JSONValue) -> ValidationError? {
        guard let field = json["field"]?.stringValue, let rule = json["rule"]?.stringValue else { return nil }
        return ValidationError(field: field, rule: rule, message: json["message"]?.stringValue ?? "")
    }

    static func failure(_ response: ParleyResponse) -> ParleyClientError {
        let problem = ProblemDocument(response)
        let kind: ParleyClientError.Kind = response.status == 410 ? .expired : .problem
        return ParleyClientError(
            kind, status: response.status, problemType: problem?.type,
            "the service answered \(response.status)" + (problem.map { ": \($0.detail)" } ?? ""))
    }
}
