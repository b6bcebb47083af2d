import ArgumentParser
import Flows
import Foundation
import ParleyCore

/// `parley samples FLOW`: deterministic answers for each step — values at the
/// boundary of every rule that pass, and for each rule one that fails exactly
/// that rule — as one line of canonical `parley.samples/1` JSON (issue 14).
///
/// FLOW is the id of a flow this build ships (`passport-intake`, …) or a path
/// to a flow JSON file (`-` reads standard input); an existing file wins.
/// Exit status: 0 on success; 2 when the flow cannot be found or decoded, the
/// step does not exist or the core version is malformed.
struct SamplesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Print answers that pass, and answers that fail exactly one rule, for each step of a flow.",
        discussion: """
            FLOW is a shipped flow id or a flow JSON file. Each sample is labelled with the field and rule it \
            targets and was confirmed by the rule interpreter. The same --seed prints the same bytes. \
            Exit status 0 on success, 2 for an unknown flow or step, unreadable input or a malformed version.
            """)

    @Argument(help: "A shipped flow id, or a flow JSON file (`-` reads standard input).")
    var flow: String

    @Option(help: "Only this step (default: every step).")
    var step: String?

    @Option(help: "A client core version: samples aimed at rules it defers are marked \"deferred\".")
    var core: String?

    @Option(help: "Seed for every choice (default 0).")
    var seed: UInt64 = 0

    func run() async throws {
        var capabilities: CapabilitySet?
        if let core {
            do {
                capabilities = CapabilitySet(core: try CoreVersion(parsing: core))
            } catch {
                throw Self.failure(error.description)
            }
        }
        let document = try Self.resolve(flow)
        guard let samples = SampleGenerator(seed: seed).samples(for: document, step: step, capabilities: capabilities)
        else {
            let known = document.steps.map { "\"\($0.id)\"" }.joined(separator: ", ")
            throw Self.failure("flow \"\(document.id)\" has no step \"\(step ?? "")\" (steps: \(known))")
        }
        guard case .object(var output) = samples.json else { return }
        if let core { output["core"] = .string(core) }
        print(CanonicalJSON.string(.object(output)))
    }

    /// A file at `argument` (or standard input for `-`), else the shipped flow with that id.
    private static func resolve(_ argument: String) throws -> Flow {
        if argument != "-", !FileManager.default.fileExists(atPath: argument) {
            if let shipped = ShippedFlows.all.first(where: { $0.id == argument }) { return shipped }
            let known = ShippedFlows.all.map(\.id).joined(separator: ", ")
            throw failure("\(argument) is neither a file nor a shipped flow (shipped: \(known))")
        }
        let data =
            argument == "-"
            ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: argument)
        guard let data else { throw failure("cannot read \(argument)") }
        do {
            return try Flow(json: try JSONParser.parse([UInt8](data)), at: .root)
        } catch {
            throw failure("\(argument) is not a flow: \(error)")
        }
    }

    /// Prints `message` to standard error and returns exit status 2.
    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("parley samples: \(message)\n".utf8))
        return ExitCode(2)
    }
}
