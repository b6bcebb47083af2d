import ParleyCore
import Testing

/// Lint of expressions beyond the table of cases: clean flows stay clean, warnings never block,
/// and hostile depth is refused without deep recursion.
@Suite struct ExpressionLintTests {
    @Test func aFlowUsingEveryFeatureLintsClean() {
        let problems = FlowLinter().lint(flow: Fixture.json(ExpressionModelTests.flow))
        // The fixture's issues are deliberate: an unknown expression form (which decodes, but is
        // never stored) and fields it reads without declaring inputs for them.
        #expect(Set(problems.map(\.code)) == ["invalidExpression", "unknownField"], "\(problems)")
        #expect(problems.filter { $0.code == "invalidExpression" }.map(\.pointer.description) == ["/computed/future"])
    }

    @Test func warningsDoNotBlockAndCarryTheirSeverity() {
        let document = Fixture.json(
            LintCase.expressionFlow(
                nodes: LintCase.input("purpose") + ", "
                    + #"{ "type": "textField", "id": "other", "visibleWhen": { "field": "purpose", "equals": "other" }, "properties": { "fieldId": "other" } }"#
                    + ", " + LintCase.input("again", rules: #"[ { "rule": "equalsField", "field": "other" } ]"#)))
        let problems = FlowLinter().lint(flow: document)
        // The warning did not stop the servability check, which refuses the flow for older cores.
        #expect(problems.map(\.code) == ["fieldMayBeHidden", "unservableStep"])
        #expect(problems.map(\.severity) == [.warning, .error])
        #expect(!problems[0].isError)
    }

    @Test func aTenThousandDeepExpressionIsRefusedWithoutDeepRecursion() {
        var expression: JSONValue = ["literal": "1"]
        for _ in 0..<10_000 { expression = ["round": expression, "scale": 0] }
        guard case .object(var flow) = Fixture.json(LintCase.expressionFlow(nodes: LintCase.input("name"))) else {
            Issue.record("fixture")
            return
        }
        flow["computed"] = ["deep": expression]
        let problems = FlowLinter().lint(flow: .object(flow))
        #expect(problems.contains { $0.code == "limitExceeded" && $0.pointer.tokens.count == 2 + 16 })
    }
}
