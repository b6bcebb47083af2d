import Foundation

/// Runs the built `parley` executable to completion (token, key, keygen, publish…),
/// with the test database in its environment.
public enum ParleyCommand {
    /// What one run produced.
    public typealias Output = ProcessOutput

    /// Runs `parley arguments`, waiting at most `timeout` seconds.
    public static func run(_ arguments: [String], timeout: Double = 30) throws -> Output {
        var environment = ["PARLEY_DATABASE_URL": try TestEnvironment.databaseURL()]
        if ProcessInfo.processInfo.environment["PARLEY_DATA_KEY_FILE"] == nil {
            environment["PARLEY_DATA_KEY_FILE"] = TestEnvironment.dataKeyFile
        }
        return try ParleyExecutable.run(arguments, environment: environment, timeout: timeout)
    }
}
