/// Why a `parley bundle`/`keygen` command stopped; ArgumentParser prints
/// `Error: <description>` and exits with status 1.
struct BundleFailure: Error, CustomStringConvertible {
    private enum Kind {
        case input
        case lint
        case verification
    }

    private let kind: Kind
    let description: String

    private init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A file is missing, unreadable or not what was expected.
    static func input(_ message: String) -> Self { .init(.input, message) }
    /// One or more flows have lint problems.
    static func lint(_ message: String) -> Self { .init(.lint, message) }
    /// A signature does not verify.
    static func verification(_ message: String) -> Self { .init(.verification, message) }
}
