import ArgumentParser
import Foundation
import Logging
import ParleyCore
import ParleyServer

/// `parley session`: look into users' sessions (support staff).
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session", abstract: "Look into sessions.", subcommands: [Show.self])

    /// `parley session show ID`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a session's current snapshot and its whole log as JSON.")

        @Argument(help: "The session id (as the client holds it); ids may start with '-', so put `--` before it.")
        var id: String

        @OptionGroup var database: DatabaseOptions

        @OptionGroup var dataKeys: DataKeyOptions

        @Flag(help: "Show sensitive answers in the clear (needs the data key); masked otherwise.")
        var reveal = false

        func run() async throws {
            let pool = try database.makePool(maximumConnections: 1)
            defer { pool.shutdown() }
            let inspector = SessionInspector(
                pool: pool, keyring: try dataKeys.keyring(), logger: Logger(label: "parley"))
            let shown: JSONValue?
            do {
                shown = try await inspector.show(id, reveal: reveal)
            } catch {
                FileHandle.standardError.write(Data("parley session: \(error)\n".utf8))
                throw ExitCode(1)
            }
            guard let shown else {
                FileHandle.standardError.write(Data("parley session: no session has this id\n".utf8))
                throw ExitCode(1)
            }
            print(CanonicalJSON.string(shown))
        }
    }
}
