import Flows
import ParleyCore
import Testing

/// `parley samples` on every flow this build ships: every label holds.
@Suite(.timeLimit(.minutes(10))) struct ShippedFlowSamplesTests {
    static let cores = ["1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"]

    @Test(arguments: ShippedFlows.all.map(\.id))
    func everySampleOfEveryStepIsConfirmed(flowId: String) throws {
        let flow = try #require(ShippedFlows.all.first { $0.id == flowId })
        let samples = try #require(SampleGenerator(seed: 11).samples(for: flow))
        #expect(samples.steps.map(\.step) == flow.steps.map(\.id))
        for (step, stepSamples) in zip(flow.steps, samples.steps) {
            if !step.screen.inputs.isEmpty {
                #expect(stepSamples.isValid, "\(flowId)/\(step.id) has answers that pass")
            }
            for sample in stepSamples.samples {
                #expect(
                    sample.isConfirmed(by: step.screen, context: stepSamples.context),
                    "\(flowId)/\(step.id): \(CanonicalJSON.string(sample.json))")
            }
            let failing = stepSamples.samples.filter { $0.expectation == .fail }.count
            let rules = step.screen.inputs.reduce(0) { $0 + $1.validation.count }
            #expect(failing + stepSamples.gaps.filter { $0.expectation == .fail }.count == rules)
        }
    }

    @Test(arguments: cores)
    func aCoreMarksExactlyTheRulesItDefers(core: String) throws {
        let capabilities = CapabilitySet(core: try CoreVersion(parsing: core))
        for flow in ShippedFlows.all {
            let samples = try #require(SampleGenerator().samples(for: flow, capabilities: capabilities))
            for (step, stepSamples) in zip(flow.steps, samples.steps) {
                for sample in stepSamples.samples {
                    let node = try #require(step.screen.inputs.first { $0.fieldId == sample.field })
                    let rule = node.validation[try #require(sample.ruleIndex)]
                    #expect(sample.isDeferred == !capabilities.supports(rule: rule), "\(flow.id)/\(step.id) \(core)")
                }
            }
        }
    }
}
