import Foundation
import ParleyCore
import Testing

/// Runs the official JSON-Schema-Test-Suite cases for the keywords Parley's
/// rules mirror (`../shared/conformance/json-schema-test-suite`), mapping each
/// schema onto rules and each datum onto an answer string.
///
/// Skips are by an explicit list, each with a reason, printed by the test.
@Suite(.timeLimit(.minutes(10))) struct JSONSchemaSuiteTests {
    static let suiteRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/conformance")
        .appendingPathComponent("json-schema-test-suite")

    @Test func everyApplicableCasePasses() throws {
        let files = try Self.suiteFiles()
        try #require(!files.isEmpty, "JSON-Schema-Test-Suite not found at \(Self.suiteRoot.path); it must be present")
        var passed: [String: Int] = [:]
        var skipped: [String: Int] = [:]
        for file in files {
            let name = String(file.path.dropFirst(Self.suiteRoot.path.count + 1))
            let groups = try #require(try JSONParser.parse(Array(Data(contentsOf: file))).arrayValue)
            for group in groups {
                let groupName = "\(name): \(group["description"]?.stringValue ?? "?")"
                let mapping = JSONSchemaMapping(schema: try #require(group["schema"]?.objectValue))
                for test in group["tests"]?.arrayValue ?? [] {
                    let caseName = "\(groupName) / \(test["description"]?.stringValue ?? "?")"
                    let data = try #require(test["data"])
                    switch mapping.answer(for: data) {
                    case .skip(let reason):
                        skipped[reason, default: 0] += 1
                    case .run(let answer):
                        guard case .rules(let rules) = mapping.result else {
                            if case .unsupported(let reason) = mapping.result { skipped[reason, default: 0] += 1 }
                            continue
                        }
                        let screen = Self.screen(rules)
                        let answers: Answers = ["f": answer]
                        let outcome = RuleInterpreter(mode: .server).validate(screen: screen, answers: answers)
                        let expected = test["valid"]?.boolValue
                        #expect(outcome.valid == expected, "\(caseName): \(CanonicalJSON.string(outcome.json))")
                        passed[name, default: 0] += 1
                    }
                }
            }
        }
        print("JSON-Schema-Test-Suite: \(passed.values.reduce(0, +)) cases run")
        for (reason, count) in skipped.sorted(by: { $0.key < $1.key }) {
            print("  skipped \(count): \(reason)")
        }
        #expect(passed == Self.expectedRuns, "cases run per suite file")
    }

    /// Cases run per suite file, exact: a file or keyword mapping that stops running its cases
    /// fails here instead of hiding under a total.
    static let expectedRuns: [String: Int] = [
        "const.json": 7, "enum.json": 7, "exclusiveMaximum.json": 3, "exclusiveMinimum.json": 3, "maxLength.json": 6,
        "maximum.json": 7, "minLength.json": 6, "minimum.json": 9, "multipleOf.json": 10, "pattern.json": 5,
        "optional/bignum.json": 8, "optional/format/date.json": 74, "optional/format/email.json": 21,
        "optional/non-bmp-regex.json": 6,
    ]

    static func suiteFiles() throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: suiteRoot, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "json" }
            .sorted { $0.path < $1.path }
    }

    static func screen(_ rules: [Rule]) -> Screen {
        let field = Node(
            type: ComponentType(name: "textField"), id: "f", properties: JSONObject([("fieldId", .string("f"))]),
            validation: rules)
        return Screen(id: "suite", root: Node(type: ComponentType(name: "vstack"), id: "root", children: [field]))
    }
}
