import ParleyCore
import Testing

@testable import ParleyServer

/// Issue 26: the funnel's arithmetic, without a database. passport-intake's shape: `country`
/// branches to `employer` for work travellers, everyone else goes to `document`.
@Suite struct FunnelReportTests {
    static let flow: Flow = {
        let json = try! JSONParser.parse(
            Array(
                #"""
                { "schema": "parley.flow/1", "id": "trip", "start": "country", "steps": [
                  { "id": "country", "screen": { "id": "c", "title": "C", "root": { "type": "vstack", "id": "r" } },
                    "next": [ { "when": { "field": "purpose", "equals": "work" }, "goto": "employer" }, { "goto": "document" } ] },
                  { "id": "employer", "screen": { "id": "e", "title": "E", "root": { "type": "vstack", "id": "r" } },
                    "next": [ { "goto": "document" } ] },
                  { "id": "document", "screen": { "id": "d", "title": "D", "root": { "type": "vstack", "id": "r" } },
                    "next": [] } ] }
                """#.utf8))
        return try! Flow(json: json, at: .root)
    }()

    static func report(_ groups: [FunnelReport.Group]) -> FunnelReport {
        FunnelReport(
            flowId: "trip", filters: JSONObject(), groups: groups, flows: [1: flow], rejections: [], medians: [:])
    }

    @Test func aBranchStepCountsOnlySessionsThatCouldStillReachIt() {
        let report = Self.report([
            // Two stopped at country (undecided: employer still reachable).
            .init(version: 1, status: "expired", step: "country", passed: [], count: 2),
            // Three tourists stopped at document: employer is behind them.
            .init(version: 1, status: "expired", step: "document", passed: ["country"], count: 3),
            // Four tourists completed without employer.
            .init(version: 1, status: "completed", step: "document", passed: ["country", "document"], count: 4),
            // Work travellers: one stopped at employer, five completed through it.
            .init(version: 1, status: "active", step: "employer", passed: ["country"], count: 1),
            .init(
                version: 1, status: "completed", step: "document", passed: ["country", "employer", "document"], count: 5
            ),
        ])
        let counts = report.counts()
        #expect(counts["employer"]?.reachable == 2 + 1 + 5)
        #expect(counts["employer"]?.reached == 6)
        #expect(counts["employer"]?.passed == 5)
        #expect(counts["country"]?.reachable == 15)
        #expect(counts["country"]?.passed == 13)
        #expect(counts["document"]?.reachable == 15)
        #expect(counts["document"]?.passed == 9)
        let json = report.json
        #expect(json["started"] == 15)
        #expect(json["completed"] == 9)
        #expect(json["expired"] == 5)
        #expect(
            json["steps"]?.arrayValue?.compactMap { $0["step"]?.stringValue } == ["country", "employer", "document"])
        #expect(FunnelReport.dropOff(passed: 5, reachable: 8) == .number(JSONNumber(parsing: "0.375")!))
    }

    @Test func nothingReachableHasNoDropOff() {
        #expect(FunnelReport.dropOff(passed: 0, reachable: 0) == .null)
        #expect(FunnelReport.dropOff(passed: 0, reachable: 3) == 1)
        #expect(FunnelReport.dropOff(passed: 3, reachable: 3) == .number(JSONNumber(parsing: "0")!))
        let json = Self.report([]).json
        #expect(json["steps"]?.arrayValue?.first?["dropOff"] == .null)
    }

    @Test(arguments: [
        ("2026-11-25", true), ("2026-11-25T08:00:00Z", true), ("2026-11-25T08:00Z", true),
        ("2026-11-25T08:00:00.123+01:00", true), ("2026-13-01", false), ("2026-11-25T24:00:00Z", false),
        ("yesterday", false), ("2026-11-25T08:00:00", false), ("2026-00-10", false), ("2026-11-25 08:00:00Z", false),
    ])
    func timestampsAreRFC3339(text: String, valid: Bool) {
        #expect(FunnelFilters.isTimestamp(text) == valid)
    }
}
