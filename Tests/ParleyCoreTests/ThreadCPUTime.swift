import Glibc

/// CPU time the calling thread spends in `body`: unlike wall-clock time it does not grow
/// when other builders load the machine, so a ceiling on it tests the algorithm, not the host.
enum ThreadCPUTime {
    static func measure(_ body: () throws -> Void) rethrows -> Duration {
        let start = now()
        try body()
        return now() - start
    }

    private static func now() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}
