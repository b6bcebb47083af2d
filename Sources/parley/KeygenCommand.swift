import ArgumentParser

/// `parley keygen`: Create an Ed25519 signing key pair.
struct KeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen", abstract: "Create an Ed25519 signing key pair.")

    func run() async throws {
        throw ValidationError("`parley keygen` is not implemented yet")
    }
}
