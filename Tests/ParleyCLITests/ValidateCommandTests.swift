import Foundation
import ParleyCore
import Testing

/// `parley validate` through the real binary: exit codes and JSON output.
@Suite(.timeLimit(.minutes(10))) struct ValidateCommandTests {
    static let screen = """
        {"schema": "parley.screen/1", "id": "country", "root": {"type": "vstack", "id": "root", "children": [
          {"type": "textField", "id": "country", "properties": {"fieldId": "passportCountry", "validation": [
            {"rule": "required", "message": "Passport country is required."},
            {"rule": "pattern", "value": "[A-Z]{2}", "message": "Use the two-letter code."}]}}]}}
        """

    static let flow = """
        {"schema": "parley.flow/1", "id": "intake", "start": "country", "steps": [
          {"id": "country", "screen": \(screen), "next": [{"goto": "done"}]},
          {"id": "done", "screen": {"id": "done", "root": {"type": "text", "id": "t"}}, "next": []}]}
        """

    func validate(screen: String = Self.screen, answers: String, extra: [String] = []) throws -> ParleyBinary.Result {
        let screenPath = try ParleyBinary.temporaryFile(screen, name: "screen.json")
        let answersPath = try ParleyBinary.temporaryFile(answers, name: "answers.json")
        return try ParleyBinary.run(["validate", "--screen", screenPath, "--answers", answersPath] + extra)
    }

    @Test func validAnswersExitZero() throws {
        let result = try validate(answers: #"{"passportCountry": "DE"}"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == #"{"deferred":[],"errors":[],"valid":true}"# + "\n")
    }

    @Test func invalidAnswersExitOneWithErrors() throws {
        let result = try validate(answers: #"{"passportCountry": "Deutschland", "extra": "x"}"#)
        #expect(result.status == 1)
        let outcome = try JSONParser.parse(result.stdout)
        #expect(outcome["valid"] == .bool(false))
        #expect(
            outcome["errors"]
                == [
                    ["field": "passportCountry", "rule": "pattern", "message": "Use the two-letter code."],
                    ["field": "extra", "rule": "unexpectedField", "message": "This field is not on the screen."],
                ])
    }

    /// A client core defers a rule kind it does not know (a server would fail the answer on it)
    /// and does not flag fields that are not on the screen.
    @Test func clientModeDefersAndIgnoresOtherFields() throws {
        let screen = Self.screen.replacingOccurrences(
            of: #"{"rule": "required", "message": "Passport country is required."},"#,
            with:
                #"{"rule": "required", "message": "Passport country is required."}, {"rule": "luhn", "message": "Checksum."},"#
        )
        try #require(screen != Self.screen)
        let answers = #"{"passportCountry": "DE", "extra": "x"}"#
        let result = try validate(screen: screen, answers: answers, extra: ["--mode", "client"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout == #"{"deferred":[{"field":"passportCountry","rule":"luhn"}],"errors":[],"valid":true}"#
                + "\n")
        let server = try validate(screen: screen, answers: answers)
        #expect(server.status == 1, "the same answers fail on the server: \(server.stdout)")
        #expect(server.stdout.contains(#""rule":"unexpectedField""#) && server.stdout.contains(#""rule":"luhn""#))
    }

    @Test func flowStepIsValidated() throws {
        let result = try validate(
            screen: Self.flow, answers: #"{"passportCountry": null}"#, extra: ["--step", "country"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("Passport country is required."))
        let missingStep = try validate(screen: Self.flow, answers: "{}")
        #expect(missingStep.status == 2)
        #expect(missingStep.stderr.contains("--step"))
        let unknownStep = try validate(screen: Self.flow, answers: "{}", extra: ["--step", "nope"])
        #expect(unknownStep.status == 2)
        #expect(unknownStep.stderr.contains("nope"))
    }

    /// `--context`: the answers of earlier steps, read by a cross-step `equalsField`.
    @Test func contextFeedsCrossStepRules() throws {
        let screen = """
            {"schema": "parley.screen/1", "id": "confirm", "root": {"type": "textField", "id": "again",
              "properties": {"fieldId": "emailAgain", "validation": [{"rule": "equalsField", "field": "email"}]}}}
            """
        let answers = #"{"emailAgain": "a@example.com"}"#
        let context = try ParleyBinary.temporaryFile(#"{"email": "a@example.com"}"#, name: "context.json")
        let withContext = try validate(screen: screen, answers: answers, extra: ["--context", context])
        #expect(withContext.status == 0, "\(withContext.stdout)\(withContext.stderr)")
        let without = try validate(screen: screen, answers: answers)
        #expect(without.status == 1, "no context, nothing to equal: \(without.stdout)")
        let other = try ParleyBinary.temporaryFile(#"{"email": "b@example.com"}"#, name: "other.json")
        #expect(try validate(screen: screen, answers: answers, extra: ["--context", other]).status == 1)
        let broken = try ParleyBinary.temporaryFile(#"{"email": 1}"#, name: "broken.json")
        #expect(try validate(screen: screen, answers: answers, extra: ["--context", broken]).status == 2)
    }

    @Test func unreadableInputExitsTwo() throws {
        #expect(try validate(answers: "{not json").status == 2)
        #expect(try validate(answers: #"{"passportCountry": 7}"#).status == 2)
        #expect(try validate(screen: #"{"schema": "parley.screen/9", "id": "x"}"#, answers: "{}").status == 2)
        let missing = try ParleyBinary.run([
            "validate", "--screen", "/nonexistent/screen.json", "--answers", "/nonexistent/answers.json",
        ])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read"))
    }

    @Test func illFormedPatternIsUnreadableInput() throws {
        let screen = Self.screen.replacingOccurrences(of: "[A-Z]{2}", with: "^[A-Z]{2}$")
        let result = try validate(screen: screen, answers: #"{"passportCountry": "DE"}"#)
        #expect(result.status == 2)
        #expect(result.stderr.contains("/root/children/0/properties/validation/1"), "\(result.stderr)")
        #expect(result.stderr.contains("'^'"), "\(result.stderr)")
    }

    /// The harness protocol, fed every conformance vector: same results as the in-process suite.
    /// One run per file keeps each response stream far below a pipe buffer (the helper writes stdin first).
    @Test func harnessRunsTheConformanceVectors() throws {
        let directory = ParleyBinary.packageRoot.appendingPathComponent("Tests/Conformance/rules")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
        #expect(!files.isEmpty)
        for file in files {
            try runHarness(on: file)
        }
    }

    /// A harness request's `context` is read by cross-step rules; `null` or absent means none,
    /// and a context that is not answers is an `error` line, not a crash.
    @Test func harnessReadsTheContext() throws {
        let screen =
            #"{"schema": "parley.screen/1", "id": "c", "root": {"type": "textField", "id": "again", "#
            + #""properties": {"fieldId": "again", "validation": [{"rule": "equalsField", "field": "email"}]}}}"#
        let requests = [
            #"{"screen": \#(screen), "answers": {"again": "a@x.io"}, "context": {"email": "a@x.io"}}"#,
            #"{"screen": \#(screen), "answers": {"again": "a@x.io"}, "context": null}"#,
            #"{"screen": \#(screen), "answers": {"again": "a@x.io"}, "context": ["email"]}"#,
        ]
        let result = try ParleyBinary.run(["validate", "--harness"], stdin: requests.joined(separator: "\n") + "\n")
        let lines = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(lines.count == 3, "\(result.stdout)\(result.stderr)")
        #expect(lines.first?["valid"] == true)
        #expect(lines.dropFirst().first?["valid"] == false)
        #expect(lines.last?["error"]?.stringValue != nil)
    }

    /// The replay vectors through the harness: one `{"flow", "path"}` request per test.
    @Test func harnessRunsTheReplayVectors() throws {
        let directory = ParleyBinary.packageRoot.appendingPathComponent("Tests/Conformance/replay")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(!files.isEmpty)
        var requests: [String] = []
        var expectations: [JSONValue] = []
        for file in files {
            for group in try JSONParser.parse(Array(Data(contentsOf: file))).arrayValue ?? [] {
                for test in group["tests"]?.arrayValue ?? [] {
                    requests.append(CanonicalJSON.string(["flow": group["flow"] ?? nil, "path": test["path"] ?? nil]))
                    var expected = JSONObject()
                    expected["completed"] = test["completed"]
                    expected["answers"] = test["answers"]
                    expected["refused"] = test["refused"]
                    expectations.append(.object(expected))
                }
            }
        }
        requests.append(#"{"path": []}"#)
        let result = try ParleyBinary.run(["validate", "--harness"], stdin: requests.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == requests.count)
        for (line, expected) in zip(lines, expectations) {
            #expect(try JSONParser.parse(line) == expected, "\(line)")
        }
        #expect(try lines.last.map { try JSONParser.parse($0)["error"]?.stringValue != nil } == true)
    }

    private func runHarness(on file: URL) throws {
        var requests: [String] = []
        var expectations: [(String, JSONValue?)] = []
        for group in try JSONParser.parse(Array(Data(contentsOf: file))).arrayValue ?? [] {
            let name = "\(file.lastPathComponent): \(group["description"]?.stringValue ?? "")"
            var request = JSONObject()
            request["screen"] = group["screen"]
            request["mode"] = group["mode"]
            request["context"] = group["context"]
            if group["screenError"] == .bool(true) {
                request["answers"] = .object(JSONObject())
                requests.append(CanonicalJSON.string(.object(request)))
                expectations.append((name, nil))
                continue
            }
            for test in group["tests"]?.arrayValue ?? [] {
                request["answers"] = test["answers"]
                requests.append(CanonicalJSON.string(.object(request)))
                let deferred: JSONValue = test["deferred"] ?? []
                let errors: JSONValue = test["errors"] ?? []
                let valid: JSONValue = test["valid"] ?? false
                expectations.append((name, ["valid": valid, "errors": errors, "deferred": deferred]))
            }
        }
        let result = try ParleyBinary.run(["validate", "--harness"], stdin: requests.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == expectations.count, "\(file.lastPathComponent)")
        for (line, (name, expected)) in zip(lines, expectations) {
            let response = try JSONParser.parse(String(line))
            if let expected {
                #expect(response == expected, "\(name): \(line)")
            } else {
                #expect(response["error"]?.stringValue != nil, "\(name) should be refused: \(line)")
            }
        }
    }
}
