import ArgumentParser
import Foundation
import ParleyCore

/// `parley core-cases`: writes the calls a WebAssembly build of ParleyCore must answer exactly as
/// this native build does (docs/webassembly.md): every conformance vector (rules, gating, replay,
/// expressions) as a ``JSONCalls`` call, then `--random` seeded (screen, answers) cases, each line
/// `{"group", "name", "call", "args": [text|null…], "expected": "<this build's exact output>",
/// "vector"?: <the vector's own expectation>}` in NDJSON. Tests/WebAssembly runs them in Node and Chromium.
// Synchronous: nothing in it awaits, and as an async function the release compiler (Swift 6.3)
// crashes splitting its coroutine (signal 11 in `CoreCasesCommand.run`).
struct CoreCasesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "core-cases",
        abstract: "Write conformance and random calls with this build's exact outputs (for the WebAssembly core).",
        shouldDisplay: false)

    @Option(help: "The conformance vectors folder (rules/, gating/, replay/, expressions/).")
    var conformance = "Tests/Conformance"

    @Option(help: "How many random (screen, answers) cases to add.")
    var random = 10_000

    @Option(help: "Seed of the random cases.")
    var seed: UInt64 = 31

    @Option(help: "The NDJSON file to write.")
    var out: String

    func run() throws {
        var lines: [String] = []
        func add(_ group: String, _ name: String, _ call: String, _ args: [String?], vector: JSONValue? = nil) {
            let bytes = args.map { $0.map { Array($0.utf8) } }
            let expected = String(decoding: JSONCalls.call(call, bytes) ?? [], as: UTF8.self)
            var object = JSONObject()
            object["group"] = .string(group)
            object["name"] = .string(name)
            object["call"] = .string(call)
            object["args"] = .array(args.map { $0.map { JSONValue.string($0) } ?? .null })
            object["expected"] = .string(expected)
            if let vector { object["vector"] = vector }
            lines.append(CanonicalJSON.string(.object(object)))
        }
        let root = URL(fileURLWithPath: conformance)
        for file in try Self.files(root.appendingPathComponent("rules")) {
            for group in try Self.read(file).arrayValue ?? [] {
                let screen = CanonicalJSON.string(group["screen"] ?? .null)
                let context = group["context"].map { CanonicalJSON.string($0) }
                let options = group["mode"].map { CanonicalJSON.string(["mode": $0]) }
                let name = "rules/\(file.lastPathComponent): \(group["description"]?.stringValue ?? "")"
                if group["screenError"]?.boolValue == true {
                    add(name, "screen refused", "validate", [screen, "{}", context, options], vector: ["error": true])
                }
                for test in group["tests"]?.arrayValue ?? [] {
                    let vector: JSONValue = [
                        "valid": test["valid"] ?? .null, "errors": test["errors"] ?? .array([]),
                        "deferred": test["deferred"] ?? .array([]),
                    ]
                    add(
                        name, test["description"]?.stringValue ?? "", "validate",
                        [screen, CanonicalJSON.string(test["answers"] ?? .null), context, options], vector: vector)
                }
            }
        }
        for file in try Self.files(root.appendingPathComponent("gating")) {
            for vector in try Self.read(file)["cases"]?.arrayValue ?? [] {
                var options = JSONObject()
                if let capabilities = vector["capabilities"] { options["capabilities"] = capabilities }
                if let step = vector["step"] { options["step"] = step }
                let document = CanonicalJSON.string(vector["flow"] ?? vector["screen"] ?? .null)
                add(
                    "gating/\(file.lastPathComponent)", vector["name"]?.stringValue ?? "", "gate",
                    [document, vector["core"]?.stringValue, CanonicalJSON.string(.object(options))],
                    vector: vector["expected"])
            }
        }
        for file in try Self.files(root.appendingPathComponent("replay")) {
            for group in try Self.read(file).arrayValue ?? [] {
                let flow = CanonicalJSON.string(group["flow"] ?? .null)
                for test in group["tests"]?.arrayValue ?? [] {
                    var vector = JSONObject()
                    vector["completed"] = test["completed"] ?? .null
                    if let answers = test["answers"] { vector["answers"] = answers }
                    if let refused = test["refused"] { vector["refused"] = refused }
                    add(
                        "replay/\(file.lastPathComponent): \(group["description"]?.stringValue ?? "")",
                        test["description"]?.stringValue ?? "", "replay",
                        [flow, CanonicalJSON.string(test["path"] ?? .null)], vector: .object(vector))
                }
            }
        }
        try Self.expressionCases(root.appendingPathComponent("expressions"), add: add)
        var generator = RandomScreenCases(seed: seed)
        for index in 0..<random {
            let (screen, answers, path, options) = generator.next()
            add("random", "case \(index)", "validate", [screen, answers, path, options])
            if index % 4 == 0 { add("random", "case \(index) gated", "gate", [screen, generator.core(), nil]) }
            if index % 16 == 0 { add("random", "case \(index) linted", "lint", [screen]) }
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: out))
        print("\(lines.count) cases → \(out)")
    }

    static func files(_ directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    static func read(_ file: URL) throws -> JSONValue {
        try JSONParser.parse(Array(try Data(contentsOf: file)))
    }
}
