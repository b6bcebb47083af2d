/// Where a session stands (DESIGN.md "Sessions": the snapshot's `status`).
enum SessionStatus: String, Sendable {
    /// Answers are accepted.
    case active
    /// A terminal step was reached and the completion written; answers are refused (409).
    case completed
    /// Idle past its TTL; every call answers 410.
    case expired
    /// Erased on request (`DELETE /v1/sessions/{id}`): only a tombstone is left; every call answers 410.
    case erased
}
