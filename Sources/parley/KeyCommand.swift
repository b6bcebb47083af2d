import ArgumentParser

/// `parley key`: Manage trusted bundle signing keys.
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "key", abstract: "Manage trusted bundle signing keys.")

    func run() async throws {
        throw ValidationError("`parley key` is not implemented yet")
    }
}
