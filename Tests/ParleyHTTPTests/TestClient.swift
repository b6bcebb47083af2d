import Foundation
import Glibc
import Logging
import ParleyHTTP

/// A raw-socket HTTP/1.1 client for live tests: it sends exactly the bytes given, so tests can
/// pipeline, trickle or misbehave, and it parses responses strictly enough to check framing.
final class TestClient {
    /// A parsed response.
    struct Response {
        let status: Int
        let headers: [(String, String)]
        let body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }

        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
    }

    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` with a receive timeout.
    init(port: Int, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            Glibc.close(fd)
            throw ClientError(description: "connect failed: errno \(errno)")
        }
        setTimeout(timeout)
    }

    deinit { Glibc.close(fd) }

    func setTimeout(_ seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw ClientError(description: "send failed: errno \(errno)") }
            sent += count
        }
    }

    /// Half-closes: the server sees EOF but can still answer.
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into the buffer; false on EOF.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        if count == 0 { return false }
        throw ClientError(description: errno == EAGAIN ? "timed out" : "recv failed: errno \(errno)")
    }

    /// Reads one response; `head` marks a response to HEAD (no body despite Content-Length).
    func readResponse(head: Bool = false) throws -> Response {
        while true {
            if let end = findHeadEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
                    throw ClientError(description: "bad status line in \(headText)")
                }
                let headers = lines.filter { !$0.isEmpty }.map { line -> (String, String) in
                    let parts = line.split(separator: ":", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
                }
                let length =
                    head || status < 200 || status == 204 || status == 304
                    ? 0 : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
                while buffer.count < end + 4 + length {
                    guard try fill() else { throw ClientError(description: "EOF inside body") }
                }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return Response(status: status, headers: headers, body: body)
            }
            guard try fill() else { throw ClientError(description: "EOF before a response") }
        }
    }

    /// Whether the server closed the connection (EOF) with nothing more to read.
    func isClosedByServer() -> Bool {
        guard buffer.isEmpty else { return false }
        return (try? fill()) == false
    }

    /// Everything received until the server closes; nil if it does not close before the timeout.
    func readUntilClosed() -> [UInt8]? {
        while true {
            do {
                if try !fill() { return buffer }
            } catch {
                // A reset also means the server dropped the connection.
                return "\(error)".contains("errno \(ECONNRESET)") ? buffer : nil
            }
        }
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}

/// A live server on an ephemeral port for one test.
struct LiveServer {
    let server: HTTPServer
    let port: Int

    static func start(
        _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }, router: Router = LiveServer.router()
    ) throws -> LiveServer {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.loopThreads = 2
        configure(&configuration)
        var logger = Logger(label: "live")
        logger.logLevel = .warning
        let server = try HTTPServer(configuration: configuration, responder: router, logger: logger)
        return LiveServer(server: server, port: try server.start())
    }

    func stop() async { await server.shutdown(deadline: .seconds(5)) }

    /// Routes the live tests share.
    static func router() -> Router {
        var router = Router()
        router.inline("GET", "/healthz") { _, _ in .json(#"{"status":"ok"}"#) }
        router.inline("POST", "/echo") { request, _ in HTTPResponse(body: request.body) }
        router.inline("POST", "/small", maxBodyBytes: 8) { request, _ in HTTPResponse(body: request.body) }
        router.on("GET", "/slow/{ms}") { _, context in
            try await Task.sleep(for: .milliseconds(context.parameters.integer("ms") ?? 100))
            return .text("slept")
        }
        router.on("GET", "/blocking") { _, _ in
            usleep(600_000)  // a handler that blocks its thread, like a libpq call
            return .text("blocked")
        }
        router.inline("GET", "/big/{n}") { _, context in
            HTTPResponse(body: [UInt8](repeating: 120, count: context.parameters.integer("n") ?? 0))
        }
        router.on("GET", "/fail") { _, _ in throw CancellationError() }
        return router
    }
}

extension String {
    static func get(_ path: String, _ extra: String = "") -> String {
        "GET \(path) HTTP/1.1\r\nHost: test\r\n\(extra)\r\n"
    }
}
