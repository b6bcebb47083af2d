import ArgumentParser

/// `parley-bench rules`: Rule interpreter and I-Regexp throughput.
struct RulesBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules", abstract: "Rule interpreter and I-Regexp throughput.")

    func run() async throws {
        print("not implemented yet")
    }
}
