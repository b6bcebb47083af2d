import ParleyCore
import Testing

/// Completion's replay of a whole path (DESIGN.md "Sessions"): valid walks complete with exactly
/// their answers, and any single tampering is refused with the entry and the reason.
@Suite(.timeLimit(.minutes(10))) struct PathReplayTests {
    let replay = PathReplay(flow: PathFixture.flow)

    func refusal(_ path: [PathReplay.Entry]) -> PathRefusal? {
        if case .refused(let refusal) = replay.replay(path) { return refusal }
        return nil
    }

    @Test func aValidWalkCompletesWithExactlyItsAnswers() {
        let path: [PathReplay.Entry] = [
            ("email", ["email": "a@example.com"]), ("purpose", ["purpose": "work"]),
            ("employer", ["employer": "Acme"]), ("confirm", ["emailAgain": "a@example.com", "visa": "V1"]),
            ("done", [:]),
        ]
        let expected: Answers = [
            "email": "a@example.com", "purpose": "work", "employer": "Acme", "emailAgain": "a@example.com",
            "visa": "V1",
        ]
        #expect(replay.replay(path) == .completed(expected))
    }

    @Test func everyRefusalNamesItsEntryAndReason() {
        let valid: [PathReplay.Entry] = [
            ("email", ["email": "a@example.com"]), ("purpose", ["purpose": "holiday"]),
            ("holiday", ["destination": "Lisbon"]), ("confirm", ["emailAgain": "a@example.com"]), ("done", [:]),
        ]
        #expect(refusal([]) == PathRefusal(index: 0, step: nil, reason: .emptyPath))
        #expect(
            refusal(Array(valid.dropFirst()))
                == PathRefusal(index: 0, step: "purpose", reason: .notAtStart(start: "email")))
        var unknown = valid
        unknown[2].step = "beach"
        #expect(
            refusal(unknown)
                == PathRefusal(
                    index: 1, step: "purpose", reason: .wrongTransition(chosen: "holiday", following: "beach")))
        #expect(
            refusal(Array(valid.dropLast()))
                == PathRefusal(index: 3, step: "confirm", reason: .notTerminal(chosen: "done")))
        var differs = valid
        differs[3].answers = ["emailAgain": "b@example.com"]
        let failure = refusal(differs)
        #expect(failure?.index == 3)
        #expect(
            failure.map { "\($0)" }
                == #"path entry 3 (step "confirm") has answers that fail its rules: "emailAgain" equalsField"#)
        #expect(failure.map { "\($0)" }?.contains("b@example.com") == false, "never an answer in a log line")
        var stray = valid
        stray.append(("nowhere", [:]))
        #expect(
            refusal(stray)
                == PathRefusal(index: 4, step: "done", reason: .wrongTransition(chosen: nil, following: "nowhere")))
    }

    /// The context a server builds for the next step must be what the replay reads: a step visited
    /// again replaces its fields, so an answer left out on the later visit is gone.
    @Test func answersAlongAPathReplaceARevisitedStep() {
        let path: [PathReplay.Entry] = [
            ("email", ["email": "a@example.com"]), ("purpose", ["purpose": "work"]),
            ("confirm", ["emailAgain": "a@example.com", "visa": "V1"]), ("confirm", ["emailAgain": "a@example.com"]),
            ("nowhere", ["stray": "s"]),
        ]
        #expect(
            replay.answers(along: path)
                == ["email": "a@example.com", "purpose": "work", "emailAgain": "a@example.com", "stray": "s"])
        #expect(replay.answers(along: []) == Answers())
    }

    @Test func anUnknownStepIsRefused() {
        let path: [PathReplay.Entry] = [("email", ["email": "a@example.com"]), ("purpose", ["purpose": "x"])]
        let lonely = PathReplay(flow: Flow(id: "f", start: "email", steps: []))
        #expect(lonely.replay(path) == .refused(PathRefusal(index: 0, step: "email", reason: .unknownStep)))
    }

    /// 200 random valid walks complete; each single tampering of each is refused.
    @Test func validWalksCompleteAndEveryTamperingIsRefused() {
        var random = SplitMix64(seed: 11)
        var tamperings = 0
        for _ in 0..<200 {
            let path = PathFixture.walk(&random)
            var merged = Answers()
            for entry in path { merged = merged.merging(entry.answers) }
            #expect(replay.replay(path) == .completed(merged))
            for tampered in Self.tamperings(of: path, &random) {
                #expect(refusal(tampered) != nil, "\(tampered.map(\.step))")
                tamperings += 1
            }
        }
        #expect(tamperings > 4_000)
    }

    /// Every single tampering: a skipped step, two neighbours swapped, a step repeated, a changed
    /// answer that fails a rule, a dropped required answer, an extra field, the branch answer flipped.
    static func tamperings(of path: [PathReplay.Entry], _ random: inout SplitMix64) -> [[PathReplay.Entry]] {
        var result: [[PathReplay.Entry]] = []
        for index in path.indices {
            var skipped = path
            skipped.remove(at: index)
            result.append(skipped)
            var repeated = path
            repeated.insert(path[index], at: index)
            result.append(repeated)
            if index + 1 < path.count {
                var swapped = path
                swapped.swapAt(index, index + 1)
                result.append(swapped)
            }
            for field in ["email", "employer", "stray", "emailAgain"] where path[index].answers[field] == nil {
                var extra = path
                extra[index].answers[field] = "x\(random.next() % 10)"
                result.append(extra)
            }
            for field in path[index].answers.fieldIds where field != "visa" || path[1].answers["purpose"] == "work" {
                var dropped = path
                dropped[index].answers[field] = nil
                result.append(dropped)
            }
        }
        var mismatch = path
        mismatch[3].answers["emailAgain"] = "other@example.com"
        result.append(mismatch)
        var badEmail = path
        badEmail[0].answers["email"] = "not an e-mail"
        result.append(badEmail)
        var flipped = path
        flipped[1].answers["purpose"] = path[1].answers["purpose"] == "work" ? "holiday" : "work"
        result.append(flipped)
        return result
    }
}
