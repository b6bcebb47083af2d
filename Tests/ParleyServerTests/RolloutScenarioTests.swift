import Foundation
import ParleyCore
import ParleyCrypto
import Testing

/// Staged rollouts (issue 17, DESIGN.md "Staged rollouts") over real sockets and Postgres: a
/// partial release splits new sessions by a stable hash, raising it keeps everyone inside,
/// halting sends everyone back, and cached screens never cross buckets.
@Suite(.timeLimit(.minutes(10))) struct RolloutScenarioTests {
    @Test func aTenPercentRolloutSplitsNewSessionsAndRaisingOrHaltingItBehaves() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.twoVersions(service, prefix: "split")
            let ten = try service.rollout(id, version: 2, percent: 10)
            try #require(ten.status == 201, "\(ten)")
            #expect(ten.json["percent"] == 10)

            let sessions = try await Self.startSessions(service, flow: id, count: 10_000)
            let onNew = sessions.filter { $0.version == 2 }
            #expect((850...1150).contains(onNew.count), "10% ± 1.5% of 10,000 on v2, got \(onNew.count)")

            // Sessionless screens: Parley-Subject picks the bucket; the inside of 10% stays inside 50%.
            let subjects = (0..<400).map { "subject-\($0)" }
            let atTen = try subjects.filter { try Self.screenVersion(service, id, subject: $0) == 2 }
            try #require(try service.rollout(id, version: 2, percent: 50).status == 201)
            let atFifty = try subjects.filter { try Self.screenVersion(service, id, subject: $0) == 2 }
            #expect(Set(atTen).isSubset(of: Set(atFifty)), "raising the percentage moved subjects out")
            #expect((140...260).contains(atFifty.count), "about half of 400 subjects on v2, got \(atFifty.count)")
            for session in onNew.prefix(50) {
                let reread = try service.client.send("GET", "/v1/sessions/\(session.id)")
                #expect(reread.json["version"] == 2, "a running v2 session left its version")
            }

            let fifty = try service.client.send(
                "GET", "/v1/flows/\(id)/releases", headers: [ServiceHarness.bearer(service.publisher)])
            let live = try #require(fifty.json["items"]?.arrayValue?.first?["id"]?.numberValue?.intValue)
            let halted = try service.client.send(
                "POST", "/v1/flows/\(id)/releases/\(live)/halt", headers: [ServiceHarness.bearer(service.publisher)])
            #expect(halted.status == 200, "\(halted)")
            #expect(halted.json["halted"] == true)
            let afterHalt = try await Self.startSessions(service, flow: id, count: 200)
            #expect(afterHalt.allSatisfy { $0.version == 1 }, "a halted rollout still took new sessions")
            for subject in atFifty.prefix(20) {
                #expect(try Self.screenVersion(service, id, subject: subject) == 1)
            }
            let again = try service.client.send(
                "POST", "/v1/flows/\(id)/releases/\(live)/halt", headers: [ServiceHarness.bearer(service.publisher)])
            #expect(again.status == 200, "halting twice is harmless: \(again)")
        }
    }

    @Test func theBucketIsTheDocumentedHashAndScreensNeverCrossBuckets() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.twoVersions(service, prefix: "bucket")
            let rollout = try service.rollout(id, version: 2, percent: 30)
            let rolloutId = try #require(rollout.json["id"]?.numberValue?.intValue)
            // README "Staged rollouts": SHA-256 of "flow\nrolloutId\nsubject", first 8 bytes big-endian, mod 100.
            func bucket(_ subject: String) -> Int {
                let digest = SHA256.hash(Array("\(id)\n\(rolloutId)\n\(subject)".utf8))
                return Int(digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 100)
            }
            let subjects = (0..<200).map { "user-\($0)" }
            let inside = try #require(subjects.first { bucket($0) < 30 })
            let outside = try #require(subjects.first { bucket($0) >= 30 })
            for subject in subjects.prefix(60) {
                #expect(try Self.screenVersion(service, id, subject: subject) == (bucket(subject) < 30 ? 2 : 1))
            }
            // The same step for both buckets in every order, cold and warm: never the other's bytes.
            for order in [[inside, outside, inside, outside], [outside, inside, outside, inside]] {
                for subject in order {
                    let screen = try service.screen(id, core: "1.2.0", headers: [("Parley-Subject", subject)])
                    #expect(screen.header("Parley-Flow-Version") == (subject == inside ? "2" : "1"))
                    #expect(screen.header("Cache-Control")?.hasPrefix("private") == true, "\(screen)")
                    #expect(screen.header("Vary")?.contains("Parley-Subject") == true)
                }
            }
            let anonymous = try service.screen(id, core: "1.2.0")
            #expect(anonymous.header("Parley-Flow-Version") == "1", "no subject: the full release's version")
            let bad = try service.screen(
                id, core: "1.2.0", headers: [("Parley-Subject", String(repeating: "x", count: 300))])
            #expect(bad.status == 400 && bad.isProblem, "\(bad)")
        }
    }

    @Test func theComparisonSetsBothVersionsSideBySide() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = try Self.twoVersions(service, prefix: "compare")
            let rollout = try service.rollout(id, version: 2, percent: 50)
            let rolloutId = try #require(rollout.json["id"]?.numberValue?.intValue)
            let sessions = try await Self.startSessions(service, flow: id, count: 60)
            let v2 = try #require(sessions.first { $0.version == 2 })
            let v1 = try #require(sessions.first { $0.version == 1 })
            for session in [v1, v2] {
                let snapshot = try service.client.send("GET", "/v1/sessions/\(session.id)").json
                let rejected = try service.answer(snapshot, ["email": "not an e-mail"])
                #expect(rejected.status == 422)
                let done = try service.advance(snapshot, ["email": "a@example.com"])
                #expect(done.rev == 2)
            }
            let comparison = try service.client.send(
                "GET", "/v1/flows/\(id)/releases/\(rolloutId)/comparison",
                headers: [ServiceHarness.bearer(service.author)])
            try #require(comparison.status == 200, "\(comparison)")
            let rows = try #require(comparison.json["versions"]?.arrayValue)
            #expect(rows.map { $0["version"] } == [1, 2])
            #expect(rows.map { $0["role"] } == ["base", "rollout"])
            let started = rows.compactMap { $0["started"]?.numberValue?.intValue }
            #expect(
                started.reduce(0, +) == 60
                    && started == [
                        sessions.filter { $0.version == 1 }.count, sessions.filter { $0.version == 2 }.count,
                    ])
            for row in rows {
                #expect(row["rejections"]?["email"] == 1, "one rejected e-mail per version: \(row)")
                #expect(row["active"] == row["started"])
            }
        }
    }

    @Test func badRolloutRequestsGetClearErrors() async throws {
        try await ServiceHarness.run(inProcess: 1) { service in
            let id = FlowFixture.uniqueId("bad-rollout")
            try #require(try service.postFlow(SessionFixture.signup(id: id)).status == 201)
            let first = try service.rollout(id, version: 1, percent: 5)
            #expect(first.status == 422 && first.json["type"] == "urn:parley:problem:no-full-release", "\(first)")
            for percent in ["0", "101", "\"5\"", "2.5"] {
                let refused = try service.client.sendJSON(
                    "POST", "/v1/flows/\(id)/releases", #"{"version": 1, "percent": \#(percent)}"#,
                    headers: [ServiceHarness.bearer(service.publisher)])
                #expect(refused.status == 400 && refused.isProblem, "percent \(percent): \(refused)")
            }
            let full = try service.release(id, version: 1)
            let fullId = try #require(full.json["id"]?.numberValue?.intValue)
            let halt = { (path: String) in
                try service.client.send("POST", path, headers: [ServiceHarness.bearer(service.publisher)])
            }
            #expect(try halt("/v1/flows/\(id)/releases/\(fullId)/halt").status == 409)
            #expect(try halt("/v1/flows/\(id)/releases/999999999/halt").status == 404)
            #expect(try halt("/v1/flows/\(id)/releases/nope/halt").status == 400)
            #expect(try halt("/v1/flows/other-flow/releases/\(fullId)/halt").status == 404)
            let forbidden = try service.client.send(
                "POST", "/v1/flows/\(id)/releases/\(fullId)/halt", headers: [ServiceHarness.bearer(service.author)])
            #expect(forbidden.status == 403)
            // A full release is never split: public caching as before.
            let screen = try service.screen(id, core: "1.2.0", headers: [("Parley-Subject", "anyone")])
            #expect(screen.header("Cache-Control")?.hasPrefix("public") == true, "\(screen)")
        }
    }

    /// Posts `signup` v1 (released at 100%) and v2 (a new title, not released); returns the flow id.
    static func twoVersions(_ service: ServiceHarness, prefix: String) throws -> String {
        let id = try SessionFixture.released(service, prefix: prefix)
        let posted = try service.postFlow(SessionFixture.signup(id: id, title: "Sign-up v2"))
        guard posted.status == 201 else { throw SessionFixture.Failure(description: "v2: \(posted)") }
        return id
    }

    /// The version `GET /v1/screens/{flow}` serves to a subject.
    static func screenVersion(_ service: ServiceHarness, _ flow: String, subject: String) throws -> Int? {
        let screen = try service.screen(flow, core: "1.2.0", headers: [("Parley-Subject", subject)])
        return screen.header("Parley-Flow-Version").flatMap { Int($0) }
    }

    /// Starts `count` sessions over 8 connections; returns each one's id and version.
    static func startSessions(_ service: ServiceHarness, flow: String, count: Int) async throws
        -> [(id: String, version: Int)]
    {
        return try await withThrowingTaskGroup(of: [(id: String, version: Int)].self) { group in
            for lane in 0..<8 {
                group.addTask {
                    let client = service.separateClient()
                    var started: [(id: String, version: Int)] = []
                    for _ in stride(from: lane, to: count, by: 8) {
                        let snapshot = try service.startSession(flow, on: client)
                        guard snapshot.status == 201 else {
                            throw SessionFixture.Failure(description: "start: \(snapshot)")
                        }
                        started.append((snapshot.json.sessionId, snapshot.json["version"]?.numberValue?.intValue ?? 0))
                    }
                    return started
                }
            }
            var all: [(id: String, version: Int)] = []
            for try await lane in group { all += lane }
            return all
        }
    }
}

extension ServiceHarness {
    /// Releases version `n` of a flow on production to `percent` of new sessions.
    func rollout(_ flow: String, version: Int, percent: Int) throws -> RawResponse {
        try client.sendJSON(
            "POST", "/v1/flows/\(flow)/releases",
            #"{"version": \#(version), "channel": "production", "percent": \#(percent)}"#,
            headers: [Self.bearer(publisher)])
    }
}
