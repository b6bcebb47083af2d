import ParleyCore

extension GatingBenchmark {
    /// Answers a person might give the shipped flows' fields: a path through travel-insurance's
    /// expressions (the "other" purpose shown, a premium of 55, a French address).
    static let sampleAnswers: [String: String] = [
        "purpose": "other", "otherPurpose": "A wedding", "tripCost": "1200", "travellers": "2", "days": "7",
        "firstName": "Ana", "email": "ana@example.com", "country": "FR", "bookingReference": "",
        "medicalNotes": "none", "street": "1 rue de la Paix", "postcode": "75002", "city": "Paris",
    ]

    /// Issue 25's performance line: for every flow with expressions, every step as a session
    /// serves it — resolved from the path's answers (``SnapshotResolver``), gated for the core, and
    /// the step's answers evaluated (visibility, clearing, computed values, templates, rules and
    /// `next`: ``StepEvaluation``) — cold, per core; prints the heaviest step (goal < 50 µs).
    func runExpressions(_ flows: [Flow], cores: [CoreVersion]) {
        let withExpressions = flows.filter { flow in
            !flow.computed.isEmpty || flow.steps.contains { SnapshotResolver.needsResolution($0.screen) }
        }
        for flow in withExpressions {
            print("\(flow.id): gating plus expression evaluation of each step as a session serves it, cold, CPU µs")
            var context = Answers()
            var steps: [(step: Step, context: Answers, answers: Answers)] = []
            for step in flow.steps {
                var own: [String: String] = [:]
                for input in step.screen.inputs {
                    if let field = input.fieldId, let value = Self.sampleAnswers[field] { own[field] = value }
                }
                steps.append((step, context, Answers(own)))
                for (field, value) in own { context[field] = value }
            }
            for core in cores {
                let live = CapabilitySet(core: core).resolvesTemplates
                var measured: [(step: String, microseconds: Double)] = []
                for (step, context, answers) in steps {
                    let microseconds = Self.measure(iterations) {
                        var served = flow
                        let index = flow.steps.firstIndex { $0.id == step.id }!
                        served.steps[index].screen =
                            SnapshotResolver.resolve(flow: flow, step: step, context: context, liveExpressions: live)
                            .screen
                        let gated = Gate(core: core).gate(served, step: step.id)
                        let evaluation = StepEvaluation.evaluate(
                            flow: flow, step: step, answers: answers, context: context)
                        return (gated?.report.count ?? 0) + evaluation.cleared.count
                    }
                    measured.append((step.id, microseconds))
                }
                guard let heaviest = measured.max(by: { $0.microseconds < $1.microseconds }) else { continue }
                let verdict = heaviest.microseconds < 50 ? "under" : "OVER"
                print(
                    "core \(core): heaviest step \(heaviest.step) \(Self.format(heaviest.microseconds)) µs; "
                        + measured.map { "\($0.step) \(Self.format($0.microseconds))" }.joined(separator: ", ")
                        + "; \(verdict) the 50 µs goal")
            }
        }
    }
}
