/// What a bearer token may do (DESIGN.md "HTTP API").
public enum AccessScope: String, Sendable, CaseIterable, Comparable {
    /// Post and lint flows, read everything.
    case author
    /// Release versions and publish bundles, read everything.
    case publish
    /// Everything.
    case admin
    /// Act in sessions (`POST /v1/sessions/{id}/events`: say, goto), as a backend or a human agent does.
    case agent

    /// Whether a token with this scope may call a route that needs `required`.
    public func grants(_ required: AccessScope) -> Bool {
        self == .admin || self == required
    }

    public static func < (lhs: AccessScope, rhs: AccessScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
