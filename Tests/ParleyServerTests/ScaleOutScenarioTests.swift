import Foundation
import Testing

/// Issue 8 acceptance, scenario 5: server processes share one database, and a
/// release through one reaches the hot cache of another (LISTEN/NOTIFY).
@Suite(.timeLimit(.minutes(10))) struct ScaleOutScenarioTests {
    @Test func aReleaseThroughOneProcessIsServedByAnotherWithinASecond() async throws {
        try await ServiceHarness.run(servers: 2) { service in
            let (first, second) = (service.clients[0], service.clients[1])
            let id = FlowFixture.uniqueId("s5")
            try #require(try service.postFlow(FlowFixture.quickReplies(id: id), on: first).status == 201)
            try #require(try service.release(id, version: 1, on: first).status == 201)

            // The second process serves v1 to a client, twice, so its caches are hot.
            for _ in 0..<2 {
                let old = try service.screen(id, core: "1.2.0", on: second)
                try #require(old.status == 200, "\(old)")
                #expect(old.header("Parley-Flow-Version") == "1")
            }

            try #require(
                try service.postFlow(FlowFixture.withDatePicker(id: id), ifMatch: 1, on: first).status == 201)
            let released = try service.release(id, version: 2, on: first)
            try #require(released.status == 201, "\(released)")
            // The notification is the event; 20 s is a hang guard, the figure is printed.
            let start = Date()
            var served: String?
            while Date().timeIntervalSince(start) <= 20 {
                served = try service.screen(id, core: "1.2.0", on: second).header("Parley-Flow-Version")
                if served == "2" { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            let elapsed = Date().timeIntervalSince(start)
            #expect(served == "2", "the second process still served v\(served ?? "?") \(elapsed) s after the release")
            print("release reached the other process after \(Int(elapsed * 1000)) ms")
            let upgrade = try service.screen(id, core: "1.0.0", on: second)
            #expect(upgrade.header("Parley-Served") == "upgrade", "\(upgrade)")

            // Rollback is releasing the older version; it reaches the other process the same way.
            let hot = try service.screen(id, core: "1.2.0", on: first)
            #expect(hot.header("Parley-Flow-Version") == "2", "\(hot)")
            try #require(try service.release(id, version: 1, on: second).status == 201)
            let rollbackStart = Date()
            var rolledBack: String?
            while Date().timeIntervalSince(rollbackStart) <= 20 {
                rolledBack = try service.screen(id, core: "1.2.0", on: first).header("Parley-Flow-Version")
                if rolledBack == "1" { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(rolledBack == "1", "rollback not served by the first process within 20 s")
        }
    }
}
