import ArgumentParser
import ParleyServer

/// `parley token`: create and revoke API tokens.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Create and revoke API tokens.",
        subcommands: [Create.self, Revoke.self])

    /// `parley token create --name N --scope author|publish|admin|agent`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token; it is printed once and only its SHA-256 is stored.")

        @Option(help: "A name for the token (shown as the author of what it stores).")
        var name: String

        @Option(help: "author, publish, admin or agent (repeatable).")
        var scope: [String]

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard (1...200).contains(name.count) else { throw ValidationError("--name must be 1 to 200 characters.") }
            guard !scope.isEmpty else {
                throw ValidationError("Give at least one --scope (author, publish, admin or agent).")
            }
            for value in scope where AccessScope(rawValue: value) == nil {
                throw ValidationError("Unknown scope '\(value)'; use author, publish, admin or agent.")
            }
        }

        func run() async throws {
            let pool = try database.makePool(maximumConnections: 1)
            defer { pool.shutdown() }
            let store = AccessStore(pool: pool)
            if try await store.hasToken(name: name) {
                throw ValidationError("An active token named '\(name)' exists; revoke it first or pick another name.")
            }
            let token = try await store.createToken(name: name, scopes: scope.compactMap(AccessScope.init))
            print(token)
        }
    }

    /// `parley token revoke --name N`.
    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke the active token with this name.")

        @Option(help: "The token's name.")
        var name: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let pool = try database.makePool(maximumConnections: 1)
            defer { pool.shutdown() }
            guard try await AccessStore(pool: pool).revokeToken(name: name) else {
                throw ValidationError("No active token is named '\(name)'.")
            }
            print("revoked \(name)")
        }
    }
}
