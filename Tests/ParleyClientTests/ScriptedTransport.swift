import ParleyClient
import Synchronization

/// A transport that answers from a script: `POST /v1/sessions` with the rev-1 snapshot, and each
/// `open` with the next scripted connection. Records what was asked.
final class ScriptedTransport: ParleyStreamingTransport {
    /// How one `open` goes.
    enum Connection: Sendable {
        /// No response head at all.
        case unreachable
        /// A head with this status and body, then the end.
        case status(Int, String)
        /// A `text/event-stream` that sends these pieces, then closes (or stays open when `hangs`).
        case events([String], hangs: Bool = false)
    }

    private let script: Mutex<[Connection]>
    private let opened = Mutex<[ParleyRequest]>([])
    /// Signalled when a stream's consumer stops listening (the follower closed the connection).
    let closed: AsyncStream<Void>
    private let closing: AsyncStream<Void>.Continuation

    init(_ script: [Connection]) {
        self.script = Mutex(script)
        (closed, closing) = AsyncStream<Void>.makeStream()
    }

    /// The `open` requests so far.
    var requests: [ParleyRequest] { opened.withLock { $0 } }

    func send(_ request: ParleyRequest) async throws -> ParleyResponse {
        ParleyResponse(
            status: 201, headers: ["content-type": "application/json"],
            body: Array(Self.snapshot(rev: 1).utf8))
    }

    func open(_ request: ParleyRequest) async throws -> ParleyStreamingResponse {
        opened.withLock { $0.append(request) }
        let next = script.withLock { $0.isEmpty ? Connection.unreachable : $0.removeFirst() }
        let (body, continuation) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        let closing = self.closing
        continuation.onTermination = { _ in closing.yield() }
        switch next {
        case .unreachable:
            throw ConnectionRefused()
        case .status(let status, let text):
            continuation.yield(Array(text.utf8))
            continuation.finish()
            return ParleyStreamingResponse(
                status: status, headers: ["content-type": "application/problem+json"], body: body)
        case .events(let pieces, let hangs):
            for piece in pieces { continuation.yield(Array(piece.utf8)) }
            if !hangs { continuation.finish() }
            return ParleyStreamingResponse(status: 200, headers: ["content-type": "text/event-stream"], body: body)
        }
    }

    /// A connection failure (not a cancellation: the follower must retry it).
    struct ConnectionRefused: Error {}

    /// A snapshot document of session `s1` at `rev`.
    static func snapshot(rev: Int, status: String = "active") -> String {
        """
        {"session":"s1","flow":"f","version":1,"rev":\(rev),"status":"\(status)","step":"one",\
        "screen":{"flow":"f","version":1,"step":"one","served":"step","report":[],"deferred":[],\
        "screen":{"id":"one","root":{"type":"vstack","id":"root"}}},\
        "values":{},"path":[],"messages":[],"expiresAt":"2030-01-01T00:00:00Z"}
        """
    }

    /// One `snapshot` event, split across lines as a server may send it.
    static func event(rev: Int, status: String = "active") -> String {
        "id: \(rev)\nevent: snapshot\ndata: \(snapshot(rev: rev, status: status))\n\n"
    }
}
