import ArgumentParser
import Foundation
import ParleyCore

/// `parley render`: Gate a flow step for a client core version and print the result.
///
/// Prints one line of canonical JSON:
/// `{"capabilities": "<fingerprint input>", "deferred": […], "report": […], "screen": {…}, "served": "step", "step": "…"}`
/// (`served` is `step`, `upgrade` or `builtInUpgrade`). A screen document
/// (`parley.screen/1`) is gated as is and gets `needsUpgrade` instead of `served`/`step`.
/// Exit status: 0 on success; 2 when the input cannot be read or decoded, the
/// step does not exist or the core version is malformed.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Gate a flow step for a client core version and print the result.",
        discussion: """
            Prints the gated screen, the gating report, the deferred rules and the capability set's \
            fingerprint input as canonical JSON. Exit status 0 on success, 2 for unreadable input, \
            an unknown step or a malformed version.
            """)

    @Argument(help: "A flow (or screen) JSON file; `-` reads standard input.")
    var file: String

    @Option(help: "The step to gate (default: the flow's start step).")
    var step: String?

    @Option(help: "The client core's version, as in the Parley-Core header (default: the floor, 1.0.0).")
    var core: String?

    func run() async throws {
        let version: CoreVersion
        do {
            version = try CoreVersion(parsing: core ?? CoreVersion.floor.description)
        } catch {
            throw Self.failure(error.description)
        }
        let capabilities = CapabilitySet(core: version)
        let gate = Gate(capabilities: capabilities)
        let value = try Self.readJSON(file)
        var output: JSONObject
        if value["schema"]?.stringValue?.hasPrefix("parley.screen/") == true {
            guard step == nil else { throw Self.failure("--step applies to flows; \(file) is a screen") }
            let screen: Screen
            do { screen = try Screen(json: value, at: .root) } catch { throw Self.failure("\(file): \(error)") }
            output = gate.gate(screen).json.objectValue ?? JSONObject()
        } else {
            let flow: Flow
            do { flow = try Flow(json: value, at: .root) } catch { throw Self.failure("\(file): \(error)") }
            let stepId = step ?? flow.start
            guard let gated = gate.gate(flow, step: stepId) else {
                let known = flow.steps.map { "\"\($0.id)\"" }.joined(separator: ", ")
                throw Self.failure("flow \"\(flow.id)\" has no step \"\(stepId)\" (steps: \(known))")
            }
            output = gated.json.objectValue ?? JSONObject()
        }
        output["capabilities"] = .string(capabilities.fingerprintInput)
        print(CanonicalJSON.string(.object(output)))
    }

    /// Reads and parses the input file (or standard input for `-`).
    private static func readJSON(_ path: String) throws -> JSONValue {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw failure("cannot read \(path)") }
        do {
            return try JSONParser.parse([UInt8](data))
        } catch {
            throw failure("\(path) is not valid JSON: \(error)")
        }
    }

    /// Prints `message` to standard error and returns exit status 2.
    private static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("parley render: \(message)\n".utf8))
        return ExitCode(2)
    }
}
