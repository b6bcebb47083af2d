import ArgumentParser

/// `parley render`: Gate a flow step for a client core version and print the result.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Gate a flow step for a client core version and print the result.")

    func run() async throws {
        throw ValidationError("`parley render` is not implemented yet")
    }
}
