/// The samples of one step (see ``SampleGenerator``).
public struct StepSamples: Sendable, Equatable {
    /// The step id.
    public let step: String
    /// Answers of earlier steps the samples assume (send them as `context` to `POST /v1/flows/{flow}/validate`).
    public let context: Answers
    /// Answers for every input that pass every rule of the step (when ``isValid``).
    public let answers: Answers
    /// Whether ``answers`` pass the whole step; `false` when some input's rules cannot all hold at once.
    public let isValid: Bool
    /// The labelled samples, inputs in document order, rules in order, pass before fail.
    public let samples: [Sample]
    /// Labels the generator could not build.
    public let gaps: [SampleGap]

    /// Wire form: `{"step", "context", "answers", "valid", "samples", "gaps"}`.
    public var json: JSONValue {
        [
            "step": .string(step), "context": context.json, "answers": answers.json, "valid": .bool(isValid),
            "samples": .array(samples.map { $0.json }), "gaps": .array(gaps.map { $0.json }),
        ]
    }
}

/// The samples of a flow: the `parley.samples/1` document `parley samples` prints.
public struct FlowSamples: Sendable, Equatable {
    /// The flow id.
    public let flow: String
    /// The seed the samples derive from.
    public let seed: UInt64
    /// One entry per sampled step, in flow order.
    public let steps: [StepSamples]

    /// Wire form: `{"schema": "parley.samples/1", "flow", "seed", "steps"}`.
    public var json: JSONValue {
        [
            "schema": "parley.samples/1", "flow": .string(flow),
            "seed": .number(JSONNumber(parsing: String(seed)) ?? JSONNumber(0)),
            "steps": .array(steps.map { $0.json }),
        ]
    }
}
