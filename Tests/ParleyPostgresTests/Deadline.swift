/// Waits that end: every wait in these suites names what it waits for and how long it may
/// take, and fails the test with both when that passes (STYLE.md, convention 15).
enum Deadline {
    /// What a test waited for, and for how long, when it did not happen.
    struct Passed: Error, CustomStringConvertible {
        let what: String
        let limit: Duration
        var description: String { "\(what) did not happen within \(limit)" }
    }

    /// Polls `condition` every 2 ms until it holds; throws ``Passed`` after `limit`. The limits are
    /// hang guards, generous for a loaded machine: what is under test is that it happens at all.
    static func waitUntil(
        _ what: String, within limit: Duration = .seconds(60), _ condition: () -> Bool
    ) async throws {
        let end = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < end else { throw Passed(what: what, limit: limit) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The next `count` elements of `stream`, fewer when it finishes first; throws ``Passed``
    /// after `limit` (and the stream is then finished: its consumer was cancelled).
    static func elements<Element: Sendable>(
        _ count: Int, of stream: AsyncStream<Element>, _ what: String, within limit: Duration = .seconds(60)
    ) async throws -> [Element] {
        try await withThrowingTaskGroup(of: [Element].self) { group in
            group.addTask {
                var received: [Element] = []
                for await element in stream {
                    received.append(element)
                    if received.count == count { break }
                }
                return received
            }
            group.addTask {
                try await Task.sleep(for: limit)
                throw Passed(what: what, limit: limit)
            }
            defer { group.cancelAll() }
            return try await group.next() ?? []
        }
    }
}
