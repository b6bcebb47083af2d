import Foundation
import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct LintCommandTests {
    static let cleanFlow = #"""
        { "schema": "parley.flow/1", "id": "f", "start": "a",
          "steps": [ { "id": "a", "screen": { "id": "a", "title": "About you",
            "root": { "type": "textField", "id": "n", "properties": { "fieldId": "name", "label": "Name" } } } } ] }
        """#

    static let brokenFlow = #"""
        { "schema": "parley.flow/1", "id": "f", "start": "b",
          "steps": [ { "id": "a", "screen": { "id": "a", "title": "A", "root": { "type": "hologram", "id": "n" } } } ] }
        """#

    static func directory(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, contents) in files {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory.path
    }

    static func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    @Test func cleanFileExitsZero() throws {
        let path = try ParleyBinary.temporaryFile(Self.cleanFlow)
        let result = try ParleyBinary.run(["lint", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(path): ok\n  servability (core × step):\n"), "\(result.stdout)")
        #expect(result.stderr.isEmpty)
    }

    @Test func problemsExitOneWithAHumanReport() throws {
        let path = try ParleyBinary.temporaryFile(Self.brokenFlow)
        let result = try ParleyBinary.run(["lint", path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(path): /start: "))
        #expect(result.stdout.contains("[unknownStep]"))
        #expect(result.stdout.contains("\(path): /steps/0/screen/root/type: "))
        #expect(result.stdout.contains("[unknownComponentType]"))
        #expect(result.stdout.contains("2 problems; 1 of 1 file not valid."))
    }

    @Test func jsonReportListsCodePointerAndMessage() throws {
        let path = try ParleyBinary.temporaryFile(Self.brokenFlow)
        let result = try ParleyBinary.run(["lint", "--json", path])
        #expect(result.status == 1)
        let report = try Self.json(result.stdout)
        #expect(report["valid"] == false)
        let problems = try #require(report["problems"]?.arrayValue)
        let pairs = problems.compactMap { problem -> String? in
            guard let code = problem["code"]?.stringValue, let pointer = problem["pointer"]?.stringValue,
                let message = problem["message"]?.stringValue, !message.isEmpty
            else { return nil }
            return "\(code) \(pointer)"
        }
        #expect(Set(pairs) == ["unknownStep /start", "unknownComponentType /steps/0/screen/root/type"])
    }

    @Test func jsonReportForACleanFile() throws {
        let path = try ParleyBinary.temporaryFile(Self.cleanFlow)
        let result = try ParleyBinary.run(["lint", "--json", path])
        #expect(result.status == 0)
        let report = try Self.json(result.stdout)
        #expect(report["valid"] == true)
        #expect(report["problems"] == [])
        #expect(report["servability"]?["cores"]?.arrayValue?.count == CoreVersion.supported.count, "\(result.stdout)")
    }

    @Test func screenDocumentsAreLintedToo() throws {
        let path = try ParleyBinary.temporaryFile(
            #"{ "schema": "parley.screen/1", "id": "s", "title": "S", "root": { "type": "button", "id": "b", "properties": { "title": "Go" } } }"#
        )
        let result = try ParleyBinary.run(["lint", "--json", path])
        #expect(result.status == 1)
        let problems = try #require(try Self.json(result.stdout)["problems"]?.arrayValue)
        #expect(problems.map { $0["pointer"] } == ["/root/properties/action"])
    }

    @Test func brokenJSONExitsTwoWithLineAndColumn() throws {
        let path = try ParleyBinary.temporaryFile("{\n  \"schema\": \"parley.flow/1\",\n  \"id\": }")
        let result = try ParleyBinary.run(["lint", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("line 3, column 9"), "\(result.stderr)")
        #expect(!result.stdout.contains("ok"))
        let machine = try ParleyBinary.run(["lint", "--json", path])
        #expect(machine.status == 2)
        let report = try Self.json(machine.stdout)
        #expect(report["valid"] == false)
        #expect(report["error"]?.stringValue?.contains("line 3, column 9") == true)
    }

    @Test func missingPathExitsTwo() throws {
        let result = try ParleyBinary.run(["lint", "/nonexistent/parley/flow.json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no such file or directory"))
    }

    @Test func directoryLintsEveryJSONFileInNameOrder() throws {
        let path = try Self.directory([
            "b-broken.json": Self.brokenFlow, "a-clean.json": Self.cleanFlow, "notes.txt": "not linted",
        ])
        let human = try ParleyBinary.run(["lint", path])
        #expect(human.status == 1)
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path)/a-clean.json: ok")
        #expect(lines.dropFirst().allSatisfy { !$0.contains("notes.txt") })
        #expect(lines.last == "2 problems; 1 of 2 files not valid.")

        let machine = try ParleyBinary.run(["lint", "--json", path])
        #expect(machine.status == 1)
        let report = try Self.json(machine.stdout)
        #expect(report["valid"] == false)
        let files = try #require(report["files"]?.arrayValue)
        #expect(files.map { $0["path"] } == [.string("\(path)/a-clean.json"), .string("\(path)/b-broken.json")])
        #expect(files.map { $0["valid"] } == [true, false])
        #expect(files[1]["problems"]?.arrayValue?.count == 2)
    }

    @Test func directoryWithUnparsableFileExitsTwo() throws {
        let path = try Self.directory(["a.json": Self.cleanFlow, "b.json": "[1,"])
        let result = try ParleyBinary.run(["lint", "--json", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("b.json: not valid JSON at line 1, column 4"), "\(result.stderr)")
        let files = try #require(try Self.json(result.stdout)["files"]?.arrayValue)
        #expect(files[1]["error"]?.stringValue?.contains("line 1, column 4") == true)
    }

    @Test func cleanDirectoryExitsZero() throws {
        let path = try Self.directory(["one.json": Self.cleanFlow, "two.json": Self.cleanFlow])
        let result = try ParleyBinary.run(["lint", path])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").filter { $0.hasSuffix(": ok") }.count == 2)
    }

    /// The flows this binary ships (compiled from the DSL, plus any `Flows/json/*.json`), each
    /// linted on its own: `bundle build` writes them all, one file per flow goes to `parley lint`.
    @Test func shippedFlowsLintClean() throws {
        let out = try ParleyBinary.temporaryFile("", name: "shipped.bundle.json")
        let built = try ParleyBinary.run(["bundle", "build", "--channel", "production", "--out", out])
        try #require(built.status == 0, "\(built.stderr)")
        let bundle = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        let flows = try #require(bundle["flows"]?.arrayValue)
        #expect(flows.count >= 3, "the DSL ships at least passport, chat and delivery flows")
        var files: [String: String] = [:]
        for (index, flow) in flows.enumerated() {
            files["\(index)-\(flow["id"]?.stringValue ?? "?").json"] = String(
                decoding: CanonicalJSON.encode(flow), as: UTF8.self)
        }
        let result = try ParleyBinary.run(["lint", try Self.directory(files)])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").filter { $0.hasSuffix(": ok") }.count == flows.count,
            "\(result.stdout)")
    }

    @Test func folderWithNothingToLintSaysSoAndFails() throws {
        let path = try Self.directory(["notes.txt": "not a flow", ".hidden.json": Self.cleanFlow])
        let result = try ParleyBinary.run(["lint", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no *.json files to lint"), "\(result.stderr)")
    }
}
