import Foundation
import ParleyCore
import Testing

/// Runs every vector in `Tests/Conformance/rules/*.json` (the same files a
/// Rust or Kotlin core runs, see Tests/Conformance/README.md).
@Suite(.timeLimit(.minutes(10))) struct RulesConformanceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance").appendingPathComponent("rules")

    static func vectorFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Cases per vector file (an invalid-screen group counts as one). Exact, so a file that
    /// vanishes, empties or loses a group fails here; adding a file is one line.
    static let expectedCases: [String: Int] = [
        "date.json": 46, "email.json": 62, "equality.json": 27, "length.json": 45, "numbers.json": 123,
        "outcome.json": 26, "path-context.json": 34, "pattern-syntax.json": 55, "pattern.json": 134,
        "predicates.json": 39,
        "required.json": 31,
    ]

    @Test func everyVectorPasses() throws {
        let files = try Self.vectorFiles()
        var cases: [String: Int] = [:]
        for file in files {
            let document = try JSONParser.parse(Array(try Data(contentsOf: file)))
            let groups = try #require(document.arrayValue, "\(file.lastPathComponent) must hold an array")
            for group in groups {
                cases[file.lastPathComponent, default: 0] += try run(group, file: file.lastPathComponent)
            }
        }
        #expect(cases == Self.expectedCases, "cases per file in \(Self.directory.path)")
    }

    /// Runs one group; returns how many cases it held (an invalid-screen group counts as one).
    private func run(_ group: JSONValue, file: String) throws -> Int {
        let description = "\(file): \(group["description"]?.stringValue ?? "?")"
        let screenJSON = try #require(group["screen"], "\(description): no screen")
        if group["screenError"]?.boolValue == true {
            try checkRefused(screenJSON, description)
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

    /// An invalid-pattern screen is refused for the right reason at the right place: exactly one
    /// `invalidPattern` problem, pointing at the first pattern rule of the screen.
    private func checkRefused(_ screenJSON: JSONValue, _ description: String) throws {
        let screen: Screen
        do {
            screen = try Screen(json: screenJSON, at: .root)
        } catch {
            Issue.record("\(description): the screen should decode and report its rule problem, but threw \(error)")
            return
        }
        let expected = try #require(Self.firstPatternRule(in: screenJSON["root"], at: "/root"), "\(description)")
        let problems = screen.ruleProblems()
        #expect(problems.map(\.code) == ["invalidPattern"], "\(description): \(problems)")
        #expect(problems.first?.pointer.description == expected, "\(description): \(problems)")
        #expect(problems.first?.message.hasPrefix("pattern: ") == true, "\(description): \(problems)")
    }

    /// JSON Pointer of the first `pattern` rule in a node tree, depth first.
    static func firstPatternRule(in node: JSONValue?, at pointer: String) -> String? {
        guard let node else { return nil }
        for (index, rule) in (node["properties"]?["validation"]?.arrayValue ?? []).enumerated()
        where rule["rule"]?.stringValue == "pattern" {
            return "\(pointer)/properties/validation/\(index)"
        }
        for (index, child) in (node["children"]?.arrayValue ?? []).enumerated() {
            if let found = firstPatternRule(in: child, at: "\(pointer)/children/\(index)") { return found }
        }
        return nil
    }
}
