import Foundation
import ParleyCore
import Testing

/// Runs every vector in `Tests/Conformance/replay/*.json`: the completion check of DESIGN.md
/// "Sessions" as data, so another core can prove it completes (and refuses) exactly the same paths.
@Suite(.timeLimit(.minutes(10))) struct ReplayConformanceTests {
    static let directory = RulesConformanceTests.directory.deletingLastPathComponent().appendingPathComponent("replay")

    @Test func everyVectorPasses() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(!files.isEmpty, "no replay vectors in \(Self.directory.path)")
        var cases = 0
        for file in files {
            for group in try JSONParser.parse(Array(try Data(contentsOf: file))).arrayValue ?? [] {
                let name = "\(file.lastPathComponent): \(group["description"]?.stringValue ?? "?")"
                let flowJSON = try #require(group["flow"], "\(name): no flow")
                #expect(FlowLinter().lint(flow: flowJSON).isEmpty, "\(name): the flow must lint clean")
                let replay = PathReplay(flow: try Flow(json: flowJSON, at: .root))
                for test in try #require(group["tests"]?.arrayValue, "\(name): no tests") {
                    let outcome = replay.replay(try PathReplay.path(json: try #require(test["path"])))
                    var expected = JSONObject()
                    expected["completed"] = test["completed"]
                    expected["answers"] = test["answers"]
                    expected["refused"] = test["refused"]
                    #expect(
                        outcome.json == .object(expected),
                        "\(name) / \(test["description"]?.stringValue ?? "?"): got \(CanonicalJSON.string(outcome.json))"
                    )
                    cases += 1
                }
            }
        }
        #expect(cases >= 17)
    }

    @Test func malformedPathsAreRefusedByTheDecoder() {
        #expect(throws: ModelDecodingError.self) { try PathReplay.path(json: ["step": "a"]) }
        #expect(throws: ModelDecodingError.self) { try PathReplay.path(json: [["answers": [:]]]) }
        #expect(throws: ModelDecodingError.self) { try PathReplay.path(json: [["step": "a", "answers": ["f": 1]]]) }
        #expect(throws: Never.self) { try PathReplay.path(json: [["step": "a"]]) }
    }
}
