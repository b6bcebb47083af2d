import ParleyCore
import Testing

/// Random answers against every rule kind (fixed seed): the interpreter is
/// total — it never crashes, always reports at most one error per field, and
/// is deterministic.
@Suite(.timeLimit(.minutes(10))) struct RulesFuzzTests {
    static let rules: [String] = [
        #"{"rule":"required"}"#, #"{"rule":"minLength","value":3}"#, #"{"rule":"maxLength","value":4}"#,
        #"{"rule":"pattern","value":"[a-z]+(\\.[0-9]{1,3})?"}"#, #"{"rule":"oneOf","values":["a","ä"]}"#,
        #"{"rule":"equalsField","field":"f1"}"#, #"{"rule":"minimum","value":-1.5}"#,
        #"{"rule":"maximum","value":1e3}"#,
        #"{"rule":"exclusiveMinimum","value":0}"#, #"{"rule":"exclusiveMaximum","value":"1e999999999"}"#,
        #"{"rule":"multipleOf","value":0.25}"#, #"{"rule":"integer"}"#, #"{"rule":"email"}"#,
        #"{"rule":"date","min":"2000-01-01"}"#, #"{"rule":"requiredIf","when":{"field":"f0","present":true}}"#,
        #"{"rule":"someday"}"#,
    ]

    static let pieces: [String] = [
        "0", "1", "9", ".", "e", "E", "-", "+", "@", "[", "]", ":", "\"", "\\", "a", "z", "ä", "a\u{308}", " ", "\t",
        "\r\n", "😀", "\u{1F1E9}\u{1F1EA}", "2020-02-29", "IPv6:", "::", "x.y", "\u{0}", "\u{A0}",
    ]

    @Test func interpreterIsTotalAndDeterministic() throws {
        let children = Self.rules.enumerated().map { index, rule in
            #"{"type":"textField","id":"n\#(index)","properties":{"fieldId":"f\#(index)","validation":[\#(rule)]}}"#
        }
        let screen = try Screen.decode(
            #"{"schema":"parley.screen/1","id":"fuzz","root":{"type":"vstack","id":"r","children":["#
                + children.joined(separator: ",") + "]}}")
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            var answers = Answers()
            for index in 0..<Self.rules.count where random.next() % 4 != 0 {
                let length = Int(random.next() % 8)
                answers["f\(index)"] = (0..<length).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            }
            if random.next() % 5 == 0 { answers["stray"] = "x" }
            for mode in [RuleInterpreter.Mode.server, .client] {
                let outcome = RuleInterpreter(mode: mode).validate(screen: screen, answers: answers)
                #expect(outcome == RuleInterpreter(mode: mode).validate(screen: screen, answers: answers))
                let fields = outcome.errors.map { ScalarKey($0.field) }
                #expect(Set(fields).count == fields.count, "one error per field")
                #expect(outcome.valid == outcome.errors.isEmpty)
                #expect(mode == .server || outcome.deferred == [DeferredRule(field: "f15", rule: "someday")])
            }
        }
    }
}
