import ParleyCrypto
import ParleyHTTP

/// Checks `Authorization: Bearer` tokens and the optional client key
/// (DESIGN.md "HTTP API"; 401 for a missing or unknown token, 403 for a
/// token whose scope does not allow the call). Tokens never reach the logs.
struct Authenticator: Sendable {
    let access: AccessStore
    let clientKey: String?

    /// Client endpoints: open, unless a client key is configured (checked in constant time).
    func checkClient(_ request: HTTPRequest) throws(HTTPError) -> Caller {
        guard let clientKey else { return .client }
        guard let given = request.headers["Parley-Client-Key"] else {
            throw ServiceProblem.unauthorized("send the Parley-Client-Key header")
        }
        guard ConstantTime.equals(Array(given.utf8), Array(clientKey.utf8)) else {
            throw ServiceProblem.unauthorized("the Parley-Client-Key is not valid")
        }
        return .client
    }

    /// Token endpoints: a valid bearer token, whose scope grants `required` when given.
    func checkToken(_ request: HTTPRequest, required: AccessScope?) async throws -> Caller {
        let values = request.headers.values(for: "Authorization")
        guard let header = values.first else {
            throw ServiceProblem.unauthorized("send Authorization: Bearer <token>")
        }
        guard values.count == 1 else { throw ServiceProblem.unauthorized("send one Authorization header") }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer", parts[1].utf8.count <= 256 else {
            throw ServiceProblem.unauthorized("the Authorization header must be \"Bearer <token>\"")
        }
        guard let identity = try await access.identity(forToken: String(parts[1])) else {
            throw ServiceProblem.unauthorized("the token is unknown or revoked")
        }
        if let required, !identity.scopes.contains(where: { $0.grants(required) }) {
            throw ServiceProblem.forbidden(
                "this call needs the \(required.rawValue) scope; the token \"\(identity.name)\" has "
                    + (identity.scopes.isEmpty ? "none" : identity.scopes.map(\.rawValue).joined(separator: ", ")))
        }
        return Caller(name: identity.name, scopes: identity.scopes)
    }
}
