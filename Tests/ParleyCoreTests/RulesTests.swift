import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct RulesTests {
    static func number(_ text: String) -> JSONNumber { JSONNumber(parsing: text)! }

    @Test(arguments: [
        ("0.0075", "0.0001", true), ("0.00751", "0.0001", false), ("1e999999999", "3", false),
        ("3e999999999", "3", true), ("1e999999999", "1024", true), ("1e-999999999", "1", false), ("0", "7", true),
        ("246913578024691357802469135780", "123456789012345678901234567890", true),
        ("246913578024691357802469135781", "123456789012345678901234567890", false),
    ])
    func multiplesAreExact(value: String, divisor: String, expected: Bool) {
        #expect(Self.number(value).isMultiple(of: Self.number(divisor)) == expected)
    }

    /// Exact divisibility and order agree with integer arithmetic on every small case (scaled by 10^6).
    @Test func decimalArithmeticAgreesWithIntegers() {
        var cases = 0
        for significand in stride(from: -150, through: 150, by: 7) {
            for exponent in -3...3 {
                let value = JSONNumber(parsing: "\(significand)e\(exponent)")!
                let scaledValue = significand * Self.power(exponent + 6)
                for divisor in 1...12 {
                    for divisorExponent in -3...2 {
                        let step = JSONNumber(parsing: "\(divisor)e\(divisorExponent)")!
                        let scaledStep = divisor * Self.power(divisorExponent + 6)
                        #expect(value.isMultiple(of: step) == (scaledValue % scaledStep == 0), "\(value) / \(step)")
                        #expect((value < step) == (scaledValue < scaledStep))
                        cases += 1
                    }
                }
            }
        }
        #expect(cases > 20_000)
    }

    static func power(_ exponent: Int) -> Int { (0..<exponent).reduce(1) { value, _ in value * 10 } }

    @Test func enormousExponentsAreFast() {
        let elapsed = ThreadCPUTime.measure {
            for _ in 0..<1_000 {
                #expect(Self.number("1e999999999") > Self.number("99999999999999999999"))
                #expect(Self.number("7e999999999").isMultiple(of: Self.number("7")))
            }
        }
        #expect(elapsed < .seconds(1), "\(elapsed) of CPU")
        #expect(JSONNumber(parsing: "1e1000000000001") == nil, "beyond RuleLimits.maximumExponentMagnitude")
    }

    @Test func answersDecodeStringsAndNulls() throws {
        let answers = try Answers(try JSONParser.parse(#"{"b": "2", "a": "1", "c": null, "\u00e4": "x"}"#))
        #expect(answers.fieldIds == ["a", "b", "\u{E4}"])
        #expect(answers["a"] == "1")
        #expect(answers["c"] == nil)
        #expect(answers["a\u{308}"] == nil, "keys are scalar-exact")
        #expect(throws: AnswersError.self) { try Answers(try JSONParser.parse(#"{"a": 1}"#)) }
        #expect(throws: AnswersError.self) { try Answers(try JSONParser.parse("[]")) }
    }

    @Test func emptinessUsesTheFixedWhitespaceSet() {
        #expect(Answers.isEmpty(nil))
        #expect(Answers.isEmpty(" \t\r\n"))
        #expect(!Answers.isEmpty("\u{A0}"))
        #expect(!Answers.isEmpty("\u{3000}"))
    }

    @Test func predicatesAndTransitions() throws {
        let answers: Answers = ["purpose": "work", "name": " "]
        #expect(Predicate.equals(field: "purpose", value: "work").evaluate(answers))
        #expect(!Predicate.equals(field: "missing", value: "").evaluate(answers))
        #expect(!Predicate.present(field: "name", true).evaluate(answers))
        #expect(Predicate.not(.any([])).evaluate(answers))
        let screen = Screen(id: "s", root: Node(type: ComponentType(name: "vstack"), id: "root"))
        let step = Step(
            id: "country", screen: screen,
            next: [
                Transition(when: .equals(field: "purpose", value: "study"), goto: "school"),
                Transition(when: .isIn(field: "purpose", values: ["work", "travel"]), goto: "employer"),
                Transition(goto: "done"),
            ])
        #expect(step.nextStepId(for: answers) == "employer")
        #expect(step.nextStepId(for: ["purpose": "other"]) == "done")
        #expect(Step(id: "end", screen: screen).nextStepId(for: answers) == nil)
    }

    @Test func outcomeHasTheWireShape() throws {
        let screen = try Screen.decode(
            #"""
            {"schema": "parley.screen/1", "id": "s", "root": {"type": "textField", "id": "n",
              "properties": {"fieldId": "code", "validation": [{"rule": "pattern", "value": "[A-Z]{2}"}, {"rule": "soon"}]}}}
            """#)
        let client = RuleInterpreter(mode: .client).validate(screen: screen, answers: ["code": "x"])
        #expect(
            CanonicalJSON.string(client.json)
                == #"{"deferred":[{"field":"code","rule":"soon"}],"errors":[{"field":"code","message":"Must match the expected format.","rule":"pattern"}],"valid":false}"#
        )
        let server = RuleInterpreter.validate(screen: screen, answers: ["code": "DE", "extra": "1"])
        #expect(server.errors.map(\.rule) == ["soon", "unexpectedField"])
        #expect(server.deferred.isEmpty)
    }

    @Test func illFormedRulesAreReportedWithPointers() throws {
        let screen = try Screen.decode(
            #"""
            {"schema": "parley.screen/1", "id": "s", "root": {"type": "vstack", "id": "root", "children": [
              {"type": "textField", "id": "n", "properties": {"fieldId": "a", "validation": [
                {"rule": "required"}, {"rule": "pattern", "value": "^x"}, {"rule": "date", "min": "2020-02-30"}]}}]}}
            """#)
        let problems = screen.ruleProblems()
        #expect(problems.map(\.code) == ["invalidPattern", "invalidRuleParameter"])
        #expect(problems.first?.pointer.description == "/root/children/0/properties/validation/1")
        // The server fails closed on an ill-formed rule; a client defers it.
        let server = RuleInterpreter(mode: .server).validate(screen: screen, answers: ["a": "x"])
        #expect(server.errors.map(\.rule) == ["pattern"])
        let client = RuleInterpreter(mode: .client).validate(screen: screen, answers: ["a": "x"])
        #expect(client.valid && client.deferred.map(\.rule) == ["pattern", "date"])
    }
}
