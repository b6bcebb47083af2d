import Foundation
import ParleyCore

/// The outcome of linting one file, and the report formats `parley lint`
/// prints. Formatting lives here, apart from the command, so further sections
/// (e.g. a servability matrix per core version) can be added in one place.
struct LintReport {
    /// The file as named on the command line (or found in the directory).
    var path: String
    /// Problems found; empty when the file is clean or could not be linted.
    var problems: [LintProblem] = []
    /// Why the file could not be linted at all (unreadable, not JSON), if so.
    var error: String?
    /// For a flow that decodes: which steps each core version renders natively,
    /// via fallbacks, via the upgrade screen, or not at all.
    var servability: ServabilityMatrix?

    /// Whether the file was linted and has no error (warnings do not refuse publishing).
    var isValid: Bool { error == nil && problems.errors.isEmpty }

    /// Reads, parses and lints one file; the document kind comes from its `schema`.
    static func lint(file path: String, linter: FlowLinter = FlowLinter(includesWarnings: true)) -> LintReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            return LintReport(path: path, error: "cannot read the file")
        }
        let result = LintResult(bytes: Array(data), linter: linter)
        return LintReport(
            path: path, problems: result.problems, error: result.error, servability: result.servability)
    }

    /// One line per problem (`file: pointer: message [code]`), then a summary.
    static func human(_ reports: [LintReport]) -> String {
        var lines: [String] = []
        for report in reports where report.error == nil {
            if report.problems.isEmpty {
                lines.append("\(report.path): ok")
            }
            for problem in report.problems {
                let pointer = problem.pointer.description.isEmpty ? "(document)" : problem.pointer.description
                let warning = problem.severity == .warning ? "warning: " : ""
                lines.append("\(report.path): \(pointer): \(warning)\(problem.message) [\(problem.code)]")
            }
            if let matrix = report.servability {
                lines.append("  servability (core × step):")
                lines += matrix.text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
            }
        }
        let problemCount = reports.reduce(0) { $0 + $1.problems.errors.count }
        let warningCount = reports.reduce(0) { $0 + $1.problems.count } - problemCount
        let failed = reports.filter { !$0.isValid }.count
        if problemCount > 0 || failed > 0 || warningCount > 0 {
            let noun = problemCount == 1 ? "problem" : "problems"
            let warnings = warningCount == 0 ? "" : ", \(warningCount) warning\(warningCount == 1 ? "" : "s")"
            let files = reports.count == 1 ? "file" : "files"
            lines.append("\(problemCount) \(noun)\(warnings); \(failed) of \(reports.count) \(files) not valid.")
        }
        return lines.joined(separator: "\n")
    }

    /// `{"valid": Bool, "problems": [{"code", "pointer", "message"}]}` for one file.
    static func jsonFile(_ report: LintReport) -> String {
        CanonicalJSON.string(report.jsonObject(includingPath: false))
    }

    /// `{"valid": Bool, "files": [{"path", "valid", "problems"[, "error"]}]}` for a directory.
    static func jsonDirectory(_ reports: [LintReport]) -> String {
        let value: JSONValue = [
            "valid": .bool(reports.allSatisfy(\.isValid)),
            "files": .array(reports.map { $0.jsonObject(includingPath: true) }),
        ]
        return CanonicalJSON.string(value)
    }

    private func jsonObject(includingPath: Bool) -> JSONValue {
        var object = LintResult(problems: problems, servability: servability, error: error).json
        if includingPath { object["path"] = .string(path) }
        return .object(object)
    }
}
