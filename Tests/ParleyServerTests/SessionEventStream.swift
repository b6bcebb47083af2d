import Foundation
import ParleyCore

/// A raw-socket follower of `GET /v1/sessions/{id}/events`: reads the head, then one SSE event
/// at a time, so a test sees exactly what went over the wire.
final class SessionEventStream {
    let client: TestClient
    /// The response head's status and fields.
    let head: RawResponse

    /// How long ``next()`` waits for an event: heartbeats arrive more often than a read times
    /// out, so the socket's own timeout alone would let a missing event be waited for forever.
    let timeout: Double

    /// Opens the stream of `session` on `port`, with `Last-Event-ID` when given.
    init(port: UInt16, session: String, lastEventId: Int? = nil, timeout: Double = 30) throws {
        self.timeout = timeout
        client = try TestClient(port: Int(port), timeout: timeout)
        let resume = lastEventId.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        try client.send("GET /v1/sessions/\(session)/events HTTP/1.1\r\nHost: test\r\n\(resume)\r\n")
        head = try client.readStreamHead()
    }

    /// The next `snapshot` event (heartbeat comments skipped): its `id` and parsed data; throws
    /// when none arrives within ``timeout``.
    func next() throws -> (id: Int, snapshot: JSONValue) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard Date() < deadline else {
                throw SessionFixture.Failure(description: "no snapshot event within \(timeout) s (only heartbeats)")
            }
            let text = try client.read(through: "\n\n")
            var id: Int?
            var data: String?
            for line in text.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = Int(line.dropFirst(4)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
            }
            guard let data else { continue }  // a heartbeat
            return (id ?? -1, try JSONParser.parse(Array(data.utf8)))
        }
    }

    /// Whether the server ended the stream (EOF) with nothing more to read.
    func isEnded() -> Bool { client.isClosedByServer() }
}
