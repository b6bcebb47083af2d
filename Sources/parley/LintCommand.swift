import ArgumentParser

/// `parley lint`: Check a flow or screen JSON file for problems.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint", abstract: "Check a flow or screen JSON file for problems.")

    func run() async throws {
        throw ValidationError("`parley lint` is not implemented yet")
    }
}
