import Foundation
public import ParleyCore
public import ParleyServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 response as it came off the wire.
public struct RawResponse: Sendable, CustomStringConvertible {
    /// The status code.
    public let status: Int
    /// Every header line in order, duplicates kept.
    public let headers: [(name: String, value: String)]
    /// The body bytes.
    public let body: [UInt8]
    /// The body's JSON, parsed at the first read of ``json``.
    private let parsed = ParsedBody()

    /// A response as received.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Every value of a header (case-insensitive name).
    public func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.utf8.count == wanted.utf8.count && $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The only (or first) value of a header.
    public func header(_ name: String) -> String? { values(name).first }

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (`null` when it is not JSON), once per response.
    public var json: JSONValue { parsed.json(of: body) }

    /// Whether the body is an RFC 9457 problem document.
    public var isProblem: Bool {
        header("Content-Type")?.hasPrefix("application/problem+json") == true && json["type"]?.stringValue != nil
            && json["status"]?.numberValue?.intValue == status
    }

    /// The problem `type`, if any.
    public var problemType: String? { json["type"]?.stringValue }

    public var description: String { "\(status) \(text.prefix(600))" }
}

/// A tiny HTTP/1.1 client over raw sockets (`Connection: close`, one request per
/// connection), so tests see exactly what the server sends, early 413s included; or, made with
/// an application, a client that hands each request to it as a value with no socket (router
/// mode, as HummingbirdTesting's `.router`). Every response is kept so a test can check the
/// server never answered 5xx, and recorded for deploy/test's schema and leak checks.
///
/// ``execute(_:_:headers:body:timeout:)`` is the async client: it never blocks a thread of the
/// cooperative pool. ``send(_:_:headers:body:timeout:)`` is the synchronous one the suites'
/// bodies call; it blocks its caller, which a harness runs on a ``TestBodyExecutor`` thread.
public final class RawHTTPClient: Sendable {
    /// The server's port on 127.0.0.1 (0 for a client of an application without a socket).
    public let port: UInt16
    private let application: ParleyApplication?
    private let seen = Mutex<[(request: String, status: Int)]>([])

    /// A client of the server on 127.0.0.1:`port`.
    public init(port: UInt16) {
        self.port = port
        application = nil
    }

    /// A client that hands requests to `application` (started with `startWithoutSocket()`).
    public init(application: ParleyApplication) {
        port = 0
        self.application = application
    }

    /// Every (request line, status) this client got, in order.
    public var exchanges: [(request: String, status: Int)] { seen.withLock { $0 } }

    /// The exchanges that ended in a 5xx.
    public var serverErrors: [String] { exchanges.filter { $0.status >= 500 }.map { "\($0.request) → \($0.status)" } }

    /// Sends one request and reads the response (at most `timeout` seconds per read: a hang guard,
    /// generous because a saturated CI machine can stall a response for seconds). Blocks the
    /// calling thread: call it from a harness's body, never from a bare task.
    @discardableResult
    public func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: Int = 30
    ) throws -> RawResponse {
        let response: RawResponse
        if let application {
            response = try BlockingWait.result(timeout: Double(timeout)) {
                await RouterExchange.respond(application, method, target, headers: headers, body: body)
            }
        } else {
            response = try exchange(method, target, headers: headers, body: body, timeout: timeout)
        }
        return record(method, target, headers: headers, body: body, response: response)
    }

    /// `send`, awaited: the router mode awaits the application; a socket exchange runs on a
    /// thread of its own, so no cooperative thread waits on a read.
    @discardableResult
    public func execute(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: Int = 30
    ) async throws -> RawResponse {
        let response: RawResponse
        if let application {
            response = await RouterExchange.respond(application, method, target, headers: headers, body: body)
        } else {
            response = try await BlockingWait.offPool {
                try self.exchange(method, target, headers: headers, body: body, timeout: timeout)
            }
        }
        return record(method, target, headers: headers, body: body, response: response)
    }

    /// `send` with a JSON body and `Content-Type: application/json`.
    @discardableResult
    public func sendJSON(_ method: String, _ target: String, _ json: String, headers: [(String, String)] = [])
        throws -> RawResponse
    {
        try send(method, target, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    /// Keeps the exchange for the 5xx check and hands it to the run's recorders.
    private func record(
        _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]?, response: RawResponse
    ) -> RawResponse {
        seen.withLock { $0.append(("\(method) \(target)", response.status)) }
        ResponseRecorder.record(method: method, target: target, response: response)
        UsedSecrets.record(target: target, headers: headers, body: body, response: response)
        return response
    }

    /// One request over a fresh connection to 127.0.0.1:`port`.
    private func exchange(
        _ method: String, _ target: String, headers: [(String, String)], body: [UInt8]?, timeout: Int
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let fd = try TestSocket.connect(port: port, timeout: Double(timeout))
        defer { close(fd) }
        // A server may answer (413) and close before the body is sent: stop sending then, and read.
        _ = TestSocket.sendAll(fd, Array(head.utf8) + (body ?? []))
        return try readResponse(fd, method: method)
    }

    private func readResponse(_ fd: Int32, method: String) throws -> RawResponse {
        var buffer: [UInt8] = []
        // 16 KiB per read: most responses fit, and a larger array was zeroed for every exchange.
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var parsed: (status: Int, headers: [(name: String, value: String)], bodyStart: Int)?
        while true {
            if parsed == nil, let end = TestSocket.headEnd(buffer) {
                let head = try TestSocket.parseHead(buffer, end: end)
                parsed = (head.status, head.headers, end + 4)
            }
            if let parsed {
                let length = parsed.headers.first { $0.name.lowercased() == "content-length" }.flatMap {
                    Int($0.value)
                }
                let bodyless = method == "HEAD" || parsed.status == 304 || parsed.status == 204
                let wanted = bodyless ? 0 : (length ?? Int.max)
                if buffer.count - parsed.bodyStart >= wanted {
                    let body = Array(buffer[parsed.bodyStart..<parsed.bodyStart + wanted])
                    return RawResponse(status: parsed.status, headers: parsed.headers, body: body)
                }
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                if let parsed, count == 0 {  // closed: the body is what came
                    let body = Array(buffer[parsed.bodyStart...])
                    return RawResponse(status: parsed.status, headers: parsed.headers, body: body)
                }
                throw TestSocket.Failure(
                    description: "no complete response (read \(buffer.count) bytes, errno \(count < 0 ? errno : 0))")
            }
            buffer += chunk[0..<count]
        }
    }
}
