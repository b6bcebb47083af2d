/// What a bearer token may do (DESIGN.md "HTTP API").
public enum AccessScope: String, Sendable, CaseIterable, Comparable {
    /// Post and lint flows, read everything.
    case author
    /// Release versions and publish bundles, read everything.
    case publish
    /// Everything.
    case admin

    /// Whether a token with this scope may call a route that needs `required`.
    public func grants(_ required: AccessScope) -> Bool {
        self == .admin || self == required
    }

    public static func < (lhs: AccessScope, rhs: AccessScope) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
