import Foundation
import Glibc
import Synchronization

/// Write end of the self-pipe the signal handler reports to (-1 until armed).
/// An atomic global is what an async-signal-safe C handler may read.
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// The process-wide SIGTERM/SIGINT handler: writes the signal number to the pipe
/// (`write` is async-signal-safe) and nothing else.
private func reportSignal(_ number: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd.load(ordering: .relaxed), &byte, 1)
}

/// SIGTERM/SIGINT watching, armed before the server announces itself, so a
/// signal sent right after `listening on …` is never lost.
///
/// A self-pipe rather than a Dispatch signal source: on Linux those use
/// `signalfd`, which only sees a signal blocked in every thread, and the
/// threads of an async `main` already exist with it unblocked — a signal
/// delivered to one of them was silently dropped.
final class TerminationSignals: Sendable {
    private struct State {
        var received: String?
        var waiter: CheckedContinuation<String, Never>?
    }

    private let state = Mutex(State())

    private init() {}

    /// Installs the handler for SIGTERM and SIGINT and starts the thread that
    /// waits for it. Armed once per process; later calls share the first.
    static func arm() -> TerminationSignals {
        armed.withLock { armed in
            if let armed { return armed }
            let signals = TerminationSignals()
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { fatalError("cannot create the signal pipe: errno \(errno)") }
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
            signalPipeWriteEnd.store(ends[1], ordering: .sequentiallyConsistent)
            let readEnd = ends[0]
            let thread = Thread {
                var byte: UInt8 = 0
                while true {
                    let count = read(readEnd, &byte, 1)
                    if count == 1 {
                        signals.deliver(Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM")
                    } else if count == 0 || errno != EINTR {
                        return
                    }
                }
            }
            thread.name = "parley-signals"
            thread.start()
            signal(SIGTERM, reportSignal)
            signal(SIGINT, reportSignal)
            armed = signals
            return signals
        }
    }

    private static let armed = Mutex<TerminationSignals?>(nil)

    private func deliver(_ name: String) {
        let waiter = state.withLock { state -> CheckedContinuation<String, Never>? in
            if state.received == nil { state.received = name }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: name)
    }

    /// Suspends until a signal arrives (or returns at once if one already did); returns its name.
    func wait() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let already = state.withLock { state -> String? in
                if let received = state.received { return received }
                state.waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
