import ArgumentParser
import Foundation
import ParleyCore

/// `parley validate`: Validate answers against a screen's rules.
///
/// Prints the outcome as canonical JSON `{"deferred":[…],"errors":[…],"valid":…}`.
/// Exit status: 0 valid, 1 invalid, 2 unreadable input (a file that cannot be
/// read or decoded, answers that are not an object of strings, a screen whose
/// rules are ill-formed, a flow without `--step` or with an unknown step).
/// With `--harness` it is the conformance harness of Tests/Conformance/README.md.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate", abstract: "Validate answers against a screen's rules.",
        discussion: """
            Exit status: 0 valid, 1 invalid, 2 unreadable input. --screen may name a flow file \
            together with --step ID; --context names the answers of earlier steps. --harness reads one \
            JSON request per line from standard input ({"screen":…,"answers":…,"context":…,\
            "mode":"server"|"client"}) and writes one outcome per line.
            """)

    @Option(help: "A screen JSON file, or a flow JSON file together with --step.")
    var screen: String?

    @Option(help: "A JSON object of answers: field id → string (null = absent).")
    var answers: String?

    @Option(help: "A JSON object of the answers given on earlier steps of the path (read by cross-step rules).")
    var context: String?

    @Option(help: "The step id when --screen names a flow.")
    var step: String?

    @Option(
        help: "server (authoritative: unexpected fields and unknown rules fail) or client (unknown rules deferred).")
    var mode: ValidationMode = .server

    @Flag(help: "Run as the conformance harness: JSON requests on stdin, one outcome per line on stdout.")
    var harness = false

    func validate() throws {
        if harness {
            guard screen == nil, answers == nil, step == nil, context == nil else {
                throw ValidationError(
                    "--harness reads everything from standard input; drop --screen, --answers, --step, --context")
            }
        } else if screen == nil || answers == nil {
            throw ValidationError("--screen and --answers are both required")
        }
    }

    func run() async throws {
        if harness {
            ConformanceHarness.run()
            return
        }
        let outcome: ValidationOutcome
        do {
            let screen = try ValidationInput.screen(at: screen ?? "", step: step)
            let answers = try ValidationInput.answers(at: answers ?? "")
            let earlier = try context.map(ValidationInput.answers(at:)) ?? Answers()
            outcome = RuleInterpreter(mode: mode.interpreterMode).validate(
                screen: screen, answers: answers, context: earlier)
        } catch {
            FileHandle.standardError.write(Data("parley validate: \(error)\n".utf8))
            throw ExitCode(2)
        }
        print(CanonicalJSON.string(outcome.json))
        if !outcome.valid { throw ExitCode(1) }
    }
}

/// `--mode`.
enum ValidationMode: String, ExpressibleByArgument, CaseIterable {
    case server, client

    var interpreterMode: RuleInterpreter.Mode { self == .server ? .server : .client }
}
