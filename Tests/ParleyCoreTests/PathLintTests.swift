import ParleyCore
import Testing

/// Lint of cross-step references (DESIGN.md "Sessions", issue 11): a rule may read a field of its
/// own step or of a step on every path from `start` to it, and nothing else.
@Suite(.timeLimit(.minutes(10))) struct PathLintTests {
    func codes(_ document: String) -> [String] {
        FlowLinter().lint(flow: Fixture.json(document)).map(\.code)
    }

    @Test func fieldsOnEveryPathAreAccepted() {
        let reads =
            #"[ { "rule": "equalsField", "field": "x" }, { "rule": "requiredIf", "when": { "field": "w", "present": true } } ]"#
        let document = LintCase.diamond(
            d: LintCase.input("w") + ", " + LintCase.input("v", rules: reads),
            dNext:
                #"[ { "when": { "all": [ { "field": "x", "equals": "1" }, { "field": "w", "in": ["a"] } ] }, "goto": "e" }, { "goto": "e" } ]"#
        )
        #expect(codes(document).isEmpty)
        #expect(codes(PathFixture.flowJSON).isEmpty)
    }

    @Test func theMessageNamesTheFieldAndBothSteps() throws {
        let document = LintCase.diamond(d: LintCase.input("w", rules: #"[ { "rule": "equalsField", "field": "y" } ]"#))
        let problems = FlowLinter().lint(flow: Fixture.json(document))
        let problem = try #require(problems.first { $0.code == "fieldNotOnEveryPath" })
        #expect(
            problem.message
                == #"equalsField names the field "y" of step "b", which is not on every path from "start" to step "d": a user can reach this step without answering it."#
        )
        #expect(problems.count == 1, "\(problems)")
    }

    @Test func includeStillNamesAnyFieldOfTheFlow() {
        let button = LintCase.button(
            #"{ "type": "network", "request": { "method": "POST", "path": "notes", "include": ["y", "z", "w"] } }"#)
        #expect(!codes(LintCase.diamond(d: LintCase.input("w") + ", " + button)).contains("fieldNotOnEveryPath"))
    }

    /// A screen document has no path: a reference to another screen's field stays `unknownField`,
    /// with a hint that such references belong in a flow.
    @Test func aScreenDocumentNamingAnotherScreensFieldIsUnknownField() {
        let screen = Fixture.screen(nodes: LintCase.input("emailAgain", rules: #"{ "equalsField": "email" }"#))
        let problems = FlowLinter().lint(screen: Fixture.json(screen))
        #expect(problems.map(\.code) == ["unknownField"])
        #expect(problems.first?.message.hasSuffix("Fields of earlier steps can be named only within a flow.") == true)
    }

    @Test func unknownFieldsAndUnreachableStepsKeepTheirOwnCodes() {
        let unknown = LintCase.diamond(
            d: LintCase.input("w", rules: #"[ { "rule": "equalsField", "field": "nope" } ]"#))
        #expect(codes(unknown) == ["unknownField"])
        let orphan = Fixture.flow(
            root: LintCase.input("q"),
            extraSteps:
                #", { "id": "b", "screen": { "id": "b", "root": \#(LintCase.input("r", rules: #"{ "equalsField": "q" }"#)) } }"#
        )
        #expect(codes(orphan) == ["unreachableStep"])
    }

    /// On random step graphs, a reference is refused exactly when removing the referenced step
    /// leaves another way from `start` to the referring one (the definition of dominance).
    @Test func agreesWithBruteForceDominanceOnRandomGraphs() {
        var random = SplitMix64(seed: 2026)
        var refused = 0
        var accepted = 0
        for _ in 0..<300 {
            let count = 2 + Int(random.next() % 7)
            var edges: [[Int]] = (0..<count).map { _ in
                (0..<Int(random.next() % 3)).map { _ in Int(random.next() % UInt64(count)) }
            }
            edges[0].append(1 + Int(random.next() % UInt64(count - 1)))
            let target = 1 + Int(random.next() % UInt64(count - 1))
            let candidate = Int(random.next() % UInt64(count))
            guard candidate != target, Self.reaches(edges, from: 0, to: target, avoiding: nil) else { continue }
            let expectRefusal = Self.reaches(edges, from: 0, to: target, avoiding: candidate)
            let document = Self.flow(edges, target: target, candidate: candidate)
            #expect(
                codes(document).contains("fieldNotOnEveryPath") == expectRefusal,
                "\(edges) target \(target) candidate \(candidate)")
            if expectRefusal { refused += 1 } else { accepted += 1 }
        }
        #expect(refused > 30 && accepted > 30, "refused \(refused), accepted \(accepted)")
    }

    static func reaches(_ edges: [[Int]], from start: Int, to target: Int, avoiding: Int?) -> Bool {
        guard start != avoiding else { return false }
        var seen: Set<Int> = [start]
        var pending = [start]
        while let current = pending.popLast() {
            if current == target { return true }
            for next in edges[current] where next != avoiding && seen.insert(next).inserted { pending.append(next) }
        }
        return false
    }

    /// Step `s<i>` holds field `f<i>`; the target step also holds `ref`, equal to the candidate's field.
    static func flow(_ edges: [[Int]], target: Int, candidate: Int) -> String {
        let steps = edges.enumerated().map { index, targets in
            var nodes = LintCase.input("f\(index)")
            if index == target {
                nodes += ", " + LintCase.input("ref", rules: #"{ "equalsField": "f\#(candidate)" }"#)
            }
            let next = targets.map { #"{ "goto": "s\#($0)" }"# }.joined(separator: ", ")
            return
                #"{ "id": "s\#(index)", "screen": { "id": "s\#(index)", "root": { "type": "vstack", "id": "root", "children": [ \#(nodes) ] } }, "next": [ \#(next) ] }"#
        }
        return
            #"{ "schema": "parley.flow/1", "id": "g", "start": "s0", "steps": [ \#(steps.joined(separator: ", ")) ] }"#
    }
}
