import ParleyCore
import Testing

@Suite(.timeLimit(.minutes(10))) struct IRegexpTests {
    @Test(arguments: [
        ("^abc", 0), ("ab$", 2), ("a{2,1}", 1), ("(a", 0), ("a)", 1), ("\\d", 0), ("[z-a]", 1), ("a{1001}", 2),
        ("(a{2}){3}", 6), ("ab**", 3), ("[]", 1), ("\\p{Xx}", 0),
    ])
    func syntaxErrorsNameThePosition(pattern: String, position: Int) {
        let error = IRegexp.syntaxError(in: pattern)
        #expect(error?.position == position, "\(pattern): \(String(describing: error))")
        #expect(error?.reason.isEmpty == false)
    }

    @Test func tooLongPatternIsRefusedAtTheLimit() {
        let error = IRegexp.syntaxError(in: String(repeating: "a", count: 1_001))
        #expect(error?.position == 1_000)
        #expect(IRegexp.syntaxError(in: String(repeating: "a", count: 1_000)) == nil)
    }

    @Test func patternSyntaxHookReportsReasonAndPosition() {
        #expect(PatternSyntax.problem(in: "[A-Z]{2}") == nil)
        let problem = PatternSyntax.problem(in: "^[A-Z]{2}")
        #expect(problem?.contains("at character 0") == true, "\(problem ?? "nil")")
        #expect(problem?.contains("\\^") == true)
    }

    @Test func pathologicalPatternsRunInLinearTime() throws {
        let input = String(repeating: "a", count: 20_000)
        for pattern in ["(a|a)*b", "(a+)+b", "(.*a){20}b", "(a*)*b"] {
            let regexp = try IRegexp(pattern)
            let elapsed = ThreadCPUTime.measure { #expect(!regexp.matches(input)) }
            // CPU time, generous for debug builds; release figures are in the benchmark.
            #expect(elapsed < .seconds(2), "\(pattern) took \(elapsed)")
        }
    }

    @Test func matchesWholeValueOverScalars() throws {
        let regexp = try IRegexp("[0-9]{3}")
        #expect(regexp.matches("123"))
        #expect(!regexp.matches("1234"))
        #expect(!regexp.matches("x123"))
        #expect(try IRegexp("..").matches("\u{1F1E9}\u{1F1EA}"))
        #expect(try !IRegexp("\u{E4}").matches("a\u{308}"))
    }
}
