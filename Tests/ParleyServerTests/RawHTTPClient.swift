import Foundation
import ParleyCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 response as it came off the wire.
struct RawResponse: Sendable, CustomStringConvertible {
    /// The status code.
    let status: Int
    /// Every header line in order, duplicates kept.
    let headers: [(name: String, value: String)]
    /// The body bytes.
    let body: [UInt8]

    /// Every value of a header (case-insensitive name).
    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The only (or first) value of a header.
    func header(_ name: String) -> String? { values(name).first }

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (`null` when it is not JSON).
    var json: JSONValue { (try? JSONParser.parse(body)) ?? .null }

    /// Whether the body is an RFC 9457 problem document.
    var isProblem: Bool {
        header("Content-Type")?.hasPrefix("application/problem+json") == true && json["type"]?.stringValue != nil
            && json["status"]?.numberValue?.intValue == status
    }

    /// The problem `type`, if any.
    var problemType: String? { json["type"]?.stringValue }

    var description: String { "\(status) \(text.prefix(600))" }
}

/// A tiny HTTP/1.1 client over raw sockets (`Connection: close`, one request per
/// connection), so tests see exactly what the server sends, early 413s included.
/// Every response is kept so a test can check the server never answered 5xx.
final class RawHTTPClient: Sendable {
    /// The server's port on 127.0.0.1.
    let port: UInt16
    private let seen = Mutex<[(request: String, status: Int)]>([])

    init(port: UInt16) { self.port = port }

    /// Every (request line, status) this client got, in order.
    var exchanges: [(request: String, status: Int)] { seen.withLock { $0 } }

    /// The exchanges that ended in a 5xx.
    var serverErrors: [String] { exchanges.filter { $0.status >= 500 }.map { "\($0.request) → \($0.status)" } }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends one request and reads the response (at most `timeout` seconds per read).
    @discardableResult
    func send(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8]? = nil,
        timeout: Int = 10
    ) throws -> RawResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let fd = try connectSocket(timeout: timeout)
        defer { close(fd) }
        // A server may answer (413) and close before the body is sent: stop sending then, and read.
        _ = sendAll(fd, Array(head.utf8) + (body ?? []))
        let response = try readResponse(fd, method: method)
        seen.withLock { $0.append(("\(method) \(target)", response.status)) }
        ResponseRecorder.record(method: method, target: target, response: response)
        return response
    }

    /// `send` with a JSON body and `Content-Type: application/json`.
    @discardableResult
    func sendJSON(_ method: String, _ target: String, _ json: String, headers: [(String, String)] = [])
        throws -> RawResponse
    {
        try send(method, target, headers: [("Content-Type", "application/json")] + headers, body: Array(json.utf8))
    }

    private func connectSocket(timeout: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(code)")
        }
        return fd
    }

    /// Sends everything; false when the peer stopped reading (reset or closed).
    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private func readResponse(_ fd: Int32, method: String) throws -> RawResponse {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var parsed: (status: Int, headers: [(name: String, value: String)], bodyStart: Int)?
        while true {
            if parsed == nil, let end = Self.headEnd(buffer) { parsed = try Self.parseHead(buffer, end: end) }
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
                throw Failure(
                    description: "no complete response (read \(buffer.count) bytes, errno \(count < 0 ? errno : 0))")
            }
            buffer += chunk[0..<count]
        }
    }

    private static func headEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func parseHead(_ buffer: [UInt8], end: Int) throws -> (
        status: Int, headers: [(name: String, value: String)], bodyStart: Int
    ) {
        let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines[0])")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header: \(line)") }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, headers, end + 4)
    }
}
