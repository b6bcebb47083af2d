/// Who is calling, once authenticated.
struct Caller: Sendable {
    /// Token name, or `client` / `anonymous`.
    let name: String
    /// Scopes of the token; empty for clients.
    let scopes: [AccessScope]
}
