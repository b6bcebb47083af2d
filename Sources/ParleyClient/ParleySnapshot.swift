public import ParleyCore

/// A session snapshot (docs/sessions.md) as typed ParleyCore values: the
/// one shape every session response carries, always the full state.
public struct ParleySnapshot: Sendable, Equatable {
    /// Where the session stands.
    public enum Status: String, Sendable {
        /// The user is walking it: the snapshot's step awaits answers.
        case active
        /// A terminal step was reached and the completion written; it takes no more answers.
        case completed
        /// Idle past the server's time to live; start a new session.
        case expired
        /// Erased on request (`DELETE /v1/sessions/{id}`): a live stream's last snapshot says so.
        case erased
    }

    /// The session id: a bearer capability, never log it.
    public let session: String
    /// The flow id.
    public let flow: String
    /// The flow version the session is pinned to.
    public let version: Int
    /// Grows by exactly 1 on every change; a snapshot whose rev is not above the shown one is stale.
    public let rev: Int
    /// Active, completed, expired or erased.
    public let status: Status
    /// The current step id.
    public let step: String
    /// The step's screen, gated for this client's core.
    public let screen: Screen
    /// `step`, `upgrade` (the flow's upgrade screen) or `builtInUpgrade`.
    public let served: String
    /// Rules gating removed from `screen`: only the server checks them.
    public let deferred: [DeferredRule]
    /// Answers already given for this step (prefill after going back).
    public let values: Answers
    /// Steps confirmed so far.
    public let path: [String]
    /// What agents said in the session, oldest first.
    public let messages: [ParleyMessage]
    /// When the idle session expires (RFC 3339).
    public let expiresAt: String

    /// Decodes a snapshot document.
    public init(json: JSONValue) throws(ParleyClientError) {
        func string(_ value: JSONValue?, _ name: String) throws(ParleyClientError) -> String {
            guard let text = value?.stringValue else { throw .invalidResponse("snapshot without \"\(name)\"") }
            return text
        }
        func integer(_ name: String) throws(ParleyClientError) -> Int {
            guard let value = json[name]?.numberValue?.intValue else {
                throw .invalidResponse("snapshot without an integer \"\(name)\"")
            }
            return value
        }
        session = try string(json["session"], "session")
        flow = try string(json["flow"], "flow")
        version = try integer("version")
        rev = try integer("rev")
        guard let status = Status(rawValue: try string(json["status"], "status")) else {
            throw .invalidResponse("snapshot with an unknown status")
        }
        self.status = status
        step = try string(json["step"], "step")
        let gated = json["screen"] ?? .null
        served = try string(gated["served"], "screen.served")
        do {
            screen = try Screen(json: gated["screen"] ?? .null, at: .root, requireSchema: false)
            values = try Answers(json["values"] ?? [:])
        } catch {
            throw .invalidResponse("snapshot screen or values: \(error)")
        }
        deferred = (gated["deferred"]?.arrayValue ?? []).compactMap { entry in
            guard let field = entry["field"]?.stringValue, let rule = entry["rule"]?.stringValue else { return nil }
            return DeferredRule(field: field, rule: rule)
        }
        path = (json["path"]?.arrayValue ?? []).compactMap(\.stringValue)
        messages = (json["messages"]?.arrayValue ?? []).compactMap(ParleyMessage.init(json:))
        expiresAt = json["expiresAt"]?.stringValue ?? ""
    }
}
