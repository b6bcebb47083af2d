import ParleyCore
import Testing

/// ``JSONCalls``: the JSON-text interface parley-core.wasm exports (docs/webassembly.md). The
/// WebAssembly side is checked against these very outputs by deploy/wasm-test.
@Suite(.timeLimit(.minutes(10))) struct JSONCallsTests {
    static let screen = #"""
        {"schema":"parley.screen/1","id":"s","root":{"type":"vstack","id":"root","children":[
          {"type":"textField","id":"code","properties":{"fieldId":"code","validation":[
            {"rule":"required"},{"rule":"pattern","value":"[A-Z]{2}"},{"rule":"futureRule"}]}},
          {"type":"datePicker","id":"when","properties":{"fieldId":"when","validation":[{"rule":"date"}]}}]}}
        """#

    static func text(_ name: String, _ arguments: [String?]) -> String? {
        JSONCalls.call(name, arguments.map { $0.map { Array($0.utf8) } }).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func validateAnswersAsTheInterpreterInServerModeByDefault() throws {
        let output = try #require(Self.text("validate", [Self.screen, #"{"code":"ab","stray":"x"}"#]))
        let screen = try Screen.decode(Self.screen)
        let expected = RuleInterpreter(mode: .server).validate(
            screen: screen, answers: try Answers(try JSONParser.parse(#"{"code":"ab","stray":"x"}"#)))
        #expect(output == CanonicalJSON.string(expected.json))
        #expect(output.contains(#""rule":"unexpectedField""#))
    }

    @Test func clientModeDefersUnknownRulesAndThePathIsRead() throws {
        let output = try #require(
            Self.text("validate", [Self.screen, #"{"code":"AB"}"#, #"{"earlier":"1"}"#, #"{"mode":"client"}"#]))
        #expect(output == #"{"deferred":[{"field":"code","rule":"futureRule"}],"errors":[],"valid":true}"#)
    }

    @Test func unusableInputIsAnErrorObjectNamingTheArgument() {
        #expect(Self.text("validate", ["{", "{}"])?.hasPrefix(#"{"error":"screen is not valid JSON: line 1"#) == true)
        #expect(Self.text("validate", [Self.screen, "[]"])?.hasPrefix(#"{"error":"answers: "#) == true)
        #expect(
            Self.text("validate", [Self.screen, "{}", nil, #"{"mode":"lenient"}"#])
                == #"{"error":"options.mode must be \"server\" or \"client\""}"#)
        let flow =
            #"{"schema":"parley.flow/1","id":"f","start":"a","steps":[{"id":"a","screen":"#
            + Self.screen + #","next":[]}]}"#
        #expect(
            Self.text("validate", [flow, "{}"]) == #"{"error":"screen is a flow: name a step with options.step"}"#)
        #expect(
            Self.text("validate", [flow, #"{"code":"AB"}"#, nil, #"{"step":"a"}"#])?.contains(#""valid":"#) == true)
        #expect(Self.text("gate", [Self.screen, "1.x"])?.hasPrefix(#"{"error":"coreVersion: "#) == true)
        #expect(Self.text("nothing", []) == nil)
    }

    @Test func gateServesWhatGETScreensServes() throws {
        let gated = try #require(Self.text("gate", [Self.screen, "1.1.0"]))
        let expected = Gate(capabilities: CapabilitySet(core: CoreVersion(1, 1, 0))).gate(
            try Screen.decode(Self.screen))
        #expect(gated == String(decoding: expected.canonicalBytes, as: UTF8.self))
        #expect(gated.contains(#""needsUpgrade":true"#), "datePicker is a 1.2 input")
        #expect(
            Self.text("gate", [Self.screen, nil]) == Self.text("gate", [Self.screen, "1.0.0"]), "absent: the floor")
        let custom = try #require(
            Self.text("gate", [Self.screen, "2.0.0", #"{"capabilities":{"remove":["rule:pattern"]}}"#]))
        #expect(custom.contains(#""deferred":[{"field":"code","rule":"pattern"}"#), "a core build without pattern")
        let flow =
            #"{"schema":"parley.flow/1","id":"f","start":"a","steps":[{"id":"a","screen":"#
            + Self.screen + #","next":[]}]}"#
        let step = try #require(Self.text("gate", [flow, "2.0.0"]))
        #expect(step.contains(#""flow":"f""#) && step.contains(#""served":"step""#) && step.contains(#""step":"a""#))
    }

    @Test func lintIsWhatParleyLintJSONPrints() throws {
        let output = try #require(Self.text("lint", [Self.screen]))
        #expect(output == CanonicalJSON.string(.object(LintResult(bytes: Array(Self.screen.utf8)).json)))
        #expect(output.contains(#""code":"unknownRuleKind""#) && output.contains(#""valid":false"#))
        #expect(Self.text("lint", ["nope"])?.contains(#""error":"not valid JSON at line 1"#) == true)
    }

    @Test func versionIsTheNewestCoreAndEveryNameAnswers() {
        #expect(Self.text("version", []) == CoreVersion.newest.description)
        for name in JSONCalls.names { #expect(Self.text(name, []) != nil, "\(name)") }
    }

    /// Counts read the same on 32- and 64-bit cores; exponents are 64-bit everywhere.
    @Test func countsAndExponentsAreTheSameOnEveryPlatform() throws {
        #expect(JSONNumber(parsing: "2147483647")?.countValue == 2_147_483_647)
        #expect(JSONNumber(parsing: "2147483648")?.countValue == nil)
        #expect(JSONNumber(parsing: "2e3")?.countValue == 2000)
        #expect(JSONNumber(parsing: "-1")?.countValue == nil && JSONNumber(parsing: "1.5")?.countValue == nil)
        #expect(JSONNumber(parsing: "1e999999999999")?.exponent == 999_999_999_999)
        let tooLong =
            #"{"schema":"parley.screen/1","id":"s","root":{"type":"textField","id":"f","properties":{"fieldId":"f","validation":[{"rule":"minLength","value":3000000000}]}}}"#
        #expect(throws: ModelDecodingError.self) { try Screen.decode(tooLong) }
    }
}
