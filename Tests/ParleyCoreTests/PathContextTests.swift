import ParleyCore
import Testing

/// The interpreter with the answers of the path (DESIGN.md "Sessions", issue 11): fields of the
/// screen come from the step's answers, every other field from the earlier steps'.
@Suite(.timeLimit(.minutes(10))) struct PathContextTests {
    static let confirm = PathFixture.flow.step("confirm")!

    func rules(_ answers: Answers, context: Answers, mode: RuleInterpreter.Mode = .server) -> [String] {
        RuleInterpreter(mode: mode).validate(screen: Self.confirm.screen, answers: answers, context: context).errors
            .map { "\($0.field):\($0.rule)" }
    }

    @Test func equalsFieldReadsAnEarlierStep() {
        let context: Answers = ["email": "a@example.com", "purpose": "holiday"]
        #expect(rules(["emailAgain": "a@example.com"], context: context).isEmpty)
        #expect(rules(["emailAgain": "b@example.com"], context: context) == ["emailAgain:equalsField"])
        #expect(rules(["emailAgain": "a@example.com"], context: [:]) == ["emailAgain:equalsField"])
        // Scalar-exact: a decomposed "é" does not equal the precomposed one.
        #expect(rules(["emailAgain": "e\u{301}@x.io"], context: ["email": "\u{E9}@x.io"]) == ["emailAgain:equalsField"])
    }

    @Test func requiredIfReadsAnEarlierStep() {
        let work: Answers = ["email": "a@example.com", "purpose": "work"]
        #expect(rules(["emailAgain": "a@example.com"], context: work) == ["visa:requiredIf"])
        #expect(rules(["emailAgain": "a@example.com", "visa": "V1"], context: work).isEmpty)
    }

    @Test func aScreenFieldMissingFromTheAnswersIsAbsentWhateverTheContextSays() {
        let context: Answers = ["email": "a@example.com", "emailAgain": "a@example.com", "purpose": "holiday"]
        #expect(rules([:], context: context) == ["emailAgain:required"])
    }

    @Test func unexpectedFieldConcernsOnlyTheSubmittedAnswers() {
        let context: Answers = ["email": "a@example.com", "purpose": "holiday", "stray": "x"]
        #expect(rules(["emailAgain": "a@example.com"], context: context).isEmpty, "context is never unexpected")
        #expect(
            rules(["emailAgain": "a@example.com", "email": "a@example.com"], context: context)
                == ["email:unexpectedField"], "an earlier step's field submitted again here is")
        #expect(rules(["emailAgain": "a@example.com", "email": "x"], context: context, mode: .client).isEmpty)
    }

    @Test func aSubmittedFieldNotOnTheScreenIsNeverRead() {
        // Client mode ignores unexpected fields: the rule reads the earlier step's e-mail, not the stray one.
        let stray: Answers = ["emailAgain": "a@example.com", "email": "b@example.com"]
        #expect(rules(stray, context: ["email": "a@example.com"], mode: .client).isEmpty)
        #expect(rules(stray, context: [:], mode: .client) == ["emailAgain:equalsField"], "no context, no e-mail")
    }

    @Test func transitionsReadTheSameAnswersAsRules() throws {
        let purpose = try #require(PathFixture.flow.step("purpose"))
        #expect(purpose.nextStepId(for: ["purpose": "work"], context: ["purpose": "holiday"]) == "employer")
        #expect(
            purpose.nextStepId(for: [:], context: ["purpose": "work"]) == "holiday",
            "a screen field is never read from context")
        let confirm = Self.confirm
        #expect(confirm.nextStepId(for: [:], context: ["purpose": "work"]) == "done")
    }

    @Test func mergingLetsTheLaterAnswersWin() {
        let merged = (["a": "1", "b": "2"] as Answers).merging(["b": "3", "c": "4"])
        #expect(merged == ["a": "1", "b": "3", "c": "4"])
        #expect(Answers().merging(["x": "y"]) == ["x": "y"])
        #expect(Answers.onPath(["visa": "1"], context: [:], screen: Self.confirm.screen) == ["visa": "1"])
        #expect(Answers.onPath(["a": "1"], context: [:], screen: Self.confirm.screen) == [:])
        #expect(
            Answers.onPath([:], context: ["emailAgain": "x", "email": "y"], screen: Self.confirm.screen)
                == ["email": "y"])
    }

    @Test func existingCallersSeeNoContext() {
        let screen = Self.confirm.screen
        #expect(
            RuleInterpreter.validate(screen: screen, answers: ["emailAgain": "x"])
                == RuleInterpreter.validate(screen: screen, answers: ["emailAgain": "x"], context: Answers()))
    }
}
