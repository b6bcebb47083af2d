import ArgumentParser
import Foundation
import ParleyCore

/// `parley lint PATH`: checks a flow, screen or bundle JSON file — or every
/// `*.json` file of a directory, in name order — with ``FlowLinter``.
///
/// Exit status: 0 when no file has an error (warnings such as accessibility findings are
/// printed and counted but pass), 1 when errors were found, 2 when
/// a path is unreadable, a file is not JSON (reported with line and column), or a directory
/// holds no `*.json` file.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check a flow or screen JSON file (or a directory of them) for problems.",
        discussion: """
            Exit status: 0 clean or warnings only, 1 errors found, 2 unreadable, not JSON, or a directory with no
            *.json file. Accessibility findings are warnings unless the flow says "accessibility": "strict".
            With --json, standard output is {"valid": Bool, "problems": [{"code", "pointer", "message", "severity"}]};
            for a directory, {"valid": Bool, "files": [{"path", "valid", "problems"}]}.
            A file that cannot be linted also gets an "error" member (and a line on standard error).
            """)

    @Argument(help: "A flow, screen or bundle JSON file, or a directory whose *.json files are linted.")
    var path: String

    @Flag(name: .long, help: "Write a machine-readable JSON report to standard output.")
    var json = false

    func run() async throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            Self.printError("\(path): no such file or directory")
            throw ExitCode(2)
        }
        let reports: [LintReport]
        if isDirectory.boolValue {
            let names: [String]
            do {
                names = try manager.contentsOfDirectory(atPath: path)
                    .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                    .sorted { $0.scalarPrecedes($1) }
            } catch {
                Self.printError("\(path): cannot read the directory (\(error.localizedDescription))")
                throw ExitCode(2)
            }
            let directory = URL(fileURLWithPath: path)
            guard !names.isEmpty else {
                // A folder with nothing in it must not pass as "clean": a CI step pointed at the
                // wrong folder would otherwise never fail.
                Self.printError("\(path): no *.json files to lint")
                throw ExitCode(2)
            }
            reports = names.map { LintReport.lint(file: directory.appendingPathComponent($0).path) }
        } else {
            reports = [LintReport.lint(file: path)]
        }
        for report in reports {
            if let error = report.error { Self.printError("\(report.path): \(error)") }
        }
        let output =
            json
            ? (isDirectory.boolValue ? LintReport.jsonDirectory(reports) : LintReport.jsonFile(reports[0]))
            : LintReport.human(reports)
        if !output.isEmpty { print(output) }
        if reports.contains(where: { $0.error != nil }) { throw ExitCode(2) }
        if reports.contains(where: { !$0.problems.errors.isEmpty }) { throw ExitCode(1) }
    }

    /// Writes one line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data("parley lint: \(line)\n".utf8))
    }
}
