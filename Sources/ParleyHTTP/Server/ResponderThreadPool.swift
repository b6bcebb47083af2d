import Dispatch
import Foundation
import Synchronization

/// The threads off-loop responders run on: a task executor of its own, so a responder that
/// blocks its thread (a connect to an unreachable database, until its deadline) ties up one of
/// these threads, never Swift's small cooperative pool (one thread per core) that every other
/// task depends on.
///
/// Few of its threads are awake at once. Waking a sleeping thread for every job made every
/// hand-off a context switch: with 16 threads on two cores, a c=32 answer load spent a quarter
/// of the server's CPU in the kernel's `finish_task_switch` (perf, issue 27 round 8), and 4
/// threads cost 15% less CPU an answer than 16. So a job wakes a sleeper only while fewer than
/// `awakeLimit` threads are awake; otherwise an awake thread takes it when its current job ends.
/// Blocked threads count as awake, so a watchdog wakes one more whenever jobs wait and none was
/// taken for ``rescueAfter``: blocking responders delay the others by that much, never starve
/// them.
final class ResponderThreadPool: TaskExecutor, Sendable {
    private struct State {
        var jobs: [UnownedJob] = []
        /// The next job to take in `jobs` (taken ones are dropped in bulk, not one by one).
        var head = 0
        var running = 0
        /// Threads waiting for a wake-up (counted out by whoever wakes them).
        var sleeping = 0
        /// Jobs taken so far: the watchdog's measure of progress.
        var taken = 0
        /// The watchdog has been asked to look.
        var watchdogArmed = false
        var stopping = false

        var waiting: Int { jobs.count - head }

        mutating func take() -> UnownedJob? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            taken += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// How long queued jobs may see no progress before the watchdog wakes another thread.
    static let rescueAfter: Duration = .milliseconds(10)

    private let state = Mutex(State())
    private let wakeups = DispatchSemaphore(value: 0)
    private let watchdogWakeups = DispatchSemaphore(value: 0)
    /// The most threads awake (running a job or looking for one) before a job stops waking more.
    private let awakeLimit: Int

    /// A pool that keeps at most `awakeLimit` threads awake while they make progress (default:
    /// the online cores, at least 2; with twice that, a c=32 answer load switched threads 3.6
    /// times an answer instead of 2.5, for 111-129 µs of server CPU instead of 100-109).
    init(awakeLimit: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)) {
        self.awakeLimit = max(1, awakeLimit)
    }

    /// Starts `count` worker threads (and the watchdog, with the first ones).
    func start(threads count: Int) {
        let first = state.withLock { state in
            defer { state.running += max(1, count) }
            return state.running == 0
        }
        for index in 0..<max(1, count) {
            let thread = Thread { [self] in
                Thread.current.name = "parley-responder-\(index)"
                work()
            }
            thread.start()
        }
        if first {
            let watchdog = Thread { [self] in watch() }
            watchdog.name = "parley-responder-watchdog"
            watchdog.start()
        }
    }

    /// Lets the workers finish queued jobs and exit. Jobs that arrive after the last worker left
    /// (a task outliving shutdown) run on a thread of their own, so no task is ever stranded.
    func stop() {
        let sleepers = state.withLock { state in
            state.stopping = true
            defer { state.sleeping = 0 }
            return state.sleeping
        }
        for _ in 0..<sleepers { wakeups.signal() }
        watchdogWakeups.signal()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (queued, wake, arm) = state.withLock { state -> (Bool, Bool, Bool) in
            guard state.running > 0 else { return (false, false, false) }
            state.jobs.append(job)
            guard state.sleeping > 0 else { return (true, false, false) }
            if state.running - state.sleeping < awakeLimit {
                state.sleeping -= 1
                return (true, true, false)
            }
            guard !state.watchdogArmed else { return (true, false, false) }
            state.watchdogArmed = true
            return (true, false, true)
        }
        if wake { wakeups.signal() }
        if arm { watchdogWakeups.signal() }
        if !queued {
            Thread { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }.start()
        }
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            let (job, exit) = state.withLock { state -> (UnownedJob?, Bool) in
                if let job = state.take() { return (job, false) }
                guard !state.stopping else {
                    state.running -= 1
                    return (nil, true)
                }
                state.sleeping += 1
                return (nil, false)
            }
            if exit { return }
            if let job {
                job.runSynchronously(on: executor)
            } else {
                wakeups.wait()
            }
        }
    }

    /// Once armed: while jobs wait, every ``rescueAfter`` without one of them taken wakes one more
    /// thread (past `awakeLimit`: the awake ones are blocked).
    private func watch() {
        let pause = Double(Self.rescueAfter.components.attoseconds) / 1e18
        while true {
            watchdogWakeups.wait()
            while true {
                let before = state.withLock { $0.taken }
                Thread.sleep(forTimeInterval: pause)
                let (wake, done) = state.withLock { state -> (Bool, Bool) in
                    if state.stopping { return (false, true) }
                    guard state.waiting > 0 else {
                        state.watchdogArmed = false
                        return (false, true)
                    }
                    guard state.taken == before, state.sleeping > 0 else { return (false, false) }
                    state.sleeping -= 1
                    return (true, false)
                }
                if wake { wakeups.signal() }
                if done { break }
            }
            if state.withLock({ $0.stopping }) { return }
        }
    }
}
