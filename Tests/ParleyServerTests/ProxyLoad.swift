import Foundation
import ParleyCore
import Synchronization

/// Bounded load through HAProxy on plain threads (the raw client blocks): GETs of one flow's
/// screen, and session walks whose every answer carries an Idempotency-Key and is retried
/// with the same key until it is acknowledged.
final class ProxyLoad: Sendable {
    let proxy: RawHTTPClient
    let flow: String
    let stop = Atomic<Bool>(false)
    private let state = Mutex<(gets: Int, failures: [String])>((0, []))

    init(proxy: RawHTTPClient, flow: String) {
        self.proxy = proxy
        self.flow = flow
    }

    var gets: Int { state.withLock { $0.gets } }
    var failures: [String] { state.withLock { $0.failures } }

    /// One thread of GETs until ``stop``.
    func runGets(in group: DispatchGroup) {
        group.enter()
        Thread.detachNewThread { [self] in
            while !stop.load(ordering: .relaxed) {
                let outcome: String?
                do {
                    let response = try proxy.send("GET", "/v1/screens/\(flow)", headers: [("Parley-Core", "1.2.0")])
                    outcome = response.status == 200 ? nil : "\(response.status) \(response.text.prefix(200))"
                } catch {
                    outcome = "\(error)"
                }
                state.withLock {
                    $0.gets += 1
                    if let outcome { $0.failures.append(outcome) }
                }
            }
            group.leave()
        }
    }

    /// Waits until `count` GETs are done (hang guard 60 s).
    func waitForGets(_ count: Int) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while gets < count {
            guard Date() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Walks sessions through HAProxy: email, purpose, employer, confirm, one answer at a time.
    final class AnswerWalk: Sendable {
        let service: ServiceHarness
        let sessions: [JSONValue]
        private let state = Mutex<(acknowledged: [String: Int], failures: [String], retries: Int, next: Int)>(
            ([:], [], 0, 0))

        init(service: ServiceHarness, sessions: [JSONValue]) {
            self.service = service
            self.sessions = sessions
        }

        var acknowledged: [String: Int] { state.withLock { $0.acknowledged } }
        var failures: [String] { state.withLock { $0.failures } }
        var retries: Int { state.withLock { $0.retries } }

        static let steps: [(String, Answers)] = [
            ("email", ["email": "walker@example.com"]), ("purpose", ["purpose": "work"]),
            ("employer", ["employer": "Parley"]), ("confirm", ["emailAgain": "walker@example.com"]),
        ]

        func run(in group: DispatchGroup, until load: ProxyLoad, workers: Int) {
            for _ in 0..<workers {
                group.enter()
                Thread.detachNewThread { [self] in
                    while !load.stop.load(ordering: .relaxed), let session = take() { walk(session, until: load) }
                    group.leave()
                }
            }
        }

        private func take() -> JSONValue? {
            state.withLock { state in
                guard state.next < sessions.count else { return nil }
                defer { state.next += 1 }
                return sessions[state.next]
            }
        }

        private func walk(_ session: JSONValue, until load: ProxyLoad) {
            var snapshot = session
            for (step, answers) in Self.steps {
                guard !load.stop.load(ordering: .relaxed) else { return }
                let key = "walk-\(UUID().uuidString)"
                var attempt = 0
                while true {
                    attempt += 1
                    let response = try? service.answer(snapshot, answers, step: step, key: key, on: service.client)
                    if let response, response.status == 200 {
                        snapshot = response.json
                        state.withLock { $0.acknowledged[session.sessionId, default: 0] += 1 }
                        break
                    }
                    guard attempt < 20 else {
                        state.withLock { $0.failures.append("\(step): \(response.map { "\($0)" } ?? "no response")") }
                        return
                    }
                    state.withLock { $0.retries += 1 }
                    usleep(50_000)
                }
            }
        }
    }
}
