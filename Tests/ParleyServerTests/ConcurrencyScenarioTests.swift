import Foundation
import ParleyCore
import ParleyCrypto
import ParleyServer
import Synchronization
import Testing

/// Issue 8: concurrent designers get consecutive versions, concurrent releases
/// leave the live version equal to the newest release in the history, and the
/// same bundle posted concurrently is applied exactly once.
@Suite(.timeLimit(.minutes(10))) struct ConcurrencyScenarioTests {
    /// Runs `body(i)` for i in 0..<count on separate threads at once; returns the results in order.
    static func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Result<
        T, any Error
    >] {
        let results = Mutex<[Int: Result<T, any Error>]>([:])
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread.detachNewThread {
                let result = Result { try body(index) }
                results.withLock { $0[index] = result }
                group.leave()
            }
        }
        HangGuard.wait(for: group, "\(count) concurrent requests")
        return results.withLock { all in
            (0..<count).map { all[$0] ?? .failure(SessionFixture.Failure(description: "request \($0) never finished")) }
        }
    }

    @Test func concurrentWritesNeverInterleave() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("s8")
            let posts = Self.concurrently(6) { index in
                try service.postFlow(FlowFixture.quickReplies(id: id, title: "Title \(index)"))
            }
            let versions = try posts.map { result -> Int in
                let response = try result.get()
                #expect(response.status == 201, "\(response)")
                return response.json["version"]?.numberValue?.intValue ?? 0
            }
            #expect(versions.sorted() == Array(1...6), "consecutive, distinct versions: \(versions)")

            let releases = Self.concurrently(6) { index in try service.release(id, version: index + 1) }
            for result in releases { #expect(try result.get().status == 201) }
            let history = try service.client.send(
                "GET", "/v1/flows/\(id)/releases", headers: [ServiceHarness.bearer(service.publisher)])
            let items = history.json["items"]?.arrayValue ?? []
            #expect(items.count == 6)
            let newest = try #require(items.first?["version"]?.numberValue?.intValue)
            let live = try service.screen(id, core: "1.2.0")
            #expect(live.header("Parley-Flow-Version") == String(newest), "live is the newest release")
            let summary = try service.client.send(
                "GET", "/v1/flows/\(id)", headers: [ServiceHarness.bearer(service.author)])
            #expect(summary.json["releases"]?["production"]?.numberValue?.intValue == newest, "\(summary)")
        }
    }

    @Test func theSameBundlePostedConcurrentlyIsAppliedOnce() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let keyId = "ci-\(UUID().uuidString.prefix(8).lowercased())"
            let key = try Ed25519PrivateKey.generate()
            #expect(try await AccessStore(pool: service.pool).addSigningKey(keyId: keyId, publicKey: key.publicKey))
            let ids = [FlowFixture.uniqueId("s8a"), FlowFixture.uniqueId("s8b")]
            let bundle = try BundleScenarioTests.bundle(
                [FlowFixture.quickReplies(id: ids[0]), FlowFixture.freeText(id: ids[1], title: "Notes")],
                commit: "concurrent")
            let signature = try BundleScenarioTests.signature(bundle, keyId: keyId, key: key)
            let body = CanonicalJSON.encode(bundle)
            let token = service.publisher
            let responses = try Self.concurrently(4) { _ in
                try service.client.send(
                    "POST", "/v1/bundles",
                    headers: [
                        ServiceHarness.bearer(token), ("Content-Type", "application/json"),
                        ("Parley-Signature", signature),
                    ], body: body)
            }.map { try $0.get() }
            #expect(responses.map(\.status).sorted() == [200, 200, 200, 201], "\(responses)")
            #expect(Set(responses.map(\.json)).count == 1, "every answer is the same manifest")
            for id in ids {
                let releases = try service.client.send(
                    "GET", "/v1/flows/\(id)/releases", headers: [ServiceHarness.bearer(token)])
                #expect(releases.json["items"]?.arrayValue?.count == 1, "\(releases)")
            }
        }
    }
}
