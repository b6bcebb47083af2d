import ArgumentParser

/// `parley validate`: Validate answers against a screen's rules.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Validate answers against a screen's rules.")

    func run() async throws {
        throw ValidationError("`parley validate` is not implemented yet")
    }
}
