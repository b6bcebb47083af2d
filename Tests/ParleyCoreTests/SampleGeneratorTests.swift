import Foundation
import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct SampleGeneratorTests {
    /// A 20-field screen with 60 rules covering every rule kind the interpreter knows: the one step
    /// of `Tests/Fixtures/wide-flow.json`, which `parley samples` is tested on too.
    static let wideScreen: String = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wide-flow.json").path
        guard let data = FileManager.default.contents(atPath: path),
            let flow = try? JSONParser.parse(Array(data)),
            let screen = flow["steps"]?.arrayValue?.first?["screen"]
        else { return "missing fixture \(path)" }
        return CanonicalJSON.string(screen)
    }()

    static func input(_ field: String, _ rules: String) -> String {
        #"{"type": "textField", "id": "\#(field)", "properties": {"fieldId": "\#(field)", "validation": [\#(rules)]}}"#
    }

    static func screen(_ text: String) throws -> Screen {
        try Screen(json: try JSONParser.parse(text), at: .root)
    }

    static func step(_ screen: Screen) -> Step { Step(id: screen.id, screen: screen) }

    @Test func everyLabelIsConfirmedAndEveryKindHasAFailingSample() throws {
        let screen = try Self.screen(Self.wideScreen)
        #expect(screen.inputs.count == 20)
        #expect(screen.inputs.reduce(0) { $0 + $1.validation.count } >= 60)
        let samples = SampleGenerator(seed: 7).samples(for: Self.step(screen))
        #expect(samples.isValid, "the base answers pass the whole screen")
        for sample in samples.samples {
            #expect(sample.isConfirmed(by: screen), "\(CanonicalJSON.string(sample.json))")
        }
        let failing = Set(samples.samples.filter { $0.expectation == .fail }.compactMap(\.rule))
        #expect(failing == Set(Rule.knownKinds), "missing: \(Set(Rule.knownKinds).subtracting(failing).sorted())")
        // Every rule of every field gets its failing sample (none is impossible on this screen).
        #expect(samples.gaps.filter { $0.expectation == .fail } == [], "\(samples.gaps.map(\.json))")
    }

    @Test func sameSeedSameBytesOtherSeedOtherLetters() throws {
        let screen = try Self.screen(Self.wideScreen)
        let first = CanonicalJSON.string(SampleGenerator(seed: 42).samples(for: Self.step(screen)).json)
        let again = CanonicalJSON.string(SampleGenerator(seed: 42).samples(for: Self.step(screen)).json)
        let other = CanonicalJSON.string(SampleGenerator(seed: 43).samples(for: Self.step(screen)).json)
        #expect(first == again)
        #expect(first != other, "the seed picks the scalars of free-form values")
    }

    /// Boundary values sit exactly at the bound: one scalar, one unit or one day either side.
    @Test func failingSamplesSitOnTheBoundary() throws {
        let screen = try Self.screen(Self.wideScreen)
        let samples = SampleGenerator(seed: 1).samples(for: Self.step(screen)).samples
        func value(_ field: String, _ rule: String, _ expectation: Sample.Expectation) -> String? {
            samples.first { $0.field == field && $0.rule == rule && $0.expectation == expectation }?.value
        }
        #expect(value("name", "minLength", .fail)?.unicodeScalars.count == 1)
        #expect(value("name", "maxLength", .fail)?.unicodeScalars.count == 21)
        #expect(value("name", "maxLength", .pass)?.unicodeScalars.count == 20)
        #expect(value("age", "minimum", .fail) == "17")
        #expect(value("age", "maximum", .fail) == "121")
        #expect(value("rate", "exclusiveMinimum", .fail) == "0")
        #expect(value("birth", "date", .fail) == "1899-12-31")
        #expect(value("start", "date", .pass) == "2024-02-29")
        #expect(value("company", "requiredIf", .fail) == "")
        #expect(samples.first { $0.field == "company" && $0.expectation == .fail }?.answers["kind"] == "business")
    }

    /// Strings walked through the automaton match their pattern at every length the walk reaches.
    @Test(arguments: ["[A-Z]{2}", "(ab|cd)+x", "\\p{Lu}\\p{Nd}{3}", "[^a-z]{2,5}", "a*", "(0|[1-9][0-9]*)[.][0-9]{2}"])
    func patternWalkBuildsMatchingStrings(pattern: String) throws {
        let screen = try Self.screen(
            #"{"schema": "parley.screen/1", "id": "p", "root": "#
                + Self.input("f", #"{"rule": "pattern", "value": "\#(pattern.replacingBackslashes)"}"#) + "}")
        let samples = SampleGenerator(seed: 3).samples(for: Self.step(screen))
        #expect(samples.samples.contains { $0.expectation == .pass && !$0.value.isEmpty })
        #expect(samples.samples.contains { $0.expectation == .fail })
        for sample in samples.samples { #expect(sample.isConfirmed(by: screen), "\(sample.value)") }
    }

    /// A rule that no answer can fail alone is a gap, never a wrong label.
    @Test func impossibleLabelsAreGaps() throws {
        let screen = try Self.screen(
            #"{"schema": "parley.screen/1", "id": "g", "root": "#
                + Self.input("f", #"{"rule": "required"}, {"rule": "minLength", "value": 1}"#) + "}")
        let samples = SampleGenerator().samples(for: Self.step(screen))
        #expect(samples.gaps.contains { $0.rule == "minLength" && $0.expectation == .fail })
        for sample in samples.samples { #expect(sample.isConfirmed(by: screen)) }
    }
}

extension String {
    /// Escapes backslashes for embedding in a JSON string literal.
    fileprivate var replacingBackslashes: String {
        var result = ""
        for scalar in unicodeScalars {
            result.unicodeScalars.append(contentsOf: scalar == "\\" ? ["\\", "\\"] : [scalar])
        }
        return result
    }
}
