import Foundation
import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct LintPropertyTests {
    static let seeds: [JSONValue] = [
        Fixture.json(Fixture.everyKindFlow),
        Fixture.json(Fixture.screen(nodes: LintCase.input("a") + ", " + LintCase.button(#"{ "type": "submit" }"#))),
        Fixture.json(
            #"""
            { "schema": "parley.bundle/1", "channel": "c", "source": { "commit": "abc" }, "flows": [
              \#(LintCase.network(#"{ "method": "POST", "path": "orders", "include": ["name"] }"#)) ] }
            """#
        ),
    ]

    /// 10,000 mutated documents: decoder and linter always return (a value or a
    /// typed error), pointers point into the document, and a document that lints
    /// clean always decodes and round-trips canonically.
    @Test func decoderAndLinterSurviveTenThousandMutations() throws {
        var mutator = DocumentMutator(random: SplitMix64(seed: 0x5EED_2026))
        let linter = FlowLinter()
        var clean = 0
        var decoded = 0
        for iteration in 0..<10_000 {
            let seed = Self.seeds[iteration % Self.seeds.count]
            let document = mutator.mutate(seed, times: 1 + iteration % 4)
            let problems = linter.lint(document: document)
            for problem in problems {
                let pointer = problem.pointer
                // The value itself, or where a missing member (or a member of a
                // missing `properties`) would be written.
                let inside = (0...2).contains { drop in
                    JSONPointer(tokens: Array(pointer.tokens.dropLast(drop))).resolve(in: document) != nil
                }
                #expect(inside, "\(problem) points outside the document")
                if !inside { Self.dump(document, "/tmp/fnd-pointer.json") }
            }
            let decodedDocument = Self.decode(document)
            if decodedDocument != nil { decoded += 1 }
            if problems.isEmpty {
                clean += 1
                let model = try #require(
                    decodedDocument, "lints clean but does not decode: \(CanonicalJSON.string(document))")
                let bytes = model.canonicalBytes
                let again = Self.decode(bytesOf: bytes)
                #expect(again == bytes, "canonical bytes do not decode to themselves")
                if again != bytes { Self.dump(document, "/tmp/fnd-roundtrip.json") }
            }
            if iteration.isMultiple(of: 10) {
                _ = try? Flow.decode(CanonicalJSON.encode(document))
            }
        }
        #expect(clean > 100, "the mutator should leave some documents clean (got \(clean))")
        #expect(decoded > clean, "the decoder is more tolerant than the linter")
    }

    /// The document decoded by its schema's type, or `nil` on a typed decoding error.
    static func decode(_ document: JSONValue) -> (any ParleyDocument)? {
        do throws(ModelDecodingError) {
            switch FlowLinter.documentKind(of: document) {
            case "screen": return try Screen(json: document, at: .root)
            case "bundle": return try Bundle(json: document, at: .root)
            default: return try Flow(json: document, at: .root)
            }
        } catch {
            #expect(!error.message.isEmpty)
            return nil
        }
    }

    static func dump(_ document: JSONValue, _ path: String) {
        try? Data(CanonicalJSON.encode(document)).write(to: URL(fileURLWithPath: path))
    }

    static func decode(bytesOf bytes: [UInt8]) -> [UInt8]? {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        return decode(value)?.canonicalBytes
    }

    @Test func hostileDepthIsBoundedWithoutRecursingThroughIt() {
        var value: JSONValue = "leaf"
        for _ in 0..<5_000 { value = .array([value]) }
        let document: JSONValue = ["schema": "parley.flow/1", "id": "f", "start": "a", "steps": value]
        let problems = FlowLinter().lint(document: document)
        #expect(Set(problems.map(\.code)) == ["wrongType", "limitExceeded", "unknownStep"])
    }
}
