import ArgumentParser
import ParleyCore

/// `parley-bench rules`: Rule interpreter and I-Regexp throughput.
///
/// Targets (issue 3): a 20-field screen validates in < 20 µs; I-Regexp time
/// grows linearly (10× input → ≤ 12× time); `(a|a)*b`, `(a+)+b`, `(.*a){20}`
/// on 20k characters each finish in < 50 ms. Prints figures, never fails on them.
struct RulesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Rule interpreter and I-Regexp throughput.")

    @Option(help: "Validations of the 20-field screen to time.")
    var iterations = 20_000

    func run() async throws {
        let clock = ContinuousClock()
        let screen = try Screen.decode(RulesBenchmarkFixtures.screen)
        let answers = RulesBenchmarkFixtures.answers
        let interpreter = RuleInterpreter(mode: .server)
        var sink = 0
        for _ in 0..<1_000 { sink &+= interpreter.validate(screen: screen, answers: answers).errors.count }
        // The machine is shared: report the best of five rounds, and the median.
        var rounds: [Double] = []
        for _ in 0..<5 {
            let elapsed = clock.measure {
                for _ in 0..<iterations { sink &+= interpreter.validate(screen: screen, answers: answers).errors.count }
            }
            rounds.append(Self.microseconds(elapsed) / Double(iterations))
        }
        rounds.sort()
        let perValidation = rounds[0]
        print(
            "20-field screen: \(Self.format(perValidation)) µs per validation (median of 5 rounds "
                + "\(Self.format(rounds[2])) µs), \(Int(1_000_000 / perValidation)) validations/s on one core "
                + "(target < 20 µs)")

        // Sessions validate with the answers of the path (issue 11): what reading through them costs.
        var context = Answers()
        for index in 0..<20 { context["earlier\(index)"] = "answer \(index)" }
        let scoping = Self.best(iterations) {
            sink &+= Answers.onPath(answers, context: Answers(), screen: screen).fieldIds.count
        }
        let withContext = Self.best(iterations) {
            sink &+= interpreter.validate(screen: screen, answers: answers, context: context).errors.count
        }
        print(
            "20-field screen with a 20-answer path context: \(Self.format(withContext)) µs per validation; "
                + "scoping the answers to the screen alone: \(Self.format(scoping)) µs")

        let regexp = try IRegexp("([a-z]+[0-9]?|(ab|cd)*)*x?")
        var previous: Double?
        for size in [1_000, 10_000, 100_000] {
            let input = String(repeating: "ab1", count: size / 3)
            let repeats = max(1, 1_000_000 / size)
            var time = Double.infinity
            for _ in 0..<5 {
                let elapsed = clock.measure { for _ in 0..<repeats { sink &+= regexp.matches(input) ? 1 : 0 } }
                time = min(time, Self.microseconds(elapsed) / Double(repeats))
            }
            let growth =
                previous.map { ", ×\(Self.format($0 == 0 ? 0 : time / $0)) for 10× input (target ≤ 12×)" } ?? ""
            print("I-Regexp on \(size) scalars: \(Self.format(time)) µs\(growth)")
            previous = time
        }

        let long = String(repeating: "a", count: 20_000)
        for pattern in ["(a|a)*b", "(a+)+b", "(.*a){20}"] {
            let compiled = try IRegexp(pattern)
            var matched = false
            var time = Duration.seconds(3600)
            for _ in 0..<3 { time = min(time, clock.measure { matched = compiled.matches(long) }) }
            print(
                "\(pattern) on 20k characters: \(Self.format(Self.microseconds(time) / 1_000)) ms, "
                    + "matched=\(matched) (target < 50 ms)")
        }
        // The costliest pattern the publish-time limits admit: ~500 optional dots under {1000}
        // keep ~500,000 NFA states live at once. Still linear, but the constant is large
        // (about 9 s for 1,000 scalars): reported, not hidden; see the closing note.
        let worst = try IRegexp("(" + String(repeating: ".?", count: 495) + "){1000}")
        for size in [10, 100] {
            let input = String(repeating: "a", count: size)
            let time = clock.measure { sink &+= worst.matches(input) ? 1 : 0 }
            print(
                "worst admissible pattern (.?×495){1000} on \(size) scalars: "
                    + "\(Self.format(Self.microseconds(time) / 1_000)) ms (\(worst.instructionCount) instructions)")
        }
        if sink == Int.min { print(sink) }
    }

    /// The best of five rounds of `iterations` runs of `body`, in µs per run.
    static func best(_ iterations: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            let elapsed = ContinuousClock().measure { for _ in 0..<iterations { body() } }
            best = min(best, microseconds(elapsed) / Double(iterations))
        }
        return best
    }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000_000 + Double(duration.components.attoseconds) / 1e12
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return "\(rounded)"
    }
}
