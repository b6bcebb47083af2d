import Foundation
import ParleyCore
import ParleyCrypto
import ParleyServer
import Testing

/// Issue 8 acceptance, scenario 4: CI publishes signed bundles; anything not signed
/// by a trusted key over exactly these bytes is refused and stores nothing.
@Suite(.timeLimit(.minutes(10))) struct BundleScenarioTests {
    /// A bundle of `flows` (JSON texts) on production.
    static func bundle(_ flows: [String], commit: String, channel: String = "production") throws -> JSONValue {
        try JSONParser.parse(
            """
            { "schema": "parley.bundle/1", "channel": \(FlowFixture.quoted(channel)), "source": { "commit": \(FlowFixture.quoted(commit)) },
              "flows": [ \(flows.joined(separator: ",")) ] }
            """)
    }

    /// `Parley-Signature` over the canonical bytes of `bundle`.
    static func signature(_ bundle: JSONValue, keyId: String, key: Ed25519PrivateKey) throws -> String {
        let signed = try BundleSignature.sign(canonicalBytes: CanonicalJSON.encode(bundle), keyId: keyId, with: key)
        return #"keyId="\#(keyId)", signature="\#(Base64.encode(signed.signature))""#
    }

    @Test func signedBundlesAreAppliedAtomicallyAndOnlyOnce() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let keyId = "ci-\(UUID().uuidString.prefix(8).lowercased())"
            let key = try Ed25519PrivateKey.generate()
            #expect(try await AccessStore(pool: service.pool).addSigningKey(keyId: keyId, publicKey: key.publicKey))
            let auth = ServiceHarness.bearer(service.publisher)
            func post(_ bundle: JSONValue, signature: String, token: (String, String)? = nil) throws -> RawResponse {
                try service.client.send(
                    "POST", "/v1/bundles",
                    headers: [token ?? auth, ("Content-Type", "application/json"), ("Parley-Signature", signature)],
                    body: CanonicalJSON.encode(bundle))
            }
            func stored(_ flowId: String) throws -> Int {
                try service.client.send("GET", "/v1/flows/\(flowId)", headers: [auth]).status
            }
            func bundleRows(_ bundle: JSONValue) async throws -> Int {
                let digest = Data(BundleSignature.digest(ofCanonicalBytes: CanonicalJSON.encode(bundle)))
                let rows = try await service.pool.query("SELECT count(*)::bigint FROM bundles WHERE digest = \(digest)")
                return try rows[0].decode(Int.self, at: 0)
            }

            // Published: every flow versioned and released.
            let ids = [FlowFixture.uniqueId("b4a"), FlowFixture.uniqueId("b4b")]
            let good = try Self.bundle(
                [FlowFixture.quickReplies(id: ids[0]), FlowFixture.branching(id: ids[1])], commit: "abc123")
            let signature = try Self.signature(good, keyId: keyId, key: key)
            let wrongScope = try post(good, signature: signature, token: ServiceHarness.bearer(service.author))
            #expect(wrongScope.status == 403 && wrongScope.isProblem, "\(wrongScope)")
            let applied = try post(good, signature: signature)
            try #require(applied.status == 201, "\(applied)")
            #expect(applied.json["keyId"] == .string(keyId))
            #expect(applied.json["flows"]?.arrayValue?.compactMap { $0["id"]?.stringValue }.sorted() == ids.sorted())
            for id in ids {
                let screen = try service.screen(id, core: "1.2.0")
                #expect(screen.status == 200 && screen.header("Parley-Flow-Version") == "1", "\(id): \(screen)")
            }
            #expect(try await bundleRows(good) == 1)

            // Re-posting is a no-op that answers the same manifest.
            let again = try post(good, signature: signature)
            #expect(again.status == 200, "\(again)")
            #expect(again.json == applied.json, "same manifest")
            for id in ids {
                let versions = try service.client.send("GET", "/v1/flows/\(id)/versions", headers: [auth])
                #expect(versions.json["items"]?.arrayValue?.count == 1, "\(versions)")
                let releases = try service.client.send("GET", "/v1/flows/\(id)/releases", headers: [auth])
                #expect(releases.json["items"]?.arrayValue?.count == 1, "\(releases)")
            }

            // Refused, storing nothing: tampered after signing, unknown key id, bad signature.
            let otherIds = [FlowFixture.uniqueId("b4c"), FlowFixture.uniqueId("b4d")]
            let other = try Self.bundle(
                [FlowFixture.quickReplies(id: otherIds[0]), FlowFixture.freeText(id: otherIds[1], title: "Notes")],
                commit: "def456")
            let otherSignature = try Self.signature(other, keyId: keyId, key: key)
            let tamperedText = String(decoding: CanonicalJSON.encode(other), as: UTF8.self)
                .replacingOccurrences(of: "\"Notes\"", with: "\"Notez\"")
            let tampered = try JSONParser.parse(tamperedText)
            #expect(tampered != other, "fixture sanity: one string changed")
            let unknownKeyId = "nobody-\(UUID().uuidString.prefix(8))"
            let unknownKey = try Self.signature(other, keyId: unknownKeyId, key: key)
            let forged = #"keyId="\#(keyId)", signature="\#(Base64.encode([UInt8](repeating: 7, count: 64)))""#
            let otherKey = try Self.signature(other, keyId: keyId, key: Ed25519PrivateKey.generate())
            // Signed by the trusted key, but its second flow does not lint: the first is not applied either.
            let halfBroken = try Self.bundle(
                [
                    FlowFixture.quickReplies(id: otherIds[0]),
                    FlowFixture.freeText(id: otherIds[1], title: "Notes").replacingOccurrences(
                        of: #""start": "note""#, with: #""start": "missing""#),
                ], commit: "ghi789")
            let halfBrokenSignature = try Self.signature(halfBroken, keyId: keyId, key: key)
            let attempts: [(String, JSONValue, String)] = [
                ("one flow invalid", halfBroken, halfBrokenSignature),
                ("tampered", tampered, otherSignature), ("unknown key id", other, unknownKey),
                ("bad signature", other, forged), ("signed by another key", other, otherKey),
                ("garbled header", other, "keyId=ci signature"),
            ]
            for (name, bundle, header) in attempts {
                let refused = try post(bundle, signature: header)
                #expect((400..<500).contains(refused.status) && refused.isProblem, "\(name): \(refused)")
                #expect(try await bundleRows(bundle) == 0, "\(name) stored a bundle")
            }
            let unsigned = try service.client.send(
                "POST", "/v1/bundles", headers: [auth, ("Content-Type", "application/json")],
                body: CanonicalJSON.encode(other))
            #expect((400..<500).contains(unsigned.status) && unsigned.isProblem, "unsigned: \(unsigned)")
            for id in otherIds { #expect(try stored(id) == 404, "\(id) must not exist") }
            let rows = try await service.pool.query(
                "SELECT count(*)::bigint FROM flow_versions WHERE flow_id = ANY(\(otherIds))")
            #expect(try rows[0].decode(Int.self, at: 0) == 0)
        }
    }
}
