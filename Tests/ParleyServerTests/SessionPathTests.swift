import ParleyCore
import Testing

@testable import ParleyServer

/// A session's path shares its storage along a walk, and no state ever sees another state's steps.
@Suite(.timeLimit(.minutes(10))) struct SessionPathTests {
    private func entry(_ step: String) -> PathEntry {
        PathEntry(step: step, answers: ["field": step])
    }

    private func steps(_ path: SessionPath) -> [String] {
        path.map(\.step)
    }

    @Test func aWalkAppendsStepByStepAndEveryEarlierStateKeepsItsSteps() {
        var states: [SessionPath] = [SessionPath()]
        for index in 1...40 { states.append(states[states.count - 1].appending(entry("s\(index)"))) }
        for (length, state) in states.enumerated() {
            #expect(steps(state) == (0..<length).map { "s\($0 + 1)" })
        }
        #expect(states[40][39].answers["field"] == "s40")
    }

    @Test func twoChangesFromTheSameStateEachSeeOnlyTheirOwnStep() {
        let start: SessionPath = [entry("a"), entry("b")]
        let first = start.appending(entry("c"))
        let second = start.appending(entry("x"))
        #expect(steps(start) == ["a", "b"])
        #expect(steps(first) == ["a", "b", "c"])
        #expect(steps(second) == ["a", "b", "x"])
        #expect(steps(second.appending(entry("y"))) == ["a", "b", "x", "y"])
        #expect(steps(first.appending(entry("d"))) == ["a", "b", "c", "d"])
    }

    @Test func goingBackThenAnsweringAgainLeavesTheUndoneStepWithTheOlderState() {
        let walked: SessionPath = [entry("a"), entry("b"), entry("c")]
        let back = walked.droppingLast()
        #expect(steps(back) == ["a", "b"])
        let again = back.appending(entry("other"))
        #expect(steps(again) == ["a", "b", "other"])
        #expect(steps(walked) == ["a", "b", "c"])
        #expect(SessionPath([entry("a")]).droppingLast().isEmpty)
    }

    @Test func concurrentChangesFromOneStateNeverMixTheirSteps() async {
        let start: SessionPath = [entry("a")]
        let results = await withTaskGroup(of: [String].self) { group in
            for writer in 0..<16 {
                group.addTask {
                    var path = start
                    for step in 0..<20 { path = path.appending(PathEntry(step: "w\(writer)-\(step)", answers: [:])) }
                    return path.map(\.step)
                }
            }
            var all: [[String]] = []
            for await steps in group { all.append(steps) }
            return all
        }
        #expect(results.count == 16)
        for steps in results {
            guard let writer = steps.last?.split(separator: "-").first else {
                Issue.record("a walk lost its steps")
                continue
            }
            #expect(steps == ["a"] + (0..<20).map { "\(writer)-\($0)" })
        }
        #expect(steps(start) == ["a"])
    }
}
