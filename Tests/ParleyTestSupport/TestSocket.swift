import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The socket calls both raw test clients share: connect to loopback with timeouts, send
/// everything, find the end of a response head.
enum TestSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A TCP socket connected to 127.0.0.1:`port`, reads and writes timing out after `timeout` s.
    static func connect(port: UInt16, timeout: Double) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        setTimeout(fd, timeout)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(code)")
        }
        return fd
    }

    /// Sets the receive and send timeouts.
    static func setTimeout(_ fd: Int32, _ seconds: Double) {
        var value = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends everything; false when the peer stopped reading (reset or closed).
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
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

    /// Index of the CRLF CRLF ending a response head, if it has arrived.
    static func headEnd(_ buffer: [UInt8]) -> Int? {
        position(of: headTerminator, in: buffer, from: 0)
    }

    private static let headTerminator: [UInt8] = [13, 10, 13, 10]

    /// The offset of the first `needle` in `bytes` at or after `from`, found with `memchr` and
    /// `memcmp`: a byte loop over an array costs a call per subscript in a debug build.
    static func position(of needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, from >= 0, bytes.count - from >= needle.count else { return nil }
        return bytes.withUnsafeBytes { haystack -> Int? in
            needle.withUnsafeBytes { wanted -> Int? in
                let base = haystack.baseAddress!
                let last = haystack.count - wanted.count  // the last offset a match can start at
                var offset = from
                while offset <= last {
                    guard let hit = memchr(base + offset, Int32(wanted[0]), last - offset + 1) else { return nil }
                    let start = UnsafeRawPointer(hit) - base
                    if memcmp(base + start, wanted.baseAddress!, wanted.count) == 0 { return start }
                    offset = start + 1
                }
                return nil
            }
        }
    }

    /// Status line and header lines of a response head (`buffer[0..<end]`).
    static func parseHead(_ buffer: [UInt8], end: Int) throws -> (status: Int, headers: [(name: String, value: String)])
    {
        let lines = String(decoding: buffer[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line: \(lines[0])")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header: \(line)") }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, headers)
    }
}
