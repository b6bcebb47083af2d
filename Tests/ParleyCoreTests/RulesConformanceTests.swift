import Foundation
import ParleyCore
import Testing

/// Runs every vector in `Tests/Conformance/rules/*.json` (the same files a
/// Rust or Kotlin core runs, see Tests/Conformance/README.md).
@Suite struct RulesConformanceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance").appendingPathComponent("rules")

    static func vectorFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func everyVectorPasses() throws {
        let files = try Self.vectorFiles()
        #expect(!files.isEmpty, "no conformance vectors found in \(Self.directory.path)")
        var cases = 0
        for file in files {
            let document = try JSONParser.parse(Array(try Data(contentsOf: file)))
            let groups = try #require(document.arrayValue, "\(file.lastPathComponent) must hold an array")
            for group in groups {
                cases += try run(group, file: file.lastPathComponent)
            }
        }
        #expect(cases >= 567 + 55, "only \(cases) conformance cases (README: 567 cases and 55 invalid screens)")
    }

    /// Runs one group; returns how many cases it held (an invalid-screen group counts as one).
    private func run(_ group: JSONValue, file: String) throws -> Int {
        let description = "\(file): \(group["description"]?.stringValue ?? "?")"
        let screenJSON = try #require(group["screen"], "\(description): no screen")
        if group["screenError"]?.boolValue == true {
            let problems = (try? Screen(json: screenJSON, at: .root)).map { $0.ruleProblems() }
            #expect(problems.map { !$0.isEmpty } ?? true, "\(description): the screen should be refused")
            return 1
        }
        let screen: Screen
        do {
            screen = try Screen(json: screenJSON, at: .root)
        } catch {
            Issue.record("\(description): the screen does not decode: \(error)")
            return 0
        }
        #expect(screen.ruleProblems().isEmpty, "\(description): unexpected rule problems")
        let mode: RuleInterpreter.Mode = group["mode"]?.stringValue == "client" ? .client : .server
        let tests = try #require(group["tests"]?.arrayValue, "\(description): no tests")
        // The answers of earlier steps of the path (Tests/Conformance/README.md), if the group has them.
        let context = try group["context"].map { try Answers($0) } ?? Answers()
        for test in tests {
            let answers = try Answers(try #require(test["answers"]))
            let outcome = RuleInterpreter(mode: mode).validate(screen: screen, answers: answers, context: context)
            var expected = JSONObject()
            expected["valid"] = test["valid"]
            let errors: JSONValue = test["errors"] ?? .array([])
            let deferred: JSONValue = test["deferred"] ?? .array([])
            expected["errors"] = errors
            expected["deferred"] = deferred
            #expect(
                outcome.json == .object(expected),
                "\(description) / \(test["description"]?.stringValue ?? "?"): got \(CanonicalJSON.string(outcome.json)) expected \(CanonicalJSON.string(.object(expected)))"
            )
        }
        return tests.count
    }
}
