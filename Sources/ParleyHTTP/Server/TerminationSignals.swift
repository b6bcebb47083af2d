import Dispatch
import Glibc
import Synchronization

/// SIGTERM/SIGINT watching that is armed before the server announces itself,
/// so a signal sent right after `listening on …` is never lost: it is either
/// handed to the waiter or remembered until ``wait()`` is called.
final class TerminationSignals: Sendable {
    private struct State {
        var received: String?
        var waiter: CheckedContinuation<String, Never>?
    }

    private let state = Mutex(State())

    private init() {}

    /// Starts watching SIGTERM and SIGINT now. The returned sources must stay alive (and be
    /// cancelled) by the caller; the default actions are replaced only once a source is live.
    static func arm() -> (signals: TerminationSignals, sources: [any DispatchSourceSignal]) {
        let signals = TerminationSignals()
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { signals.deliver(name) }
            source.resume()
            signal(number, SIG_IGN)
            sources.append(source)
        }
        return (signals, sources)
    }

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
