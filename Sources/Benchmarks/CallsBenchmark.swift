import ArgumentParser
import Foundation
import ParleyCore

/// `parley-bench calls`: the native figures beside which Tests/WebAssembly/bench.mjs prints the
/// WebAssembly module's (issue 31): ``JSONCalls`` on JSON text, as `parley-core.mjs` calls it —
/// validate the 20-field screen, gate it for four cores. Writes the exact inputs to `--inputs`
/// so both sides time the same bytes. Prints figures, never fails on them.
struct CallsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calls", abstract: "JSONCalls (the WebAssembly module's interface) on the native build.")

    /// The cores a step is gated for.
    static let cores = ["1.0.0", "1.1.0", "1.2.0", "2.0.0", "2.1.0"]

    @Option(help: "Calls per round (best of five rounds is reported).")
    var iterations = 5_000

    @Option(help: "Write the screen and answers (JSON) here for the WebAssembly side.")
    var inputs: String?

    func run() async throws {
        let screen = RulesBenchmarkFixtures.screen
        let answers = CanonicalJSON.string(RulesBenchmarkFixtures.answers.json)
        if let inputs {
            let document: JSONValue = [
                "screen": .string(screen), "answers": .string(answers),
                "cores": .array(Self.cores.map { .string($0) }),
            ]
            try Data(CanonicalJSON.encode(document)).write(to: URL(fileURLWithPath: inputs))
        }
        let screenBytes = Array(screen.utf8)
        let answerBytes = Array(answers.utf8)
        let coreBytes = Self.cores.map { Array($0.utf8) }
        var sink = 0
        let validate = RulesBenchmark.best(iterations) {
            sink &+= JSONCalls.validate(screen: screenBytes, answers: answerBytes, path: nil, options: nil).count
        }
        let gate = RulesBenchmark.best(iterations / 4) {
            for core in coreBytes { sink &+= JSONCalls.gate(document: screenBytes, core: core, options: nil).count }
        }
        print(
            "native: validate 20-field screen (JSON text in and out): \(RulesBenchmark.format(validate)) µs per call; "
                + "gate for \(Self.cores.count) cores: \(RulesBenchmark.format(gate / Double(Self.cores.count))) µs per core "
                + "(\(sink > 0 ? "ok" : "?"))")
    }
}
