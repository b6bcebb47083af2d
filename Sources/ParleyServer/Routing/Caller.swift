/// Who is calling, once authenticated. A class: the request context carrying it is copied down
/// the middleware chain, and a name and a scope list cost two reference counts per copy.
final class Caller: Sendable {
    /// Token name, or `client` / `anonymous`.
    let name: String
    /// Scopes of the token; empty for clients.
    let scopes: [AccessScope]

    init(name: String, scopes: [AccessScope]) {
        self.name = name
        self.scopes = scopes
    }

    /// Nobody identified: open routes, and every route before authentication has run.
    static let anonymous = Caller(name: "anonymous", scopes: [])
    /// A client core calling a client route.
    static let client = Caller(name: "client", scopes: [])
}
