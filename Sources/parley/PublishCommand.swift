import ArgumentParser

/// `parley publish`: Sign a bundle and upload it to a Parley server.
struct PublishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish", abstract: "Sign a bundle and upload it to a Parley server.")

    func run() async throws {
        throw ValidationError("`parley publish` is not implemented yet")
    }
}
