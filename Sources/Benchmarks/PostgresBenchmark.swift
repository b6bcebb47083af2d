import ArgumentParser

/// `parley-bench postgres`: Single-row inserts through the pool beside pgbench.
struct PostgresBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postgres", abstract: "Single-row inserts through the pool beside pgbench.")

    func run() async throws {
        print("not implemented yet")
    }
}
