import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct FlowLinterTests {
    @Test(arguments: LintCase.all)
    func reportsCodeAtPointer(_ lintCase: LintCase) {
        let problems = lintCase.problems()
        let found = problems.contains {
            $0.code == lintCase.code.rawValue && $0.pointer.description == lintCase.pointer
        }
        #expect(found, "expected \(lintCase.code) at \(lintCase.pointer), got \(problems)")
        #expect(problems.allSatisfy { !$0.message.isEmpty })
    }

    @Test func thereAreAtLeastThirtyCasesCoveringEveryCode() {
        #expect(LintCase.all.count >= 30)
        let covered = Set(LintCase.all.map(\.code))
        let uncovered = LintCode.allCases.filter { !covered.contains($0) }
        #expect(uncovered.isEmpty, "codes without a case: \(uncovered)")
    }

    @Test func everyKindFlowLintsClean() {
        let problems = FlowLinter().lint(document: Fixture.json(Fixture.everyKindFlow))
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func designExamplesLintClean() throws {
        let linter = FlowLinter()
        #expect(linter.lint(document: Fixture.json(CanonicalRoundTripTests.designScreen)).isEmpty)
        let bundle = Fixture.json(
            #"{ "schema": "parley.bundle/1", "channel": "production", "source": { "commit": "abc" }, "flows": [ \#(Fixture.everyKindFlow) ] }"#
        )
        #expect(linter.lint(document: bundle).isEmpty)
        #expect(try Bundle(json: bundle, at: .root).flows.map(\.id) == ["kitchen-sink"])
    }

    @Test func cleanCasesStayClean() {
        let linter = FlowLinter()
        let fallbackWithSameField = Fixture.flow(
            nodes: #"""
                { "type": "datePicker", "id": "d", "properties": { "fieldId": "born", "label": "Born" },
                  "fallback": { "type": "textField", "id": "d2", "properties": { "fieldId": "born", "label": "Born" } } },
                { "type": "carousel", "id": "c", "children": [ { "type": "toggle", "id": "t", "properties": { "fieldId": "ok" } } ],
                  "fallback": { "type": "vstack", "id": "c2", "children": [
                    { "type": "toggle", "id": "t2", "properties": { "fieldId": "ok" } } ] } }
                """#)
        // Structurally clean; the toggle (core 1.2) leaves 1.0 and 1.1 without a way to answer "ok".
        #expect(FlowLinter(servabilityFloor: nil).lint(flow: Fixture.json(fallbackWithSameField)).isEmpty)
        #expect(linter.lint(flow: Fixture.json(fallbackWithSameField)).map(\.code) == ["unservableStep"])
        let screen = Fixture.screen(
            nodes: LintCase.input("a") + ", " + LintCase.input("b", rules: #"{ "equalsField": "a" }"#))
        #expect(linter.lint(document: Fixture.json(screen)).isEmpty)
        let queryPath = LintCase.network(#"{ "method": "GET", "path": "orders/v2.1/list?x=1..2", "include": [] }"#)
        #expect(linter.lint(flow: Fixture.json(queryPath)).isEmpty)
    }

    @Test func reportsEveryProblemAtOnce() {
        let document = Fixture.flow(
            nodes: #"""
                { "type": "map", "id": "x" }, { "type": "text", "id": "x" },
                { "type": "button", "id": "b", "properties": { "title": "Go", "action": { "type": "openUrl", "url": "http://a" } } },
                \#(LintCase.input("a", rules: #"[ { "rule": "minLength" }, { "rule": "equalsField", "field": "zz" } ]"#))
                """#,
        ).replacingFirst(#""start": "a""#, with: #""start": "b""#)
        let codes = Set(FlowLinter().lint(flow: Fixture.json(document)).map(\.code))
        #expect(
            codes == [
                "unknownComponentType", "duplicateNodeId", "openUrlNotHttps", "invalidRuleParameter", "unknownField",
                "unknownStep",
            ])
    }

    /// The linter reports exactly what the rules engine's I-Regexp check says
    /// (the `PatternSyntax` hook), at the pattern's pointer.
    @Test(arguments: ["[A-Z]{2}", "^abc", "a$", "(a|a)*b", "[", "a{2,1}", "(a{1,5}){1,5}", "\\p{Lu}+"])
    func patternProblemsComeFromTheHook(pattern: String) {
        let rule: JSONValue = ["rule": "pattern", "value": .string(pattern)]
        let node: JSONValue = [
            "type": "textField", "id": "t", "properties": ["fieldId": "t", "validation": [rule]],
        ]
        let screen: JSONValue = ["schema": "parley.screen/1", "id": "s", "root": node]
        let reported = FlowLinter().lint(screen: screen).filter { $0.code == "invalidPattern" }
        if let problem = PatternSyntax.problem(in: pattern) {
            #expect(reported.map(\.pointer.description) == ["/root/properties/validation/0/value"])
            #expect(reported.first?.message == problem)
        } else {
            #expect(reported.isEmpty)
        }
    }

    @Test func problemListIsCappedWithANote() {
        let nodes = (0..<50).map { #"{ "type": "hologram", "id": "n\#($0)" }"# }.joined(separator: ", ")
        let problems = FlowLinter(limits: DocumentLimits(maximumProblems: 10)).lint(
            flow: Fixture.json(Fixture.flow(nodes: nodes)))
        #expect(problems.count == 11)
        #expect(problems.prefix(10).allSatisfy { $0.code == "unknownComponentType" })
        #expect(problems.last?.code == "limitExceeded")
        #expect(problems.last?.pointer == .root)
    }

    @Test func documentDispatchesOnSchema() {
        let linter = FlowLinter()
        let screen = Fixture.json(Fixture.screen(nodes: #"{ "type": "map", "id": "m" }"#))
        #expect(linter.lint(document: screen) == linter.lint(screen: screen))
        #expect(linter.lint(document: screen).map(\.code) == ["unknownComponentType"])
        #expect(FlowLinter.documentKind(of: screen) == "screen")
        #expect(FlowLinter.documentKind(of: Fixture.json("{}")) == nil)
    }

    @Test func problemsCarryStableCodesAndReadableDescriptions() {
        let problem = LintProblem(
            .unknownStep, pointer: JSONPointer(tokens: ["steps", "a/b~"]), message: "No such step.")
        #expect(problem.code == "unknownStep")
        #expect(problem.lintCode == .unknownStep)
        #expect(problem.description == "/steps/a~1b~0: No such step. [unknownStep]")
        #expect(LintCode.allCases.allSatisfy { !$0.summary.isEmpty })
    }
}
