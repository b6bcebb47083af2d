import Dispatch
import Foundation
import Synchronization

/// The threads off-loop responders run on: a task executor of its own, so a responder that
/// blocks its thread (a libpq call) ties up one of these threads, never Swift's small
/// cooperative pool (one thread per core) that every other task depends on.
final class ResponderThreadPool: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        var running = 0
        var stopping = false
    }

    private let state = Mutex(State())
    private let wakeups = DispatchSemaphore(value: 0)

    init() {}

    /// Starts `count` worker threads.
    func start(threads count: Int) {
        state.withLock { $0.running += max(1, count) }
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in
                Thread.current.name = "parley-responder-\(index)"
                work()
            }
            thread.start()
        }
    }

    /// Lets the workers finish queued jobs and exit. Jobs that arrive after the last worker left
    /// (a task outliving shutdown) run on a thread of their own, so no task is ever stranded.
    func stop() {
        let running = state.withLock { state in
            state.stopping = true
            return state.running
        }
        for _ in 0..<running { wakeups.signal() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = state.withLock { state in
            guard state.running > 0 else { return false }
            state.jobs.append(job)
            return true
        }
        if queued {
            wakeups.signal()
        } else {
            Thread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }.start()
        }
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            wakeups.wait()
            let (job, exit) = state.withLock { state -> (UnownedJob?, Bool) in
                if !state.jobs.isEmpty { return (state.jobs.removeFirst(), false) }
                guard state.stopping else { return (nil, false) }
                state.running -= 1
                return (nil, true)
            }
            if exit { return }
            job?.runSynchronously(on: executor)
        }
    }
}
