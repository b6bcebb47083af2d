import ArgumentParser

/// `parley bundle`: Build, sign and verify flow bundles (DESIGN.md "Bundle").
struct BundleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle", abstract: "Build, sign and verify flow bundles.",
        discussion: """
            A bundle is {"schema": "parley.bundle/1", "channel", "source", "flows"}. Its digest is
            SHA-256 of its canonical JSON (sorted keys, no insignificant whitespace); CI signs that
            digest with Ed25519 and the server applies a verified bundle atomically.
            """,
        subcommands: [Build.self, Sign.self, Verify.self, Show.self])
}
