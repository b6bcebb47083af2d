import ArgumentParser

/// `parley-bench http`: Serve a fixed 2 KB JSON body for wrk.
struct HTTPBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http", abstract: "Serve a fixed 2 KB JSON body for wrk.")

    func run() async throws {
        print("not implemented yet")
    }
}
