import Foundation

/// Where a harness runs a test's body: every job on a thread of its own, never on Swift's
/// cooperative pool (one thread per core). The bodies' clients are synchronous (they block
/// until the response is in), and an in-process server needs the cooperative pool for its own
/// work: a body blocking a cooperative thread could starve the server it waits for. Here a
/// blocked body holds only its own thread, and concurrent requests of one body (task groups)
/// each get one, so they still race. A thread per job costs tens of microseconds: nothing
/// beside a request.
public final class TestBodyExecutor: TaskExecutor {
    /// The one executor every harness uses (it holds no state).
    public static let shared = TestBodyExecutor()

    private init() {}

    /// Runs `job` on a new thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.name = "parley-test-body"
        thread.start()
    }
}
