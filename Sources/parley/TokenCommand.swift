import ArgumentParser

/// `parley token`: Create and revoke API tokens.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "token", abstract: "Create and revoke API tokens.")

    func run() async throws {
        throw ValidationError("`parley token` is not implemented yet")
    }
}
