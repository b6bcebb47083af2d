import ArgumentParser

/// `parley-bench gating`: Gating a 200-node screen for several core versions.
struct GatingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gating", abstract: "Gating a 200-node screen for several core versions.")

    func run() async throws {
        print("not implemented yet")
    }
}
