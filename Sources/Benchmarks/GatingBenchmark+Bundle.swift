import Foundation
import ParleyCore

extension GatingBenchmark {
    /// Gates every step of every flow in a bundle (`parley bundle build`, i.e. the shipped flows)
    /// for every core, cold: a fresh ``Gate`` per call and no screen cache, as on a cache miss or
    /// a client core rendering a step. Prints, per core, the slowest step and the median step.
    func runBundle(_ path: String, cores: [CoreVersion]) throws {
        let document = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let flows = try (document["flows"]?.arrayValue ?? []).map { try Flow(json: $0, at: .root) }
        let steps = flows.flatMap { flow in flow.steps.map { (flow: flow, step: $0.id) } }
        print("gating every step of \(flows.count) shipped flows (\(steps.count) steps), cold, CPU µs per gate")
        for core in cores {
            var measured: [(name: String, microseconds: Double)] = []
            for (flow, step) in steps {
                let microseconds = Self.measure(iterations) {
                    Gate(core: core).gate(flow, step: step)?.report.count ?? 0
                }
                measured.append(("\(flow.id)/\(step)", microseconds))
            }
            measured.sort { $0.microseconds < $1.microseconds }
            guard let worst = measured.last else { continue }
            let median = measured[measured.count / 2]
            let verdict = worst.microseconds < 50 ? "under" : "OVER"
            print(
                "core \(core): slowest \(Self.format(worst.microseconds)) µs (\(worst.name)), median "
                    + "\(Self.format(median.microseconds)) µs, fastest \(Self.format(measured[0].microseconds)) µs; "
                    + "\(verdict) the 50 µs target")
        }
        runExpressions(flows, cores: cores)
    }
}
