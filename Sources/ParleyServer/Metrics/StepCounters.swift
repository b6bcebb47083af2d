/// The `parley_session_steps_total` series that answers count, kept by reference per event loop
/// (``LoopShards``): every answer counts its step, and through ``MetricsRegistry/increment(_:labels:by:)``
/// that built four labels (the version as a new string), hashed them and looked them up under the
/// registry's one lock (~2,500 instructions an answer). Here an answer compares its flow, version
/// and step with the few its loop counted last and adds to the series' counter.
final class StepCounters: Sendable {
    /// What an answer's validation decided: the series' `outcome` label.
    enum Outcome: Sendable {
        case valid
        case invalid

        var label: String {
            switch self {
            case .valid: "valid"
            case .invalid: "invalid"
            }
        }
    }

    private struct Entry: Sendable {
        let flowId: String
        let version: Int
        let step: String
        let outcome: Outcome
        let counter: MetricsRegistry.Counter
    }

    /// Steps kept per loop: a bench walks a few flows, a real service a few dozen steps at once;
    /// past this the oldest is dropped (its series stays in the registry, found again there).
    static let capacity = 32

    private let metrics: MetricsRegistry
    private let entries = LoopShards<[Entry]> { [] }

    init(metrics: MetricsRegistry) { self.metrics = metrics }

    /// Counts one answer of `step` of `flowId` at `version` on loop `loop`.
    func count(flowId: String, version: Int, step: String, outcome: Outcome, loop: Int) {
        let known = entries.withLock(loop: loop) { entries -> MetricsRegistry.Counter? in
            for entry in entries
            where entry.version == version && entry.outcome == outcome && entry.step == step
                && entry.flowId == flowId
            {
                return entry.counter
            }
            return nil
        }
        if let known { return known.add() }
        let counter = metrics.counter(
            incrementing: Metric.sessionSteps,
            labels: [("flow", flowId), ("version", String(version)), ("step", step), ("outcome", outcome.label)])
        entries.withLock(loop: loop) { entries in
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(Entry(flowId: flowId, version: version, step: step, outcome: outcome, counter: counter))
        }
    }
}
