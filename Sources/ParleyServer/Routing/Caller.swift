/// Who is calling, once authenticated.
struct Caller: Sendable {
    /// Token name, or `client` / `anonymous`.
    let name: String
    /// Scopes of the token; empty for clients.
    let scopes: [AccessScope]

    /// Nobody identified: open routes, and every route before authentication has run.
    static let anonymous = Caller(name: "anonymous", scopes: [])
    /// A client core calling a client route.
    static let client = Caller(name: "client", scopes: [])
}
