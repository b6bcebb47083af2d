import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A raw-socket HTTP/1.1 client for live tests: it sends exactly the bytes given, so tests can
/// pipeline, trickle or misbehave, and it parses responses strictly enough to check framing.
/// Unlike ``RawHTTPClient`` it keeps one connection open across requests.
public final class TestClient {
    /// A parsed response (the same shape ``RawHTTPClient`` returns).
    public typealias Response = RawResponse

    /// The connected socket.
    public let fd: Int32
    private var buffer: [UInt8] = []
    /// What one `recv` reads into, made at the first read and kept (a fresh 64 KiB array per read
    /// was zeroed each time; a client that never reads, one of thousands of idle streams, has none).
    private lazy var chunk = [UInt8](repeating: 0, count: 65536)

    /// Connects to 127.0.0.1:`port` with a receive timeout.
    public init(port: Int, timeout: Double = 5) throws {
        fd = try TestSocket.connect(port: UInt16(port), timeout: timeout)
    }

    deinit { Glibc.close(fd) }

    /// Sets how long a read (and a write) may block.
    public func setTimeout(_ seconds: Double) { TestSocket.setTimeout(fd, seconds) }

    /// Sends the text's UTF-8 bytes.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends every byte; throws when the server stopped reading.
    public func send(_ bytes: [UInt8]) throws {
        guard TestSocket.sendAll(fd, bytes) else {
            throw TestSocket.Failure(description: "send failed: errno \(errno)")
        }
    }

    /// Half-closes: the server sees EOF but can still answer.
    public func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into the buffer; false on EOF.
    private func fill() throws -> Bool {
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            chunk.withUnsafeBufferPointer { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: $0[0..<count])) }
            return true
        }
        if count == 0 { return false }
        throw TestSocket.Failure(description: errno == EAGAIN ? "timed out" : "recv failed: errno \(errno)")
    }

    /// Reads one response; `head` marks a response to HEAD (no body despite Content-Length).
    public func readResponse(head: Bool = false) throws -> Response {
        while true {
            if let end = TestSocket.headEnd(buffer) {
                let parsed = try TestSocket.parseHead(buffer, end: end)
                let status = parsed.status
                let length =
                    head || status < 200 || status == 204 || status == 304
                    ? 0
                    : Int(parsed.headers.first { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
                while buffer.count < end + 4 + length {
                    guard try fill() else { throw TestSocket.Failure(description: "EOF inside body") }
                }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return Response(status: status, headers: parsed.headers, body: body)
            }
            guard try fill() else { throw TestSocket.Failure(description: "EOF before a response") }
        }
    }

    /// Reads a streaming response's head (no `Content-Length`: the body runs until close).
    public func readStreamHead() throws -> Response {
        while true {
            if let end = TestSocket.headEnd(buffer) {
                let parsed = try TestSocket.parseHead(buffer, end: end)
                buffer.removeFirst(end + 4)
                return Response(status: parsed.status, headers: parsed.headers, body: [])
            }
            guard try fill() else { throw TestSocket.Failure(description: "EOF before a response") }
        }
    }

    /// Reads a stream's body up to and including the first `marker` (e.g. an SSE event's blank
    /// line) and returns that text; throws on EOF or timeout first.
    public func read(through marker: String) throws -> String {
        let needle = Array(marker.utf8)
        // Where a match may still start: what was searched before a read is not searched again.
        var from = 0
        while true {
            if let start = TestSocket.position(of: needle, in: buffer, from: from) {
                let text = String(decoding: buffer[0..<(start + needle.count)], as: UTF8.self)
                buffer.removeFirst(start + needle.count)
                return text
            }
            from = max(0, buffer.count - needle.count + 1)
            guard try fill() else { throw TestSocket.Failure(description: "EOF before \(marker.debugDescription)") }
        }
    }

    /// Whether bytes of a response that has not been read whole are buffered (a response cut
    /// short shows as this after an EOF).
    public var hasPartialResponse: Bool { !buffer.isEmpty }

    /// Whether the server closed the connection (EOF) with nothing more to read.
    public func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        return (try? fill()) == false
    }

    /// Everything received until the server closes; nil if it does not close before the timeout.
    public func readUntilClosed() -> [UInt8]? {
        while true {
            do {
                if try !fill() { return buffer }
            } catch {
                // A reset also means the server dropped the connection.
                return "\(error)".contains("errno \(ECONNRESET)") ? buffer : nil
            }
        }
    }
}
