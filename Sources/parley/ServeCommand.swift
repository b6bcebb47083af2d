import ArgumentParser

/// `parley serve`: Run the Parley HTTP service.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Run the Parley HTTP service.")

    func run() async throws {
        throw ValidationError("`parley serve` is not implemented yet")
    }
}
