import ArgumentParser

/// `parley-bench`: benchmarks that print figures and never fail on a number.
@main
struct ParleyBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parley-bench",
        abstract: "Measure Parley's hot paths and print figures.",
        subcommands: [
            RulesBenchmark.self, GatingBenchmark.self, HTTPBenchmark.self, PostgresBenchmark.self, CallsBenchmark.self,
        ]
    )
}
