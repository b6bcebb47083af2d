import Foundation
public import ParleyCrypto
public import ParleyPostgres

/// API tokens (only their SHA-256 is stored) and trusted bundle-signing keys.
public struct AccessStore: Sendable {
    /// The pool every query runs on.
    public let pool: PostgresPool

    /// Creates a store on a pool.
    public init(pool: PostgresPool) { self.pool = pool }

    /// A token's identity once authenticated.
    public struct TokenIdentity: Sendable, Equatable {
        /// The token's name (used as the author of what it stores).
        public let name: String
        /// Its scopes.
        public let scopes: [AccessScope]
    }

    /// Creates a token and returns its secret, which is shown once and never stored.
    public func createToken(name: String, scopes: [AccessScope]) async throws -> String {
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let token = "pt_" + Hex.encode(secret)
        let hash = Data(SHA256.hash(token))
        try await pool.query(
            "INSERT INTO api_tokens (name, token_sha256, scopes) VALUES (\(name), \(hash), \(scopes.map(\.rawValue)))")
        return token
    }

    /// The identity of an active token, or `nil`.
    ///
    /// The row is found by the token's SHA-256; the stored hash is compared
    /// again in constant time so the check never depends on an index's timing.
    public func identity(forToken token: String) async throws -> TokenIdentity? {
        let hash = SHA256.hash(token)
        let rows = try await pool.query(
            "SELECT name, token_sha256, scopes FROM api_tokens WHERE token_sha256 = \(Data(hash)) AND revoked_at IS NULL"
        )
        guard let row = rows.first else { return nil }
        let stored: Data = try row.decode(column: "token_sha256")
        guard ConstantTime.equals([UInt8](stored), hash) else { return nil }
        let scopes: [String] = try row.decode(column: "scopes")
        return TokenIdentity(name: try row.decode(column: "name"), scopes: scopes.compactMap(AccessScope.init))
    }

    /// Revokes the active token with this name; `false` when there is none.
    public func revokeToken(name: String) async throws -> Bool {
        let rows = try await pool.query(
            "UPDATE api_tokens SET revoked_at = now() WHERE name = \(name) AND revoked_at IS NULL RETURNING id")
        return !rows.isEmpty
    }

    /// Whether an active token with this name exists.
    public func hasToken(name: String) async throws -> Bool {
        !(try await pool.query("SELECT 1 FROM api_tokens WHERE name = \(name) AND revoked_at IS NULL")).isEmpty
    }

    /// Trusts an Ed25519 public key under `keyId`. Adding the same key again is a
    /// no-op; a different key under a taken id, or this key under another id, is refused.
    public func addSigningKey(keyId: String, publicKey: Ed25519PublicKey) async throws -> Bool {
        let raw = Data(publicKey.rawRepresentation)
        let rows: PostgresRows
        do {
            rows = try await pool.query(
                """
                INSERT INTO signing_keys (key_id, public_key) VALUES (\(keyId), \(raw))
                ON CONFLICT (key_id) DO NOTHING RETURNING key_id
                """)
        } catch let error as PostgresError where error.kind == .uniqueViolation {
            return false  // the same public key is trusted under another id
        }
        if !rows.isEmpty { return true }
        return try await signingKey(keyId: keyId)?.rawRepresentation == publicKey.rawRepresentation
    }

    /// The trusted, unrevoked key for `keyId`, or `nil`.
    public func signingKey(keyId: String) async throws -> Ed25519PublicKey? {
        let rows = try await pool.query(
            "SELECT public_key FROM signing_keys WHERE key_id = \(keyId) AND revoked_at IS NULL")
        guard let row = rows.first else { return nil }
        let raw: Data = try row.decode(at: 0)
        return try Ed25519PublicKey(rawRepresentation: [UInt8](raw))
    }
}
