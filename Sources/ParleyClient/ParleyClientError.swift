/// Why a session call failed. A struct over a private kind, so kinds can be
/// added without breaking apps; `description` names no answers or session ids.
public struct ParleyClientError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case invalidRequest, invalidResponse, problem, expired, exhausted
    }

    let kind: Kind
    /// HTTP status of a problem response (0 when there was none).
    public let status: Int
    /// The problem `type` URN (e.g. `urn:parley:problem:session-expired`), when the server sent one.
    public let problemType: String?
    /// What happened.
    public let description: String

    init(_ kind: Kind, status: Int = 0, problemType: String? = nil, _ description: String) {
        self.kind = kind
        self.status = status
        self.problemType = problemType
        self.description = description
    }

    static func invalidRequest(_ detail: String) -> Self { Self(.invalidRequest, detail) }
    static func invalidResponse(_ detail: String) -> Self { Self(.invalidResponse, detail) }

    /// The session expired on the server (410): start a new one.
    public var isExpired: Bool { kind == .expired }
    /// Every retry failed (connection errors, 503s, requests in flight).
    public var isRetriesExhausted: Bool { kind == .exhausted }
}
