import ArgumentParser
import Foundation
import Glibc
import ParleyServer

/// `parley export`: bulk copies of what the service stored, for systems that pull.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export stored data as NDJSON.", subcommands: [Completions.self])

    /// `parley export completions --flow F [--since T]`.
    struct Completions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a flow's completed sessions to stdout as NDJSON, oldest first.",
            discussion: "Each line is identical to the pull API's NDJSON (GET /v1/flows/{id}/completions).")

        @Option(help: "The flow whose completions to export.")
        var flow: String

        @Option(help: "Only completions at or after this RFC 3339 instant (e.g. 2026-01-31T00:00:00Z).")
        var since: String?

        @Option(help: "Completions read per database query.")
        var batch = 1_000

        @OptionGroup var database: DatabaseOptions

        @OptionGroup var dataKeys: DataKeyOptions

        func validate() throws {
            guard (1...100_000).contains(batch) else { throw ValidationError("--batch must be 1 to 100000.") }
        }

        func run() async throws {
            let pool = try database.makePool(maximumConnections: 1)
            defer { pool.shutdown() }
            let feed = CompletionFeed(pool: pool, keyring: try dataKeys.keyring())
            let progress = isatty(STDERR_FILENO) == 1
            let output = FileHandle.standardOutput
            var after = 0
            var written = 0
            while true {
                let items = try await feed.page(flow: flow, after: after, since: since, limit: batch)
                if !items.isEmpty { output.write(Data(items.flatMap(\.line))) }
                written += items.count
                if progress { FileHandle.standardError.write(Data("\rexported \(written) completions".utf8)) }
                guard items.count == batch, let last = items.last else { break }
                after = last.id
            }
            if progress { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}
