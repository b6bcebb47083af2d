import Foundation
import Glibc
import Logging

/// Gives the heap's free pages back to the system once the server turns idle (issue 27: RSS
/// after the write load).
///
/// glibc keeps what a burst of requests freed: only the top of the main arena shrinks on its
/// own, and the pages of the other arena and of the holes between live blocks stay resident
/// until `malloc_trim` returns them (`madvise(MADV_DONTNEED)` on every free page of every
/// arena). Trimming under load would fault the same pages straight back in, so it runs once a
/// busy spell ends: when the process used less than 2% of a core over a whole interval after
/// an interval it used more. A trim of a quiet heap takes a few milliseconds and holds each
/// arena's lock meanwhile; a request arriving then waits that long, once per idle period.
struct IdleMemoryTrimmer: Sendable {
    /// How often the process's CPU time is read.
    static let interval: Duration = .seconds(1)
    /// Below this share of one core over an interval, the process counts as idle.
    static let idleShare = 0.02

    let logger: Logger

    /// Starts the trimmer on a thread of its own (it sleeps between looks, for the process's life).
    func start() {
        guard let trim = Self.mallocTrim() else {
            logger.debug("malloc_trim not found (not glibc); the idle trimmer is off")
            return
        }
        let logger = logger
        let thread = Thread {
            var busy = false
            var previous = Self.cpuNanoseconds()
            let seconds = Double(Self.interval.components.seconds)
            while true {
                Thread.sleep(forTimeInterval: seconds)
                let now = Self.cpuNanoseconds()
                let share = Double(now - previous) / (seconds * 1e9)
                previous = now
                if share >= Self.idleShare {
                    busy = true
                    continue
                }
                guard busy else { continue }
                busy = false
                let before = Self.residentBytes()
                _ = trim(0)
                let after = Self.residentBytes()
                previous = Self.cpuNanoseconds()  // the trim's own CPU does not count as activity
                logger.debug(
                    "idle: returned free heap pages to the system",
                    metadata: ["rssMB": "\(before / 1_048_576) -> \(after / 1_048_576)"])
            }
        }
        thread.name = "parley-idle-trim"
        thread.start()
    }

    /// glibc's `malloc_trim` (`<malloc.h>` is not in the Glibc module, so it is looked up).
    private static func mallocTrim() -> (@convention(c) (Int) -> Int32)? {
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }  // nil: RTLD_DEFAULT
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }

    /// The CPU time the whole process used so far (every thread).
    private static func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// The resident set (`/proc/self/statm`'s second field, in pages), for the log line.
    private static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
