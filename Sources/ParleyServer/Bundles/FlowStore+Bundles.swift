import Foundation
public import ParleyCore
import ParleyCrypto
import ParleyPostgres

extension FlowStore {
    /// The outcome of applying a bundle.
    public struct BundleOutcome: Sendable {
        /// The manifest: digest, key id, channel, source and each flow's version.
        public let manifest: JSONValue
        /// Whether this digest had been applied before (nothing changed now).
        public let alreadyApplied: Bool
    }

    /// Applies a verified bundle atomically: every flow versioned and released
    /// on the bundle's channel in one transaction, or nothing. Re-applying the
    /// same digest changes nothing and returns the stored manifest.
    public func applyBundle(
        _ bundle: ParleyCore.Bundle, digest: [UInt8], keyId: String, signature: [UInt8]
    ) async throws -> BundleOutcome {
        do {
            return try await pool.withTransaction { connection in
                if let manifest = try await storedManifest(digest, connection) {
                    return BundleOutcome(manifest: manifest, alreadyApplied: true)
                }
                try await lockChannel(bundle.channel, connection)
                let digestData = Data(digest)
                let actor = "bundle:\(keyId)"
                let commit = bundle.source["commit"]?.stringValue
                try await connection.query(
                    """
                    INSERT INTO bundles (digest, channel, key_id, signature, manifest, source_commit, applied_by)
                    VALUES (\(digestData), \(bundle.channel), \(keyId), \(Data(signature)), '{}'::jsonb, \(commit),
                            \(actor))
                    """)
                var flows: [JSONValue] = []
                for flow in bundle.flows {
                    let outcome = try await storeVersion(
                        flow, author: actor, ifMatch: nil, source: "bundle", bundleDigest: digestData, on: connection)
                    let (stored, created): (StoredFlowVersion, Bool)
                    switch outcome {
                    case .created(let version): (stored, created) = (version, true)
                    case .existing(let version): (stored, created) = (version, false)
                    case .preconditionFailed: preconditionFailure("storeVersion without If-Match never fails it")
                    }
                    _ = try await release(
                        flow.id, version: stored.version, channel: bundle.channel, by: actor,
                        bundleDigest: digestData, on: connection)
                    flows.append([
                        "id": .string(flow.id), "version": .number(JSONNumber(stored.version)),
                        "created": .bool(created),
                    ])
                }
                let manifest: JSONValue = [
                    "digest": .string(BundleSignature.label(digest)), "keyId": .string(keyId),
                    "channel": .string(bundle.channel), "source": .object(bundle.source), "flows": .array(flows),
                ]
                let manifestJSON = PostgresJSONB(bytes: CanonicalJSON.encode(manifest))
                try await connection.query(
                    "UPDATE bundles SET manifest = \(manifestJSON) WHERE digest = \(digestData)")
                return BundleOutcome(manifest: manifest, alreadyApplied: false)
            }
        } catch let error as PostgresError where error.kind == .uniqueViolation {
            // Another request applied the same bundle concurrently: report its result.
            let manifest = try await pool.withConnection { try await storedManifest(digest, $0) }
            guard let manifest else { throw error }
            return BundleOutcome(manifest: manifest, alreadyApplied: true)
        }
    }

    private func storedManifest(_ digest: [UInt8], _ connection: PostgresConnection) async throws -> JSONValue? {
        let rows = try await connection.query("SELECT manifest::text FROM bundles WHERE digest = \(Data(digest))")
        guard let row = rows.first else { return nil }
        let text: String = try row.decode(at: 0)
        return try? JSONParser.parse(text)
    }
}
