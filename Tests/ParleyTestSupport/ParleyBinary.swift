public import Foundation

/// Runs the built `parley` executable the way a user or CI script would (no database in
/// its environment beyond ours): exit codes, stdout and stderr.
public struct ParleyBinary {
    /// What one run produced.
    public typealias Result = ProcessOutput

    /// The executable's location, found next to the running test bundle.
    public static var url: URL { ParleyExecutable.url }

    /// Root of the package checkout (for fixtures such as `Flows/`).
    public static var packageRoot: URL { ParleyExecutable.packageRoot }

    /// Runs `parley` with arguments and optional standard input, waiting at most `timeout` seconds.
    public static func run(_ arguments: [String], stdin: String? = nil, timeout: TimeInterval = 60) throws -> Result {
        try ParleyExecutable.run(arguments, stdin: stdin ?? "", timeout: timeout)
    }

    /// Writes `contents` to a fresh temporary file and returns its path.
    public static func temporaryFile(_ contents: String, name: String = "input.json") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "parley-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: file)
        return file.path
    }
}
