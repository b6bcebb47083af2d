import ArgumentParser
import Foundation
import ParleyServer

/// The data keys that seal sensitive answers at rest (README "Sensitive answers"), for every
/// command that reads or writes them.
struct DataKeyOptions: ParsableArguments {
    @Option(help: "File with the 32-byte data key that seals sensitive answers (default: $PARLEY_DATA_KEY_FILE).")
    var dataKeyFile: String?

    @Option(
        help: """
            A retired data key still needed to open values sealed with it, during a rotation (repeatable; \
            default: $PARLEY_PREVIOUS_DATA_KEY_FILES, colon-separated).
            """)
    var previousDataKeyFile: [String] = []

    /// The keyring; no current key when none is configured.
    func keyring() throws -> DataKeyring {
        let environment = ProcessInfo.processInfo.environment
        // An empty value means no key (e.g. `--data-key-file ""` over an inherited environment).
        let current = (dataKeyFile ?? environment["PARLEY_DATA_KEY_FILE"]).flatMap { $0.isEmpty ? nil : $0 }
        var previous = previousDataKeyFile
        if previous.isEmpty, let list = environment["PARLEY_PREVIOUS_DATA_KEY_FILES"] {
            previous = list.split(separator: ":").map(String.init)
        }
        do {
            return try DataKeyring.load(current: current, previous: previous)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
