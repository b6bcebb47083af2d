public import Testing

/// Runs each test of a suite on ``TestBodyExecutor`` threads instead of Swift's cooperative pool
/// (one thread per core). Suites whose tests block a thread (a socket read, a child process
/// starting or exiting, a load generator joined) would otherwise hold the threads every other
/// test, and every in-process server, needs: on a two-core machine two such tests starved the
/// rest of the run until their time limits passed. Only for suites that block for long (drills,
/// proxies, crashes, load): on every suite it lets all tests run at once, since the cooperative
/// pool no longer paces them, and a full run on this machine then timed out everywhere.
public struct OffCooperativePool: SuiteTrait, TestTrait, TestScoping {
    /// Every test of the suite, nested suites' too.
    public var isRecursive: Bool { true }

    /// Runs the test with ``TestBodyExecutor`` as its executor preference.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(TestBodyExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffCooperativePool {
    /// Runs each test on threads of its own, off the cooperative pool (see ``OffCooperativePool``).
    public static var offCooperativePool: Self { Self() }
}
