import ArgumentParser

/// `parley bundle`: Build, sign and verify flow bundles.
struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle", abstract: "Build, sign and verify flow bundles.")

    func run() async throws {
        throw ValidationError("`parley bundle` is not implemented yet")
    }
}
