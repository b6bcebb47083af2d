import Foundation
import ParleyCore
import Testing

/// Runs every case of `Tests/Conformance/gating/*.json` (format in that folder's README).
@Suite(.timeLimit(.minutes(10))) struct GatingConformanceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance/gating")

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    static func cases(in file: String) throws -> [JSONValue] {
        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(file)))
        return try #require(try JSONParser.parse(bytes)["cases"]?.arrayValue, "\(file) must hold a cases array")
    }

    /// Cases per vector file, exact: a file that vanishes or reads `{}` fails here.
    static let expectedCases: [String: Int] = [
        "actions.json": 13, "components.json": 17, "custom.json": 8, "expressions.json": 18, "flows.json": 7,
        "properties.json": 16, "rules.json": 8, "versions.json": 12,
    ]

    @Test func everyFileHoldsItsCases() throws {
        var counts: [String: Int] = [:]
        for file in Self.files { counts[file] = try Self.cases(in: file).count }
        #expect(counts == Self.expectedCases)
    }

    @Test(arguments: files) func vectorsPass(file: String) throws {
        for vector in try Self.cases(in: file) {
            let name = "\(file): \(vector["name"]?.stringValue ?? "?")"
            let capabilities = try Self.capabilities(of: vector)
            let gate = Gate(capabilities: capabilities)
            let expected = try #require(vector["expected"], "\(name): no expected")
            if let flowValue = vector["flow"] {
                let flow = try Flow(json: flowValue, at: .root)
                let step = try #require(vector["step"]?.stringValue)
                let gated = try #require(gate.gate(flow, step: step), "\(name): no such step")
                #expect(gated.served.rawValue == expected["served"]?.stringValue, "\(name): served")
                #expect(gate.gate(flow, step: step)?.canonicalBytes == gated.canonicalBytes, "\(name): deterministic")
                try Self.check(gated.screen, gated.report, gated.deferred, against: expected, name)
            } else {
                let screen = try Screen(json: try #require(vector["screen"]), at: .root)
                let gated = gate.gate(screen)
                #expect(gated.needsUpgrade == expected["needsUpgrade"]?.boolValue, "\(name): needsUpgrade")
                try Self.check(gated.screen, gated.report, gated.deferred, against: expected, name)
                #expect(gate.gate(screen).canonicalBytes == gated.canonicalBytes, "\(name): deterministic")
                if !gated.needsUpgrade {
                    let again = gate.gate(gated.screen)
                    #expect(again.screen == gated.screen && again.report.isEmpty, "\(name): idempotent")
                }
            }
        }
    }

    static func capabilities(of vector: JSONValue) throws -> CapabilitySet {
        let core = try CoreVersion(parsing: vector["core"]?.stringValue ?? "")
        let custom = vector["capabilities"]
        func items(_ key: String) throws -> [Capability] {
            try (custom?[key]?.arrayValue ?? []).map { try #require(Capability(parsing: $0.stringValue ?? "")) }
        }
        return CapabilitySet.custom(core: core, adding: try items("add"), removing: try items("remove"))
    }

    static func check(
        _ screen: Screen, _ report: [GatingReportEntry], _ deferred: [DeferredRule], against expected: JSONValue,
        _ name: String
    ) throws {
        if let screenValue = expected["screen"] {
            let expectedScreen = try Screen(json: screenValue, at: .root)
            #expect(
                screen.canonicalString == expectedScreen.canonicalString,
                "\(name): screen\n got      \(screen.canonicalString)\n expected \(expectedScreen.canonicalString)")
        }
        let gotReport = report.map { "\($0.nodeId) \($0.pointer) \($0.decision.rawValue)" }
        let wantReport = (expected["report"]?.arrayValue ?? []).map {
            "\($0["nodeId"]?.stringValue ?? "") \($0["pointer"]?.stringValue ?? "") \($0["action"]?.stringValue ?? "")"
        }
        #expect(gotReport == wantReport, "\(name): report \(report.map(\.reason))")
        let gotDeferred = deferred.map { "\($0.field) \($0.rule)" }
        let wantDeferred = (expected["deferred"]?.arrayValue ?? []).map {
            "\($0["field"]?.stringValue ?? "") \($0["rule"]?.stringValue ?? "")"
        }
        #expect(gotDeferred == wantDeferred, "\(name): deferred")
    }
}
